/**
 * The HNSW vector index beside the database: it answers what the exact scan
 * answers, follows new vectors at once (from any process) and folds them
 * into its file when they are many, survives a build killed at any point,
 * is rebuilt when its file does not match the database or the model, serves
 * the explorer's filtered semantic search without ever showing a paper the
 * filters exclude, and goes with an erase of the papers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext, type Context, type Tuning } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { runBackfill } from '../src/similarity/backfill.js';
import { semanticSearch, similarDocuments } from '../src/similarity/similar.js';
import { bruteForce, nearest, rebuildIndex } from '../src/similarity/vec-index.js';
import { indexSettled, maintainIndex } from '../src/similarity/index-build.js';
import { indexDir } from '../src/similarity/index-files.js';
import { embeddingStatus } from '../src/similarity/service.js';
import { readIndexState, readVector, writeVectors } from '../src/similarity/repo.js';
import { eraseScope } from '../src/admin/erase.js';
import { setJobRole } from '../src/claims/jobs.js';
import { searchExplorer } from '../src/explorer/search.js';
import { parseSearchBody } from '../src/explorer/filters.js';
import { useSemanticSearch } from '../src/explorer/semantic.js';
import { runCli, tempDirs, type TempDirs } from './_setup.js';
import { restart, seededInstallation } from './_admin.js';
import { seedDocuments, type SeedDoc } from './_similarity.js';

const MODEL = 'local/lexical-hash-v1';

/** Papers on 24 topics, each topic its own words, so that lexical neighbours are mostly of one topic. */
function corpus(n: number, offset = 0): SeedDoc[] {
  let seed = 17 + offset;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'xi', 'ze', 'po', 'qu', 'sa'];
  const word = (i: number) => syllables[i % 12]! + syllables[Math.floor(i / 12) % 12]! + syllables[Math.floor(i / 144) % 12]!;
  return Array.from({ length: n }, (_, i) => {
    const topic = Math.floor(rand() * 24);
    const pick = (count: number) => Array.from({ length: count }, () => word(rand() < 0.8 ? topic * 40 + Math.floor(rand() * 40) : 1000 + Math.floor(rand() * 600))).join(' ');
    return { title: `${pick(7)} ${offset + i}`, abstract: pick(30), year: 2000 + ((offset + i) % 20), authors: [{ name: `Author ${(offset + i) % 50}` }] };
  });
}

interface Fixture {
  ctx: Context;
  dirs: TempDirs;
  ids: number[];
  reopen(tuning?: Partial<Tuning>): Promise<Context>;
  close(): Promise<void>;
}

async function embeddedCorpus(n: number, tuning: Partial<Tuning> = {}): Promise<Fixture> {
  const dirs = tempDirs();
  const open = (t: Partial<Tuning>) => {
    const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => {} }), tuning: t });
    setJobRole(ctx, 'server'); // as a server start does: a long-lived process builds in the background
    return ctx;
  };
  const fixture: Fixture = {
    ctx: open(tuning),
    dirs,
    ids: [],
    async reopen(t = tuning) {
      await fixture.ctx.close();
      fixture.ctx = open(t);
      return fixture.ctx;
    },
    async close() {
      await fixture.ctx.close();
      dirs.cleanup();
    },
  };
  fixture.ids = seedDocuments(fixture.ctx.db, corpus(n));
  fixture.ctx.db.prepare("UPDATE documents SET sort_date = printf('%04d-00-00', year)").run();
  await runBackfill(fixture.ctx, { trigger: 'test' });
  await indexSettled(fixture.ctx);
  return fixture;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const generations = (ctx: Context) => (fs.existsSync(indexDir(ctx)) ? fs.readdirSync(indexDir(ctx)).sort() : []);

test('a built index answers what the exact scan answers: the same neighbours, nearest first, exact distances', async () => {
  const f = await embeddedCorpus(1500);
  try {
    const built = await rebuildIndex(f.ctx, MODEL);
    assert.equal([built.vectors, built.dimension], [1500, 384]);
    let found = 0;
    for (const id of f.ids.slice(0, 60)) {
      const answer = await similarDocuments(f.ctx, id, 10);
      assert.is(answer.query_method, 'hnsw');
      const exact = bruteForce(f.ctx, MODEL, readVector(f.ctx.db, MODEL, id)!, 10, undefined, id);
      const truth = new Set(exact.map((n) => n.document_id));
      found += answer.results.filter((r) => truth.has(r.document_id)).length;
      const own = readVector(f.ctx.db, MODEL, id)!;
      for (const r of answer.results) assert.ok(Math.abs(r.distance - (1 - dot(own, readVector(f.ctx.db, MODEL, r.document_id)!))) < 1e-5, 'every distance is the exact one');
      assert.ok(answer.results.every((r, i, all) => i === 0 || all[i - 1]!.distance <= r.distance), 'nearest first');
      assert.ok(!answer.results.some((r) => r.document_id === id), 'never itself');
    }
    assert.ok(found / 600 >= 0.97, `recall@10 ${found / 600}`);
    const files = generations(f.ctx);
    assert.equal(files, [`${readIndexState(f.ctx.db)!.file_id}.json`, `${readIndexState(f.ctx.db)!.file_id}.usearch`]);
  } finally {
    await f.close();
  }
});

