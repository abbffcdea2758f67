#!/usr/bin/env node
// Evidence reader: a 200-page text PDF read page by page under the reader's
// limits through the warm PDF child, against a fresh child per page; also
// real PDFs from Debian packages' documentation when installed. Prints the
// child's start cost and per-page extraction times (median, p95, max).
// Run after `npm run build`: node bench/evidence-reader.mjs [pages] [extra.pdf ...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createPdfPool } = await import(path.join(root, 'dist/src/evidence/pdf-pool.js'));
const { DEFAULT_EVIDENCE_LIMITS } = await import(path.join(root, 'dist/src/evidence/limits.js'));
const { makePdf, pdfSource } = await import(path.join(root, 'dist/test/_pdf.js'));

const PAGES = Number(process.argv[2] ?? 200);
const DEBIAN = ['/usr/share/doc/libtasn1-doc/libtasn1.pdf', '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf'];
const extra = [...process.argv.slice(3), ...DEBIAN].filter((f) => fs.existsSync(f));

const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms, total ${(s.reduce((a, b) => a + b, 0) / 1000).toFixed(2)} s`;
};

async function readAll(name, bytes, pageCount) {
  const pool = createPdfPool(DEFAULT_EVIDENCE_LIMITS);
  const t0 = performance.now();
  const first = await pool.extract(pdfSource(bytes), 1);
  const firstMs = performance.now() - t0;
  const count = Math.min(pageCount ?? first.answer?.page_count ?? 1, DEFAULT_EVIDENCE_LIMITS.pdfPages);
  const times = [];
  const statuses = {};
  let codepoints = 0;
  for (let p = 1; p <= count; p++) {
    const t = performance.now();
    const r = await pool.extract(pdfSource(bytes), p);
    times.push(performance.now() - t);
    const status = r.kind === 'answer' ? r.answer.status : r.kind;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (r.kind === 'answer' && r.answer.text) codepoints += [...r.answer.text].length;
  }
  const s = pool.stats();
  pool.close();
  console.log(`${name}: ${(bytes.length / 1024).toFixed(0)} KiB, ${first.answer?.page_count ?? '?'} pages, read ${count}`);
  console.log(`  child start (spawn + pdfjs import + warm-up): ${s.lastSpawnMs?.toFixed(0)} ms; first request incl. start: ${firstMs.toFixed(0)} ms`);
  console.log(`  warm child, per page: ${stats(times)}; children spawned: ${s.spawned}; statuses ${JSON.stringify(statuses)}; ${codepoints} codepoints`);
}

async function freshPerPage(bytes, pages) {
  const times = [];
  for (let p = 1; p <= pages; p++) {
    const pool = createPdfPool(DEFAULT_EVIDENCE_LIMITS);
    const t = performance.now();
    await pool.extract(pdfSource(bytes), p);
    times.push(performance.now() - t);
    pool.close();
  }
  console.log(`  one child per page (${pages} pages): ${stats(times)}`);
}

const lines = (p) => Array.from({ length: 45 }, (_, i) => `Page ${p} line ${i}: the quick brown fox jumps over the lazy dog ${p * 100 + i}.`);
const synthetic = makePdf(Array.from({ length: PAGES }, (_, i) => ({ lines: lines(i + 1) })));
console.log(`node ${process.version}, pdfjs-dist contract ${(await import(path.join(root, 'dist/src/evidence/pdf-protocol.js'))).PDF_CONTRACT}`);
await readAll(`synthetic ${PAGES}-page text PDF`, synthetic);
await freshPerPage(synthetic, 10);
for (const file of extra) await readAll(path.basename(file), fs.readFileSync(file));
