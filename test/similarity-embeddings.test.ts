import crypto from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { backfillSettled } from '../src/similarity/backfill.js';
import { embedLexical, emptyStats, observe } from '../src/similarity/lexical.js';
import { semanticSearch, similarDocuments } from '../src/similarity/similar.js';
import { runBackfill } from '../src/similarity/backfill.js';
import { bruteForce } from '../src/similarity/vec-index.js';
import { LIBRARY_SERVICE } from '../src/similarity/hnsw.js';
import { readVector } from '../src/similarity/repo.js';
import { startTestServer, tempDirs, waitFor, type TestServer } from './_setup.js';
import { seedDocuments, TOPICS } from './_similarity.js';

let t: TestServer;
let ids: number[];
test.before(async () => {
  t = await startTestServer();
  ids = seedDocuments(t.ctx.db, TOPICS);
});
test.after(async () => {
  await t.close();
});

test('lexical vectors: fixed dimension, unit length, deterministic; shared rare words are closer', () => {
  const stats = emptyStats();
  for (const d of TOPICS) observe(stats, d);
  const a = embedLexical(stats, TOPICS[0]!);
  const b = embedLexical(stats, TOPICS[1]!);
  const c = embedLexical(stats, TOPICS[3]!);
  assert.is(a.length, 384);
  assert.ok(Math.abs(a.reduce((s, x) => s + x * x, 0) - 1) < 1e-5);
  assert.equal(Array.from(embedLexical(stats, TOPICS[0]!)), Array.from(a));
  const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
  assert.ok(cos(a, b) > cos(a, c) + 0.2, `reef pair ${cos(a, b)} vs reef/translation ${cos(a, c)}`);
});

test('lexical vectors are the same bytes as the vectors already stored (pinned: a faster hashing must not change them)', () => {
  const docs = [
    { title: 'Coral reef bleaching under marine heatwaves', abstract: 'Sea surface temperature anomalies drive mass coral bleaching; we model reef recovery.' },
    { title: 'Naïve Bayes für Café-Rezensionen: a résumé', abstract: 'Crème brûlée <i>in vivo</i> and the Ångström unit, with αβγ and 漢字.' },
    { title: 'A', abstract: null },
    { title: 'The effects of X on Y in Z', abstract: 'x y zz the of and 42 3.14' },
  ];
  const stats = emptyStats();
  for (const d of docs) observe(stats, d);
  assert.is(stats.df.reduce((a, b) => a + b, 0), 137);
  const digests = docs.map((d) => crypto.createHash('sha256').update(embedLexical(stats, d)).digest('hex').slice(0, 16));
  assert.equal(digests, ['5c687e37287f69f6', '91b1a9d1c71ca140', '80422bc3d307b4a2', '3b8b05993a380246']);
});

test('settings read: nested writable settings plus capability metadata; a provider that cannot embed is refused', async () => {
  const read = (await t.request('GET', '/api/settings/embeddings')).json();
  assert.equal(read.settings, { provider: 'local', model: '', base_url: '', batch_size: 32, embed_after_runs: true });
  assert.is(read.capabilities.active.kind, 'lexical');
  assert.is(read.capabilities.active.semantic, false);
  assert.ok(read.capabilities.providers.find((p: any) => p.id === 'openai').credential_status === 'absent');
  for (const provider of ['anthropic', 'nonsense']) {
    const r = await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider } } });
    assert.is(r.status, 422, provider);
    assert.equal(r.json().detail[0].loc, ['body', 'settings', 'provider']);
    assert.is(r.json().detail[0].type, 'provider_cannot_embed');
  }
  const bad = await t.request('PUT', '/api/settings/embeddings', { body: { settings: { batch_size: 0 } } });
  assert.is(bad.status, 422);
  const wrongModel = await t.request('PUT', '/api/settings/embeddings', { body: { settings: { model: 'all-MiniLM-L6-v2' } } });
  assert.is(wrongModel.status, 422, 'the local lane has one model');
  assert.is((await t.request('GET', '/api/settings/embeddings')).json().settings.provider, 'local', 'nothing stored by a refusal');
  assert.is((await t.request('PUT', '/api/settings/embeddings', { body: {} })).status, 422);
});

