#!/usr/bin/env node
// The explorer at scale: a generated corpus of N documents (default 1,000,000),
// merged through the same path runs use (mergeRecords, 1,000 records a
// transaction), then explorer keyword search, relevance search and facets
// timed against the same FTS5 query issued raw in the same run, and cursor
// paging checked while papers are inserted between pages.
// Targets: search p95 < 20 ms, facets < 200 ms. Relevance past RANK_BOUND matches
// is timed as the explorer answers by default (ranked among the most recently
// added RANK_BOUND) and as an exhaustive ranking, each against its raw query.
// Run after `npm run build`. BENCH_N=… sets the size; BENCH_DB=/path keeps the
// generated database for the next run (generation is the slow part).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (p) => import(path.join(root, 'dist', p));
const { openDatabase } = await load('src/db/open.js');
const { mergeRecords } = await load('src/corpus/merge.js');
const { flushSearchIndex } = await load('src/corpus/search-index.js');
const { startCheckpointer } = await load('src/db/checkpointer.js');
const { searchExplorer } = await load('src/explorer/search.js');
const { explorerFacets } = await load('src/explorer/facets.js');
const { parseSearchBody, parseFacetsBody } = await load('src/explorer/filters.js');
const { createContext } = await load('src/context.js');
const { silentLogger } = await load('src/log.js');

const loadavg = () => `load ${os.loadavg()[0].toFixed(2)}`;
const N = Number(process.env.BENCH_N ?? 1_000_000);
const keep = process.env.BENCH_DB;
const dir = keep ? path.dirname(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'svc-scale-'));
const file = keep ?? path.join(dir, 'svc.db');

// A deterministic generator: word frequencies from rare to very common.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const zipf = (n) => Math.min(n - 1, Math.floor(n * Math.pow(rand(), 3)));
const COMMON = ['study', 'analysis', 'model', 'effect', 'cells', 'patients', 'climate', 'network'];
const SOURCES = ['crossref', 'openalex', 'pubmed', 'arxiv', 'europepmc', 'semanticscholar'];
const CATEGORIES = Array.from({ length: 300 }, (_, i) => `Category ${i}`);
const AUTHORS = Array.from({ length: 60000 }, (_, i) => `Author ${i}`);

function record(n) {
  const words = Array.from({ length: 8 }, () => VOCAB[zipf(VOCAB.length)]);
  words.push(COMMON[Math.floor(rand() * COMMON.length)]);
  const year = 1990 + (n % 36);
  return {
    source: SOURCES[n % SOURCES.length],
    nativeId: `S${n}`,
    title: `${words.slice(0, 6).join(' ')} ${n}`,
    abstract: `${words.join(' ')} ${words.reverse().join(' ')}`,
    authors: Array.from({ length: 1 + (n % 4) }, (_, i) => ({ name: AUTHORS[(n * 7 + i * 13) % AUTHORS.length] })),
    publicationDate: `${year}-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`,
    datePrecision: 'day',
    doi: `10.9999/scale.${n}`,
    ids: {},
    categories: [CATEGORIES[zipf(CATEGORIES.length)], CATEGORIES[zipf(CATEGORIES.length)]],
    relations: [],
  };
}

const now = () => '2026-11-21T00:00:00.000Z';
let { db } = openDatabase(file, now);
let stored = db.prepare('SELECT count(*) FROM documents').pluck().get();
if (stored < N) {
  const checkpointer = startCheckpointer(db, file); // as a run does (executions/runner.ts)
  const started = performance.now();
  for (let i = stored; i < N; i += 1000) {
    const batch = [];
    for (let j = i; j < Math.min(N, i + 1000); j++) batch.push({ record: record(j), rank: j - i });
    mergeRecords(db, batch, now());
    if ((i / 1000) % 100 === 0) process.stderr.write(`\r  generated ${i} documents`);
  }
  flushSearchIndex(db);
  await checkpointer.stop();
  const s = (performance.now() - started) / 1000;
  console.log(`generated ${N - stored} documents in ${s.toFixed(0)} s (${((N - stored) / s).toFixed(0)} records/s, merge path, 1000 per transaction)`);
}
db.close();

const ctx = createContext({ env: { SVC_DATA_DIR: dir, SVC_STATE_DIR: path.join(dir, 'state') }, log: silentLogger });
db = ctx.db;
console.log(`${os.cpus().length} CPUs, ${loadavg()} at start`);
console.log(`corpus: ${db.prepare('SELECT count(*) FROM documents').pluck().get()} documents, ${(fs.statSync(file).size / 1e9).toFixed(2)} GB`);

function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `p50 ${at(0.5).toFixed(2)} ms  p95 ${at(0.95).toFixed(2)} ms  max ${s[s.length - 1].toFixed(2)} ms`;
}
function statsLoad(times) {
  return `${stats(times)}  (${loadavg()})`;
}
async function time(fn, runs) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}
const hits = (term) => db.prepare('SELECT count(*) FROM documents_fts WHERE documents_fts MATCH ?').pluck().get(term);
const rawNewest = db.prepare(`SELECT d.id FROM documents d WHERE d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?) ORDER BY d.sort_date DESC, d.id DESC LIMIT 51`);
const rawRank = db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rank LIMIT 51');
// The bounded ranking the explorer does by default past RANK_BOUND matches, raw: the floor id, then bm25 above it.
const { RANK_BOUND } = await load('src/explorer/search.js');
const rawFloor = db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?').pluck();
const rawBounded = db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? AND rowid > ? ORDER BY bm25(documents_fts) LIMIT 51');
const rawRankBounded = (term) => rawBounded.all(term, rawFloor.get(term, RANK_BOUND) ?? 0);

