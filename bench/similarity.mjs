#!/usr/bin/env node
// Similarity figures on a generated corpus (default 1,000,000 documents):
//   1. the HNSW vector index: build time, file size, memory; similar-query
//      latency (p50, p95, p99 over at least 200 queries) through
//      similarDocuments and over HTTP; recall@25 against the exact answer;
//      a filtered query (a tenth of the corpus admitted); then 5,000 new
//      vectors: latency while they are pending, and the compaction that
//      folds them into the file. Targets at 1,000,000: p95 <= 20 ms,
//      recall@25 >= 0.95.
//   2. with --links: the link scan over the whole corpus (target under 10
//      minutes at 1M) and recall of the planted near-duplicates (1%
//      preprint/published pairs);
//   3. with --backfill: backfill throughput of the local lexical lane.
//
// Vectors: 384 dimensions (the local lane's), unit length, drawn as a
// semantic model's vectors of a real corpus fall: in clusters within
// clusters. A shared direction (embeddings are anisotropic: every pair has a
// positive cosine), 40 fields, 50 topics a field and 8 subtopics a topic
// (16,000 subtopics, sizes skewed so that some topics hold ten times the
// papers of others), and per-paper noise in every dimension: a vector is
// 0.3 shared + 0.45 field + 0.45 topic + 0.35 subtopic + 0.6 noise (norms),
// normalised. Papers of one subtopic are at cosine ~0.6, of one topic ~0.45,
// of one field ~0.3, others ~0.1. (The lexical lane's hashed vectors of the
// generated random-word texts have no such structure, so they are not what
// the index is measured on.) The exact answer is a brute-force scan of all
// vectors (usearch's exactSearch, checked against svc's own exact scan on a
// few queries).
//
// Titles are drawn from a 6,000-word vocabulary (Zipf-like), authors from
// 40,000 family names; abstracts are 40 to 80 words. Run after `npx tsc -p .`:
//   node bench/similarity.mjs [documents] [--queries N] [--links] [--backfill]
//                             [--keep | --reuse DIR]
// --keep leaves the generated data directory (its path is printed) and
// --reuse DIR times the queries again on it without generating or building:
// the vectors are drawn again from the same seeds, so the exact answers are
// the same; a query-time setting (ef) can be judged without a rebuild. Both
// skip step 1's 5,000 late papers, so the kept index stays the drawn corpus.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(path.join(root, 'dist', p));
const { createContext } = await dist('src/context.js');
const { createLogger } = await dist('src/log.js');
const { runLinkScan } = await dist('src/similarity/link-scan.js');
const { runBackfill } = await dist('src/similarity/backfill.js');
const { rebuildIndex, nearest, bruteForce, indexStatus } = await dist('src/similarity/vec-index.js');
const { indexSettled } = await dist('src/similarity/index-build.js');
const { similarDocuments } = await dist('src/similarity/similar.js');
const { writeVectors, readIndexState } = await dist('src/similarity/repo.js');
const { startServer } = await dist('server/listen.js');
const { setJobRole } = await dist('src/claims/jobs.js');
const usearch = (await import('usearch')).default;

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const QUERIES = Math.max(200, option('--queries', 300));
const DIM = 384;
const K = 25;
const MODEL = 'local/lexical-hash-v1';
const reuse = args.includes('--reuse') ? path.resolve(args[args.indexOf('--reuse') + 1]) : null;
const keep = flag('--keep') || reuse !== null;
const dir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-sim-'));
const env = { SVC_DATA_DIR: path.join(dir, 'data'), SVC_STATE_DIR: path.join(dir, 'state'), SVC_DISABLE_SCHEDULER: '1' };
// Compaction past 1,000 pending changes, so step 1 can show one.
const ctx = createContext({ env, log: createLogger({ level: 'error', sink: () => {} }), tuning: { vectorIndexPendingMax: 1000 } });
setJobRole(ctx, 'server'); // builds and compactions in the background, as in the server
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const rss = () => mib(process.memoryUsage().rss);
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const since = (t) => ((Date.now() - t) / 1000).toFixed(1);

let seed = 42;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const syll = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'xi', 'ze', 'po', 'qu', 'sa', 'di', 'fe', 'go', 'hu', 'ji', 'be', 'co', 'wa'];
const word = (i) => syll[i % 20] + syll[Math.floor(i / 20) % 20] + syll[Math.floor(i / 400) % 20] + (i >= 8000 ? syll[Math.floor(i / 8000) % 20] : '');
const vocab = Array.from({ length: 6000 }, (_, i) => word(i + 401));
const zipf = () => vocab[Math.floor(vocab.length * Math.pow(rand(), 2.2))];
const families = Array.from({ length: 40000 }, (_, i) => `Fam${word(i + 9000)}`);
const sentence = (n) => Array.from({ length: n }, zipf).join(' ');

