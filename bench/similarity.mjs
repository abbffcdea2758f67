#!/usr/bin/env node
// Similarity figures on a generated corpus (default 1,000,000 documents):
//   1. link scan over the whole corpus (target: under 10 minutes at 1M), with
//      recall of the planted near-duplicates (1% preprint/published pairs);
//   2. backfill throughput of the local lexical lane (documents per second);
//   3. rebuild of the sqlite-vec index and similar-query latency (p50, p95).
// Titles are drawn from a 6,000-word vocabulary (Zipf-like), authors from
// 40,000 family names; abstracts are 40 to 80 words. Run after `npx tsc -p .`:
//   node bench/similarity.mjs [documents] [--skip-embed]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createContext } = await import(path.join(root, 'dist/src/context.js'));
const { createLogger } = await import(path.join(root, 'dist/src/log.js'));
const { runLinkScan } = await import(path.join(root, 'dist/src/similarity/link-scan.js'));
const { runBackfill } = await import(path.join(root, 'dist/src/similarity/backfill.js'));
const { rebuildIndex } = await import(path.join(root, 'dist/src/similarity/vec-index.js'));
const { similarDocuments } = await import(path.join(root, 'dist/src/similarity/similar.js'));

const N = Number(process.argv[2] ?? 1_000_000);
const skipEmbed = process.argv.includes('--skip-embed');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-sim-'));
const ctx = createContext({ env: { SVC_DATA_DIR: path.join(dir, 'data'), SVC_STATE_DIR: path.join(dir, 'state') }, log: createLogger({ level: 'error', sink: () => {} }) });

let seed = 42;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const syll = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'xi', 'ze', 'po', 'qu', 'sa', 'di', 'fe', 'go', 'hu', 'ji', 'be', 'co', 'wa'];
const word = (i) => syll[i % 20] + syll[Math.floor(i / 20) % 20] + syll[Math.floor(i / 400) % 20] + (i >= 8000 ? syll[Math.floor(i / 8000) % 20] : '');
const vocab = Array.from({ length: 6000 }, (_, i) => word(i + 401));
const zipf = () => vocab[Math.floor(vocab.length * Math.pow(rand(), 2.2))];
const families = Array.from({ length: 40000 }, (_, i) => `Fam${word(i + 9000)}`);
const sentence = (n) => Array.from({ length: n }, zipf).join(' ');

console.log(`generating ${N.toLocaleString()} documents in ${dir}`);
let t0 = Date.now();
const insert = ctx.db.prepare(
  `INSERT INTO documents (id, title, title_key, abstract, authors_json, year, doi, arxiv_id, doc_type, venue, relations_json, first_seen_at_utc, updated_at_utc)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', 'z', 'z')`,
);
const planted = [];
ctx.db.transaction(() => {
  for (let id = 1; id <= N; ) {
    const title = `${sentence(6 + Math.floor(rand() * 7))} ${id}`.replace(/^./, (c) => c.toUpperCase());
    const authors = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({ name: families[Math.floor(rand() * families.length)] }));
    const year = 2000 + Math.floor(rand() * 25);
    const abstract = sentence(40 + Math.floor(rand() * 40));
    if (rand() < 0.01 && id + 1 <= N) {
      insert.run(id, title, title.toLowerCase(), abstract, JSON.stringify(authors), year, `10.48550/arxiv.${id}`, `b${id}`, 'preprint', 'arXiv');
      insert.run(id + 1, `${title}.`, title.toLowerCase(), abstract, JSON.stringify(authors), year + 1, `10.9999/j.${id}`, null, 'article', 'Journal');
      planted.push([id, id + 1]);
      id += 2;
    } else {
      insert.run(id, title, title.toLowerCase(), abstract, JSON.stringify(authors), year, `10.9999/x.${id}`, null, 'article', 'Journal');
      id += 1;
    }
  }
})();
console.log(`  generated in ${((Date.now() - t0) / 1000).toFixed(1)} s (${planted.length} planted pairs)`);

t0 = Date.now();
const scan = await runLinkScan(ctx, {});
const scanSeconds = (Date.now() - t0) / 1000;
const linked = new Set(ctx.db.prepare('SELECT document_a, document_b FROM document_links').all().map((r) => `${r.document_a}:${r.document_b}`));
const found = planted.filter(([a, b]) => linked.has(`${a}:${b}`)).length;
console.log(`link scan: ${N.toLocaleString()} documents in ${scanSeconds.toFixed(1)} s (${scan.candidates.toLocaleString()} candidate pairs, ${scan.links_written} links; planted pairs found ${found}/${planted.length}; target < 600 s)`);
console.log(`  memory: rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);

if (!skipEmbed) {
  t0 = Date.now();
  const run = await runBackfill(ctx, { trigger: 'bench' });
  const embedSeconds = (Date.now() - t0) / 1000;
  console.log(`lexical backfill: ${run.embedded.toLocaleString()} documents in ${embedSeconds.toFixed(1)} s = ${Math.round(run.embedded / embedSeconds).toLocaleString()} documents/s (fit included)`);
  t0 = Date.now();
  const rebuilt = await rebuildIndex(ctx, run.model);
  console.log(`index rebuild: ${rebuilt.vectors.toLocaleString()} vectors in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const times = [];
  for (let i = 0; i < 40; i++) {
    const id = 1 + Math.floor(rand() * N);
    const s = process.hrtime.bigint();
    await similarDocuments(ctx, id, 25);
    times.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`similar (k=25, vec0, ${rebuilt.vectors.toLocaleString()} vectors of 384 dimensions): p50 ${times[20].toFixed(0)} ms, p95 ${times[37].toFixed(0)} ms`);
}
await ctx.close();
fs.rmSync(dir, { recursive: true, force: true });