const terms = [VOCAB[4000], VOCAB[1500], VOCAB[300], VOCAB[20], 'climate'];
console.log('\nkeyword search, 50 papers a page (explorer vs the same FTS5 query raw), 40 runs each:');
for (const term of terms) {
  const label = `"${term}" (${hits(term)} matches)`.padEnd(28);
  const explorer = await time(() => searchExplorer(ctx, parseSearchBody({ query: term })), 40);
  const raw = await time(() => rawNewest.all(term), 40);
  console.log(`  ${label} newest     explorer ${stats(explorer)} | raw ${statsLoad(raw)}`);
  let ranking;
  const rel = await time(async () => (ranking = (await searchExplorer(ctx, parseSearchBody({ query: term, sort: 'relevance' }))).ranking), 20);
  const rawr = await time(() => rawRankBounded(term), 20);
  console.log(`  ${''.padEnd(28)} relevance  explorer ${stats(rel)} | raw ${statsLoad(rawr)}  (${ranking.exhaustive ? 'every match ranked' : `ranked among the ${RANK_BOUND} most recently added`})`);
  if (ranking.exhaustive) continue;
  const all = await time(() => searchExplorer(ctx, parseSearchBody({ query: term, sort: 'relevance', exhaustive: true })), 20);
  const rawAll = await time(() => rawRank.all(term), 20);
  console.log(`  ${''.padEnd(28)} exhaustive explorer ${stats(all)} | raw ${statsLoad(rawAll)}  (every match ranked, ORDER BY rank)`);
}
const filtered = await time((i) => searchExplorer(ctx, parseSearchBody({ categories: [CATEGORIES[i % 50]], date_from: '2000-01-01' })), 40);
console.log(`  no query, category + date window            explorer ${statsLoad(filtered)}`);
const page2 = await time(async (i) => {
  const first = await searchExplorer(ctx, parseSearchBody({ query: terms[i % terms.length] }));
  if (first.next_cursor) await searchExplorer(ctx, parseSearchBody({ query: terms[i % terms.length], cursor: first.next_cursor }));
}, 20);
console.log(`  first + second page by cursor                explorer ${statsLoad(page2)}`);

console.log(`\nfacets (authors, categories, sources, years), 5 runs each (exact: counters or ≤ ${(await load('src/explorer/facets.js')).COUNT_BOUND} matching papers):`);
for (const [label, body] of [
  ['rare word', { query: terms[0] }],
  ['medium word', { query: terms[2] }],
  ['common word', { query: terms[4] }],
  ['one category', { categories: [CATEGORIES[100]] }],
  ['whole corpus', {}],
]) {
  let answer;
  const runs = await time(() => (answer = explorerFacets(ctx, parseFacetsBody(body))), 5);
  console.log(`  ${label.padEnd(14)} ${statsLoad(runs)}  total ${answer.total}, exact ${answer.exact}`);
}

console.log('\ncursor paging while papers are inserted between pages:');
const before = new Set(db.prepare(`SELECT d.id FROM documents d WHERE d.id IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?)`).pluck().all(terms[1]));
const seen = [];
let cursor = null;
let inserted = 0;
let pages = 0;
const added = [];
do {
  const page = await searchExplorer(ctx, parseSearchBody({ query: terms[1], limit: 200, cursor }));
  seen.push(...page.papers.map((p) => p.id));
  cursor = page.next_cursor;
  const batch = [];
  for (let j = 0; j < 100; j++) {
    const r = record(N + 10_000_000 + inserted + j);
    r.title = `${terms[1]} ${r.title}`;
    batch.push({ record: r, rank: j });
  }
  added.push(...mergeRecords(db, batch, now()).map((r) => r.documentId));
  inserted += 100;
  pages++;
} while (cursor && pages < 500);
const dupes = seen.length - new Set(seen).size;
const missing = [...before].filter((id) => !seen.includes(id)).length;
console.log(`  ${pages} pages, ${inserted} papers inserted meanwhile: ${seen.length} returned, ${dupes} repeated, ${missing} of ${before.size} pre-existing missed`);

// The same by relevance: the bounded ranking of a word with more matches than RANK_BOUND, whose
// bm25 scores all move as matching papers are added.
flushSearchIndex(db); // the papers added above are indexed at the explorer's next search; count them now
const windowFloor = rawFloor.get(terms[3], RANK_BOUND) ?? 0;
const rankedBefore = new Set(db.prepare('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? AND rowid > ?').pluck().all(terms[3], windowFloor));
const ranked = [];
cursor = null;
pages = 0;
let rankedInserted = 0;
do {
  const page = await searchExplorer(ctx, parseSearchBody({ query: terms[3], sort: 'relevance', limit: 500, cursor }));
  ranked.push(...page.papers.map((p) => p.id));
  cursor = page.next_cursor;
  const batch = [];
  for (let j = 0; j < 100; j++) {
    const r = record(N + 20_000_000 + rankedInserted + j);
    r.title = `${terms[3]} ${terms[3]} ${r.title}`;
    batch.push({ record: r, rank: j });
  }
  added.push(...mergeRecords(db, batch, now()).map((r) => r.documentId));
  rankedInserted += 100;
  pages++;
} while (cursor && pages < 500);
const rankedMissing = [...rankedBefore].filter((id) => !ranked.includes(id)).length;
console.log(`  relevance, ${pages} pages, ${rankedInserted} matching papers inserted meanwhile: ${ranked.length} returned, ${ranked.length - new Set(ranked).size} repeated, ${rankedMissing} of ${rankedBefore.size} ranked at the first page missed`);
// Leave the kept corpus as generated.
const drop = db.prepare('DELETE FROM documents WHERE id = ?');
db.transaction(() => added.forEach((id) => drop.run(id)))();
await ctx.close();
if (!keep) fs.rmSync(dir, { recursive: true, force: true });