console.log(`${reuse ? 'reusing' : 'generating'} ${N.toLocaleString()} documents in ${dir} (load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores)`);
let t0 = Date.now();
const insertRow = ctx.db.prepare(
  `INSERT INTO documents (id, title, title_key, abstract, authors_json, year, sort_date, doi, arxiv_id, doc_type, venue, relations_json, first_seen_at_utc, updated_at_utc)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', 'z', 'z')`,
);
// Reusing, the rows are drawn again (the same random sequence) but not stored.
const insert = { run: (...row) => (reuse ? undefined : insertRow.run(...row)) };
const planted = [];
// The index alone needs only the papers' rows; the link scan and the backfill read their texts.
const texts = flag('--links') || flag('--backfill');
ctx.db.transaction(() => {
  for (let id = 1; id <= N; ) {
    const year = 2000 + Math.floor(rand() * 25);
    if (!texts) {
      insert.run(id, `Paper ${id}`, `paper ${id}`, null, '[]', year, `${year}-00-00`, null, null, 'article', 'Journal');
      id += 1;
      continue;
    }
    const title = `${sentence(6 + Math.floor(rand() * 7))} ${id}`.replace(/^./, (c) => c.toUpperCase());
    const authors = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({ name: families[Math.floor(rand() * families.length)] }));
    const abstract = sentence(40 + Math.floor(rand() * 40));
    if (rand() < 0.01 && id + 1 <= N) {
      insert.run(id, title, title.toLowerCase(), abstract, JSON.stringify(authors), year, `${year}-00-00`, `10.48550/arxiv.${id}`, `b${id}`, 'preprint', 'arXiv');
      insert.run(id + 1, `${title}.`, title.toLowerCase(), abstract, JSON.stringify(authors), year + 1, `${year + 1}-00-00`, `10.9999/j.${id}`, null, 'article', 'Journal');
      planted.push([id, id + 1]);
      id += 2;
    } else {
      insert.run(id, title, title.toLowerCase(), abstract, JSON.stringify(authors), year, `${year}-00-00`, `10.9999/x.${id}`, null, 'article', 'Journal');
      id += 1;
    }
  }
})();
console.log(`  generated in ${since(t0)} s (${planted.length} planted pairs)`);

if (flag('--links')) {
  t0 = Date.now();
  const scan = await runLinkScan(ctx, {});
  const scanSeconds = (Date.now() - t0) / 1000;
  const linked = new Set(ctx.db.prepare('SELECT document_a, document_b FROM document_links').all().map((r) => `${r.document_a}:${r.document_b}`));
  const found = planted.filter(([a, b]) => linked.has(`${a}:${b}`)).length;
  console.log(`link scan: ${N.toLocaleString()} documents in ${scanSeconds.toFixed(1)} s (${scan.candidates.toLocaleString()} candidate pairs, ${scan.links_written} links; planted pairs found ${found}/${planted.length}; target < 600 s)`);
  console.log(`  memory: rss ${rss()}`);
}

if (flag('--backfill')) {
  t0 = Date.now();
  const run = await runBackfill(ctx, { trigger: 'bench' });
  const embedSeconds = (Date.now() - t0) / 1000;
  console.log(`lexical backfill: ${run.embedded.toLocaleString()} documents in ${embedSeconds.toFixed(1)} s = ${Math.round(run.embedded / embedSeconds).toLocaleString()} documents/s (fit included)`);
  await indexSettled(ctx);
}