test('status before a backfill; similar says no vector yet; unknown document 404; limit bounds 422', async () => {
  const s = (await t.request('GET', '/api/embeddings/status')).json();
  assert.equal([s.embedded, s.total, s.model, s.kind, s.semantic], [0, TOPICS.length, 'local/lexical-hash-v1', 'lexical', false]);
  assert.is(s.extension.loaded, true);
  assert.is(s.index.state, 'missing');
  const similar = (await t.request('GET', `/api/documents/${ids[0]}/similar`)).json();
  assert.equal([similar.results, similar.reason], [[], 'no_vector_yet']);
  assert.is((await t.request('GET', '/api/documents/999999/similar')).status, 404);
  assert.is((await t.request('GET', `/api/documents/${ids[0]}/similar?limit=0`)).status, 422);
  assert.is((await t.request('GET', `/api/documents/${ids[0]}/similar?limit=101`)).status, 422);
  const estimate = (await t.request('GET', '/api/embeddings/estimate')).json();
  assert.equal([estimate.documents, estimate.cost_usd, estimate.cost], [TOPICS.length, 0, 'free']);
  assert.ok(estimate.tokens > 0);
});

test('backfill returns at once, embeds everything, is incremental; rebuild; similar answers neighbours with distances and sources', async () => {
  const r = await t.request('POST', '/api/embeddings/backfill');
  assert.is(r.status, 202);
  assert.is(r.json().run.state, 'running');
  await backfillSettled(t.ctx);
  let s = (await t.request('GET', '/api/embeddings/status')).json();
  assert.equal([s.embedded, s.total, s.run.state, s.run.embedded], [TOPICS.length, TOPICS.length, 'completed', TOPICS.length]);
  // Incremental: a second backfill embeds nothing.
  await t.request('POST', '/api/embeddings/backfill');
  await backfillSettled(t.ctx);
  s = (await t.request('GET', '/api/embeddings/status')).json();
  assert.equal([s.run.total, s.run.embedded], [0, 0]);

  const rebuilt = (await t.request('POST', '/api/embeddings/rebuild')).json();
  assert.equal([rebuilt.vectors, rebuilt.dimension], [TOPICS.length, 384]);
  assert.is((await t.request('GET', '/api/embeddings/status')).json().index.state, 'ready');

  t.ctx.db.prepare(`INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (?, 'arxiv', 'x1', 'z', 'z', '{}')`).run(ids[1]);
  const similar = (await t.request('GET', `/api/documents/${ids[0]}/similar?limit=3`)).json();
  assert.is(similar.reason, null);
  assert.is(similar.query_method, 'hnsw');
  assert.is(similar.results.length, 3);
  assert.ok([ids[1], ids[2]].includes(similar.results[0].document_id), 'a reef paper is nearest to a reef paper');
  assert.ok(!similar.results.some((x: any) => x.document_id === ids[0]), 'never itself');
  const reef = similar.results.find((x: any) => x.document_id === ids[1]);
  assert.equal(reef.sources, ['arxiv']);
  assert.ok(similar.results.every((x: any, i: number, all: any[]) => i === 0 || all[i - 1].distance <= x.distance));
  // The HNSW graph with exact rescoring answers what the exact scan answers, distances included.
  const exact = bruteForce(t.ctx, 'local/lexical-hash-v1', readVector(t.ctx.db, 'local/lexical-hash-v1', ids[0]!)!, 3, undefined, ids[0]);
  assert.equal(similar.results.map((x: any) => [x.document_id, x.distance]), exact.map((n) => [n.document_id, Math.round(n.distance * 1e6) / 1e6]));

  // A new document has no vector until embedded; the index follows new vectors.
  const [late] = seedDocuments(t.ctx.db, [{ title: 'Coral reef heatwave bleaching survey', abstract: 'Bleaching of corals on reefs.' }]);
  assert.is((await t.request('GET', `/api/documents/${late}/similar`)).json().reason, 'no_vector_yet');
  await t.request('POST', '/api/embeddings/backfill');
  await backfillSettled(t.ctx);
  const after = (await t.request('GET', `/api/documents/${late}/similar?limit=2`)).json();
  assert.equal([after.results.length, after.query_method], [2, 'hnsw']);
  const index = (await t.request('GET', '/api/embeddings/status')).json().index;
  assert.equal([index.state, index.vectors, index.pending_changes], ['ready', TOPICS.length, 1], 'the new vector is read from the canonical table until the next file');
});