test('new vectors are found at once, from any process, and folded into the file when they are many', async () => {
  const f = await embeddedCorpus(1200);
  try {
    await rebuildIndex(f.ctx, MODEL);
    const first = readIndexState(f.ctx.db)!;
    // Another process (svc embed backfill) embeds new papers: a twin of an indexed paper among them.
    const twin = readDoc(f.ctx, f.ids[7]!);
    const added = seedDocuments(f.ctx.db, [...corpus(40, 5000), { title: twin.title, abstract: twin.abstract }]);
    const cli = await runCli(['embed', 'backfill'], { env: f.dirs.env });
    assert.is(cli.code, 0, cli.stderr);
    const answer = await similarDocuments(f.ctx, f.ids[7]!, 5);
    assert.is(answer.query_method, 'hnsw');
    assert.is(answer.results[0]!.document_id, added.at(-1), 'the new twin is nearest, before any new file');
    assert.ok(answer.results[0]!.distance < 0.05, `twin at ${answer.results[0]!.distance}`);
    let status = (await embeddingStatus(f.ctx)).index;
    assert.equal([status.state, status.vectors, status.pending_changes, readIndexState(f.ctx.db)!.file_id], ['ready', 1200, 41, first.file_id]);
    // A deleted paper leaves the answers at once.
    f.ctx.db.prepare('DELETE FROM documents WHERE id = ?').run(added.at(-1));
    assert.ok(!(await similarDocuments(f.ctx, f.ids[7]!, 5)).results.some((r) => r.document_id === added.at(-1)));

    // Past the pending limit a query folds the changes into a new generation, in the background.
    const ctx = await f.reopen({ vectorIndexPendingMax: 10 });
    await similarDocuments(ctx, f.ids[7]!, 5);
    await indexSettled(ctx);
    const second = readIndexState(ctx.db)!;
    assert.is.not(second.file_id, first.file_id);
    status = (await embeddingStatus(ctx)).index;
    assert.equal([status.state, status.vectors, status.pending_changes], ['ready', 1240, 0]);
    assert.equal(generations(ctx), [`${second.file_id}.json`, `${second.file_id}.usearch`], 'the old generation is removed');
    const after = await similarDocuments(ctx, f.ids[7]!, 5);
    assert.equal([after.query_method, after.results.some((r) => r.document_id === added.at(-1))], ['hnsw', false]);
    assert.is(ctx.db.prepare('SELECT count(*) FROM embedding_vector_changes WHERE seq <= ?').pluck().get(second.through_seq), 0, 'the changes the file holds are forgotten');
  } finally {
    await f.close();
  }
});

test('svc embed backfill folds what it wrote into the index file before it ends (a command starts no background build)', async () => {
  const f = await embeddedCorpus(1200);
  try {
    await rebuildIndex(f.ctx, MODEL);
    const first = readIndexState(f.ctx.db)!;
    seedDocuments(f.ctx.db, corpus(150, 7000));
    const cli = await runCli(['embed', 'backfill'], { env: f.dirs.env });
    assert.is(cli.code, 0, cli.stderr);
    assert.match(cli.stderr, /Writing the new vectors into the vector index/);
    const state = readIndexState(f.ctx.db)!;
    assert.is.not(state.file_id, first.file_id);
    const status = (await embeddingStatus(f.ctx)).index;
    assert.equal([status.state, status.vectors, status.pending_changes], ['ready', 1350, 0]);
    assert.equal(generations(f.ctx), [`${state.file_id}.json`, `${state.file_id}.usearch`]);
  } finally {
    await f.close();
  }
});

function readDoc(ctx: Context, id: number): { title: string; abstract: string | null } {
  return ctx.db.prepare('SELECT title, abstract FROM documents WHERE id = ?').get(id) as { title: string; abstract: string | null };
}