// --- 1. The HNSW index on clustered vectors --------------------------------------------------
let gseed = 7;
const grand = () => {
  gseed = (gseed + 0x6d2b79f5) >>> 0;
  let t = gseed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
let spare = NaN;
const gauss = () => {
  if (!Number.isNaN(spare)) {
    const v = spare;
    spare = NaN;
    return v;
  }
  let u, v, r;
  do {
    u = grand() * 2 - 1;
    v = grand() * 2 - 1;
    r = u * u + v * v;
  } while (r >= 1 || r === 0);
  const m = Math.sqrt((-2 * Math.log(r)) / r);
  spare = v * m;
  return u * m;
};
const unitVector = () => {
  const v = new Float32Array(DIM);
  let n = 0;
  for (let i = 0; i < DIM; i++) n += (v[i] = gauss()) ** 2;
  n = Math.sqrt(n);
  for (let i = 0; i < DIM; i++) v[i] /= n;
  return v;
};
const FIELDS = 40, TOPICS = 50, SUBTOPICS = 8;
const shared = unitVector();
const fields = Array.from({ length: FIELDS }, unitVector);
const topics = Array.from({ length: FIELDS * TOPICS }, unitVector);
const subtopics = Array.from({ length: FIELDS * TOPICS * SUBTOPICS }, unitVector);
const cumulative = [];
let total = 0;
for (let s = 0; s < subtopics.length; s++) {
  const t = Math.floor(s / SUBTOPICS);
  cumulative.push((total += 1 / Math.pow(1 + (t % TOPICS), 0.6) / Math.pow(1 + Math.floor(t / TOPICS), 0.4)));
}
const pickSubtopic = () => {
  const x = grand() * total;
  let lo = 0, hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};
const NOISE = 0.6 / Math.sqrt(DIM);
function drawVector(out, offset) {
  const s = pickSubtopic();
  const t = Math.floor(s / SUBTOPICS);
  const f = fields[Math.floor(t / TOPICS)], tc = topics[t], sc = subtopics[s];
  let n = 0;
  for (let i = 0; i < DIM; i++) n += (out[offset + i] = 0.3 * shared[i] + 0.45 * f[i] + 0.45 * tc[i] + 0.35 * sc[i] + NOISE * gauss()) ** 2;
  n = Math.sqrt(n);
  for (let i = 0; i < DIM; i++) out[offset + i] /= n;
}

t0 = Date.now();
const matrix = new Float32Array(N * DIM);
for (let i = 0; i < N; i++) drawVector(matrix, i * DIM);
if (!reuse) {
  ctx.db.prepare('DELETE FROM embedding_vectors').run();
  for (let from = 0; from < N; from += 10_000) {
    const rows = [];
    for (let i = from; i < Math.min(N, from + 10_000); i++) rows.push({ id: i + 1, vector: matrix.subarray(i * DIM, (i + 1) * DIM) });
    ctx.db.transaction(() => writeVectors(ctx.db, MODEL, rows, ctx.nowIso()))();
  }
}
console.log(`vectors: ${N.toLocaleString()} clustered unit vectors of ${DIM} dimensions drawn${reuse ? '' : ' and stored'} in ${since(t0)} s`);

if (!reuse) {
  t0 = Date.now();
  const cpu0 = process.cpuUsage();
  const built = await rebuildIndex(ctx, MODEL);
  const cpuBuild = process.cpuUsage(cpu0);
  const state = readIndexState(ctx.db);
  console.log(`index build (worker thread, ${os.availableParallelism()} threads): ${built.vectors.toLocaleString()} vectors in ${since(t0)} s; file ${mib(state.bytes)}; process cpu ${((cpuBuild.user + cpuBuild.system) / 1e6).toFixed(0)} s`);
}

// The exact answer: every vector compared with each query.
const sample = Array.from({ length: QUERIES }, () => 1 + Math.floor(rand() * N));
const queryMatrix = new Float32Array(QUERIES * DIM);
sample.forEach((id, q) => queryMatrix.set(matrix.subarray((id - 1) * DIM, id * DIM), q * DIM));
t0 = Date.now();
const truth = usearch.exactSearch(matrix, queryMatrix, DIM, K + 1, usearch.MetricKind.Cos, os.availableParallelism());
const exact = sample.map((id, q) => {
  const m = truth.get(q);
  // Keys are positions in the matrix; document ids start at 1.
  return [...m.keys].map((k) => Number(k) + 1).filter((k) => k !== id).slice(0, K);
});
console.log(`exact answers for ${QUERIES} queries in ${since(t0)} s`);
for (const q of [0, 1, 2]) {
  const own = bruteForce(ctx, MODEL, matrix.subarray((sample[q] - 1) * DIM, sample[q] * DIM), K, undefined, sample[q]).map((n) => n.document_id);
  const agree = own.filter((id) => exact[q].includes(id)).length;
  if (agree < K - 1) console.log(`  warning: svc's exact scan and exactSearch share ${agree} of ${K} for query ${q}`);
}

async function timed(label, run, check) {
  for (let i = 0; i < 20; i++) await run(sample[i % sample.length], i % sample.length); // warm the page cache
  const times = [];
  let found = null; // checks that only verify (answer null) give no recall figure
  const cpu = process.cpuUsage();
  for (let q = 0; q < sample.length; q++) {
    const s = process.hrtime.bigint();
    const answer = await run(sample[q], q);
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
    const hits = check ? check(answer, q) : null;
    if (hits !== null) (found ??= 0), (found += hits);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const recall = found !== null ? `; recall@${K} ${(found / (sample.length * K)).toFixed(4)}` : '';
  console.log(`${label}: p50 ${ms(pct(times, 0.5))} ms, p95 ${ms(pct(times, 0.95))} ms, p99 ${ms(pct(times, 0.99))} ms (${sample.length} queries; cpu ${ms((used.user + used.system) / 1000 / sample.length)} ms a query)${recall}`);
  return times;
}

const recallOf = (ids, q) => ids.filter((id) => exact[q].includes(id)).length;
await timed(`similar (k=${K}, hnsw, ${N.toLocaleString()} vectors)`, (id) => similarDocuments(ctx, id, K), (a, q) => {
  if (a.query_method !== 'hnsw') throw new Error(`answered by ${a.query_method}`);
  return recallOf(a.results.map((r) => r.document_id), q);
});
console.log(`  memory: rss ${rss()}, of which ${mib(matrix.byteLength)} is this benchmark's own copy of the vectors (the index file is mapped, not read into the heap)`);


// The server in this process with a context of its own (closing the server closes it).
const serverCtx = createContext({ env, log: createLogger({ level: 'error', sink: () => {} }) });
const server = await startServer(serverCtx, { port: 0 });
const agent = new http.Agent({ keepAlive: true });
const get = (p) =>
  new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: server.port, path: p, agent, headers: { authorization: `Bearer ${server.runtime.token}` } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${res.statusCode} ${body}`))));
    }).on('error', reject);
  });
await timed(`GET /api/documents/{id}/similar?limit=${K} over HTTP`, (id) => get(`/api/documents/${id}/similar?limit=${K}`), (a, q) => recallOf(a.results.map((r) => r.document_id), q));
await server.close();

// A filter admitting a tenth of the corpus (papers of 2010-2012): over-fetch, filter, rescore.
const window = ctx.db.prepare("SELECT id FROM documents WHERE sort_date BETWEEN '2010' AND '2012-99'").pluck().all();
const admitted = new Set(window);
let filteredRecall = 0;
const checked = 20;
const methods = new Set();
await timed(`filtered nearest (${window.length.toLocaleString()} papers admitted)`, (id) => nearest(ctx, MODEL, matrix.subarray((id - 1) * DIM, id * DIM), K, { ids: window, exclude: id }), (a, q) => {
  methods.add(a.method);
  if (a.neighbours.some((n) => !admitted.has(n.document_id))) throw new Error('a paper outside the filter');
  if (q < checked) {
    const truthIds = bruteForce(ctx, MODEL, matrix.subarray((sample[q] - 1) * DIM, sample[q] * DIM), K, window, sample[q]).map((n) => n.document_id);
    filteredRecall += a.neighbours.filter((n) => truthIds.includes(n.document_id)).length;
  }
  return null;
});
console.log(`  filtered recall@${K} over ${checked} queries: ${(filteredRecall / (checked * K)).toFixed(4)}; answered by ${[...methods].join(', ')}`);

// 5,000 new papers embedded (as a backfill writes them): found at once, then folded into the file.
if (keep) {
  await ctx.close();
  console.log(`kept ${dir}: time its queries again with --reuse ${dir} (the 5,000 late papers are skipped when keeping)`);
  process.exit(0);
}
const extra = 5000;
const extraMatrix = new Float32Array(extra * DIM);
ctx.db.transaction(() => {
  for (let i = 0; i < extra; i++) {
    const id = N + 1 + i;
    insert.run(id, `Late paper ${id}`, `late paper ${id}`, null, '[]', 2025, '2025-00-00', null, null, 'article', 'Journal');
    drawVector(extraMatrix, i * DIM);
  }
  writeVectors(ctx.db, MODEL, Array.from({ length: extra }, (_, i) => ({ id: N + 1 + i, vector: extraMatrix.subarray(i * DIM, (i + 1) * DIM) })), ctx.nowIso());
})();
t0 = Date.now();
await similarDocuments(ctx, sample[0], K); // reads the 5,000 changes and starts the compaction
console.log(`${extra.toLocaleString()} new vectors: first query after them ${Date.now() - t0} ms (reads the changes)`);
await timed(`similar while ${extra.toLocaleString()} changes are pending (compaction running beside)`, (id) => similarDocuments(ctx, id, K));
t0 = Date.now();
await indexSettled(ctx);
const after = await indexStatus(ctx, MODEL);
console.log(`compaction: done ${since(t0)} s after the queries; index ${after.vectors.toLocaleString()} vectors, ${after.pending_changes} pending, file ${mib(after.bytes)}`);
await timed(`similar after the compaction`, (id) => similarDocuments(ctx, id, K));

await ctx.close();
fs.rmSync(dir, { recursive: true, force: true });