test('semanticSearch: ranks by the active lane, restricted to given ids when asked; unavailable says why', async () => {
  const answer = await semanticSearch(t.ctx, 'protein folding deep learning', { limit: 3 });
  assert.ok(!('unavailable' in answer));
  if ('unavailable' in answer) return;
  assert.is(answer.model, 'local/lexical-hash-v1');
  assert.ok([ids[5], ids[6]].includes(answer.results[0]!.document_id));
  const restricted = await semanticSearch(t.ctx, 'protein folding deep learning', { limit: 3, documentIds: [ids[0]!, ids[3]!] });
  assert.ok(!('unavailable' in restricted) && restricted.results.every((r) => [ids[0], ids[3]].includes(r.document_id)));
});

test('model change and embeddings off: empty answers carry the reason; estimate refuses when off', async () => {
  t.ctx.db.prepare(`INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES ('embeddings', 'provider', '"ollama"', 'z') ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json`).run();
  const changed = (await t.request('GET', `/api/documents/${ids[0]}/similar`)).json();
  assert.equal([changed.results, changed.reason, changed.model], [[], 'model_changed', 'ollama/nomic-embed-text']);
  assert.is((await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'none' } } })).status, 200);
  const off = (await t.request('GET', `/api/documents/${ids[0]}/similar`)).json();
  assert.equal([off.results, off.reason], [[], 'embeddings_off']);
  assert.is((await t.request('GET', '/api/embeddings/estimate')).status, 409);
  assert.is((await t.request('POST', '/api/embeddings/backfill')).status, 409);
  const search = await semanticSearch(t.ctx, 'coral', { limit: 5 });
  assert.equal(search, { unavailable: 'embeddings_off', message: 'Embeddings are off (provider none).' });
  await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'local' } } });
  assert.is((await t.request('GET', '/api/settings/embeddings')).json().settings.model, '', 'a new provider takes its default model');
});

test('without the HNSW library: status says why, similar answers by exact scan with the same neighbours, rebuild is 503', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => {} }) });
  try {
    ctx.service(LIBRARY_SERVICE, () => Promise.resolve({ loaded: false, version: null, reason: 'cannot open shared object file', usearch: null }));
    const local = seedDocuments(ctx.db, TOPICS);
    await runBackfill(ctx, { trigger: 'test' });
    const answer = await similarDocuments(ctx, local[3]!, 2);
    assert.is(answer.query_method, 'exact_scan');
    assert.match(answer.extension_note ?? '', /cannot open shared object file/);
    assert.is(answer.results[0]!.document_id, local[4]);
    const { embeddingStatus } = await import('../src/similarity/service.js');
    const s = await embeddingStatus(ctx);
    assert.equal([s.extension.loaded, s.extension.reason, s.index.state], [false, 'cannot open shared object file', 'unavailable']);
    const { rebuildIndex } = await import('../src/similarity/vec-index.js');
    await rebuildIndex(ctx, 'local/lexical-hash-v1').then(
      () => assert.unreachable('rebuild without the extension'),
      (err) => assert.equal([err.status, err.reason], [503, 'extension_unavailable']),
    );
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('a changed title drops the vector (re-embedded by the next backfill)', async () => {
  await waitFor(() => true);
  t.ctx.db.prepare('UPDATE documents SET title = ? WHERE id = ?').run('Coral reefs: a new title', ids[2]);
  const s = (await t.request('GET', '/api/embeddings/status')).json();
  assert.is(s.missing, 1);
});

test.run();