test('a build killed at any point leaves the old index in use; a file that does not match the database is rebuilt', async () => {
  const f = await embeddedCorpus(800, { vectorIndexFrom: 100 });
  try {
    await rebuildIndex(f.ctx, MODEL);
    const live = readIndexState(f.ctx.db)!;
    const dir = indexDir(f.ctx);
    // What a kill leaves: a half-written graph under its temporary name; a whole graph renamed
    // without its sidecar; a whole generation whose state row was never written.
    fs.writeFileSync(path.join(dir, 'aaaa.usearch.999.tmp'), Buffer.alloc(1000));
    fs.copyFileSync(path.join(dir, `${live.file_id}.usearch`), path.join(dir, 'bbbb.usearch'));
    fs.copyFileSync(path.join(dir, `${live.file_id}.usearch`), path.join(dir, 'cccc.usearch'));
    fs.writeFileSync(path.join(dir, 'cccc.json'), fs.readFileSync(path.join(dir, `${live.file_id}.json`), 'utf8').replace(live.file_id!, 'cccc'));
    let ctx = await f.reopen();
    let answer = await similarDocuments(ctx, f.ids[3]!, 5);
    assert.is(answer.query_method, 'hnsw', 'the live generation still answers');
    assert.is((await embeddingStatus(ctx)).index.state, 'ready');

    // A sidecar that says another change seq (the state row of another database): stale, rebuilt.
    const sidecar = path.join(dir, `${live.file_id}.json`);
    fs.writeFileSync(sidecar, JSON.stringify({ ...JSON.parse(fs.readFileSync(sidecar, 'utf8')), through_seq: live.through_seq + 5 }));
    ctx = await f.reopen();
    assert.is((await embeddingStatus(ctx)).index.state, 'stale');
    answer = await similarDocuments(ctx, f.ids[3]!, 5);
    assert.is(answer.query_method, 'exact_scan', 'a stale file is never read');
    await indexSettled(ctx);
    const rebuilt = readIndexState(ctx.db)!;
    assert.is.not(rebuilt.file_id, live.file_id);
    assert.equal(generations(ctx), [`${rebuilt.file_id}.json`, `${rebuilt.file_id}.usearch`], 'leftovers of killed builds are removed');
    assert.is((await similarDocuments(ctx, f.ids[3]!, 5)).query_method, 'hnsw');
    assert.equal((await similarDocuments(ctx, f.ids[3]!, 5)).results, answer.results, 'same answer as the exact scan');

    // A truncated graph: corrupt, rebuilt.
    const graph = path.join(dir, `${rebuilt.file_id}.usearch`);
    fs.truncateSync(graph, Math.floor(fs.statSync(graph).size / 2));
    ctx = await f.reopen();
    assert.is((await embeddingStatus(ctx)).index.state, 'corrupt');
    assert.is((await similarDocuments(ctx, f.ids[3]!, 5)).query_method, 'exact_scan');
    await indexSettled(ctx);
    assert.is((await similarDocuments(ctx, f.ids[3]!, 5)).query_method, 'hnsw');
  } finally {
    await f.close();
  }
});

test('a model change invalidates the index: exact answers until the new model has its own', async () => {
  const f = await embeddedCorpus(300, { vectorIndexFrom: 100 });
  try {
    await rebuildIndex(f.ctx, MODEL);
    // The Ollama lane's vectors (8 dimensions), written as a backfill would.
    const other = 'ollama/nomic-embed-text';
    writeVectors(f.ctx.db, other, f.ids.map((id, i) => ({ id, vector: unit(Array.from({ length: 8 }, (_, d) => Math.sin((i + 1) * (d + 1))) )})), f.ctx.nowIso());
    f.ctx.db.prepare(`INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES ('embeddings', 'provider', '"ollama"', 'z') ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json`).run();
    assert.is((await embeddingStatus(f.ctx)).index.state, 'other_model');
    const answer = await similarDocuments(f.ctx, f.ids[0]!, 5);
    assert.equal([answer.model, answer.query_method], [other, 'exact_scan']);
    await indexSettled(f.ctx);
    assert.equal([readIndexState(f.ctx.db)!.model, readIndexState(f.ctx.db)!.dimension], [other, 8]);
    const indexed = await similarDocuments(f.ctx, f.ids[0]!, 5);
    assert.equal([indexed.query_method, indexed.results], ['hnsw', answer.results]);
  } finally {
    await f.close();
  }
});

function unit(v: number[]): Float32Array {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return new Float32Array(v.map((x) => x / n));
}

test('filtered semantic search through the index: only papers the filters admit, nearest first, as the exact ranking over them', async () => {
  const f = await embeddedCorpus(1500, { vectorIndexExactFilteredMax: 10 });
  try {
    await rebuildIndex(f.ctx, MODEL);
    const query = readDoc(f.ctx, f.ids[11]!).title.split(' ').slice(0, 4).join(' ');
    const years = (from: number, to: number) => f.ctx.db.prepare('SELECT id FROM documents WHERE year BETWEEN ? AND ?').pluck().all(from, to) as number[];
    for (const [label, ids] of [['a fifth', years(2004, 2007)], ['one paper in a hundred', f.ids.filter((_, i) => i % 100 === 0)]] as const) {
      const answer = await semanticSearch(f.ctx, query, { limit: 20, documentIds: ids });
      assert.ok(!('unavailable' in answer), label);
      if ('unavailable' in answer) return;
      assert.is(answer.query_method, 'hnsw', label);
      const admitted = new Set(ids);
      assert.ok(answer.results.every((r) => admitted.has(r.document_id)), `${label}: only admitted papers`);
      const exact = bruteForce(f.ctx, MODEL, (await queryVector(f.ctx, query))!, 20, ids);
      const truth = new Set(exact.map((n) => n.document_id));
      const hits = answer.results.filter((r) => truth.has(r.document_id)).length;
      assert.ok(hits >= Math.min(19, ids.length), `${label}: ${hits} of the exact ${exact.length}`);
      assert.is(answer.results.length, Math.min(20, ids.length), `${label}: as many as asked`);
      assert.ok(answer.results.every((r, i, all) => i === 0 || all[i - 1]!.distance <= r.distance), `${label}: nearest first`);
    }
    // The explorer's door: a date window, semantic mode.
    useSemanticSearch(f.ctx, semanticSearch);
    const page = await searchExplorer(f.ctx, parseSearchBody({ query, mode: 'semantic', date_from: '2004-01-01', date_to: '2007-12-31', limit: 15 }));
    assert.is(page.mode, 'semantic');
    assert.is(page.papers.length, 15);
    const window = new Set(years(2004, 2007));
    assert.ok(page.papers.every((p) => window.has(p.id)), 'only papers of the window');
    const exact = bruteForce(f.ctx, MODEL, (await queryVector(f.ctx, query))!, 15, [...window]);
    assert.ok(page.papers.filter((p) => exact.some((n) => n.document_id === p.id)).length >= 14);
  } finally {
    await f.close();
  }
});

async function queryVector(ctx: Context, query: string): Promise<Float32Array | undefined> {
  const { resolveLane, isLane } = await import('../src/similarity/lanes.js');
  const lane = resolveLane(ctx);
  return isLane(lane) ? lane.embedQuery(query) : undefined;
}

test('a filter admitting fewer papers than asked for still gets every one of them, nearest first', async () => {
  const f = await embeddedCorpus(600, { vectorIndexExactFilteredMax: 1 });
  try {
    await rebuildIndex(f.ctx, MODEL);
    const ids = [f.ids[5]!, f.ids[300]!, f.ids[599]!];
    const v = readVector(f.ctx.db, MODEL, f.ids[0]!)!;
    const answer = await nearest(f.ctx, MODEL, v, 10, { ids });
    assert.equal(answer.neighbours.map((n) => n.document_id).sort(), [...ids].sort(), 'every admitted paper, however far');
    assert.equal(answer.neighbours, bruteForce(f.ctx, MODEL, v, 10, ids));
  } finally {
    await f.close();
  }
});

test('erasing the papers drops the index: its state and its files', async () => {
  const f = await embeddedCorpus(200);
  try {
    await rebuildIndex(f.ctx, MODEL);
    assert.is(generations(f.ctx).length, 2);
    eraseScope(f.ctx, 'erase-corpus', 'erase-corpus');
    assert.is(readIndexState(f.ctx.db), undefined);
    assert.equal(generations(f.ctx), []);
    assert.is((await embeddingStatus(f.ctx)).index.state, 'missing');
    await maintainIndex(f.ctx, MODEL);
    await indexSettled(f.ctx);
    assert.equal(generations(f.ctx), [], 'nothing to build from');
  } finally {
    await f.close();
  }
});

test('a restore drops the index: the restored database is not the one the file was built from', async () => {
  const inst = await seededInstallation();
  try {
    const { t } = inst;
    await runBackfill(t.ctx, { trigger: 'test' });
    await rebuildIndex(t.ctx, MODEL);
    assert.ok(readIndexState(t.ctx.db)?.file_id, 'an index before the backup');
    const backup = await t.request('POST', '/api/backup', { body: {} });
    assert.is(backup.status, 201, backup.text);
    const staged = await t.request('POST', '/api/restore', { body: { path: backup.json().path, confirm: 'restore', vault_parent: inst.parent } });
    assert.ok(staged.status < 300, staged.text);
    const restarted = await restart(t);
    try {
      assert.is(readIndexState(restarted.ctx.db), undefined);
      assert.equal(generations(restarted.ctx), []);
      const status = (await restarted.request('GET', '/api/embeddings/status')).json();
      assert.equal([status.index.state, status.index.query_method], ['missing', 'exact_scan']);
    } finally {
      await restarted.server.close();
    }
  } finally {
    await inst.stub.close();
    inst.t.dirs.cleanup();
  }
});

test.run();
