#!/usr/bin/env node
// Evidence reader: a 200-page text PDF read page by page under the reader's
// limits through the warm PDF child, against a fresh child per page; also
// real PDFs from Debian packages' documentation when installed. Prints the
// child's start cost and per-page extraction times (median, p95, max). Then
// the reader route itself (GET …/reader/{file}?page=N over HTTP: the file
// verified, SHA-256 included, and the page read) on the window reader bench's
// 200-page, 16 MiB PDF, pages 2 to 200 after page 1: the service's share of a
// page turn (issue 35 item 7).
// Run after `npm run build`: node bench/evidence-reader.mjs [pages] [extra.pdf ...]
// or, for the route alone: node bench/evidence-reader.mjs --route [pages]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createPdfPool } = await import(path.join(root, 'dist/src/evidence/pdf-pool.js'));
const { DEFAULT_EVIDENCE_LIMITS } = await import(path.join(root, 'dist/src/evidence/limits.js'));
const { makePdf, pdfSource, readerBenchPdf } = await import(path.join(root, 'dist/test/_pdf.js'));
const { startEvidenceServer } = await import(path.join(root, 'dist/test/_evidence.js'));
const { evidenceOf } = await import(path.join(root, 'dist/src/evidence/index.js'));

const routeOnly = process.argv[2] === '--route';
const args = process.argv.slice(routeOnly ? 3 : 2);
const PAGES = Number(args[0] ?? 200);
const DEBIAN = ['/usr/share/doc/libtasn1-doc/libtasn1.pdf', '/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf'];
const extra = [...args.slice(1), ...DEBIAN].filter((f) => fs.existsSync(f));

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

async function readerRoute(pages) {
  const s = await startEvidenceServer();
  try {
    const bytes = readerBenchPdf(pages);
    const file = await s.file('reader-bench.pdf', bytes);
    const projectId = (await s.project('Reader bench')).project_id;
    await s.add(projectId, file);
    const read = async (page) => {
      const r = await s.call('GET', `${s.P(projectId)}/reader/${file.file_id}?${s.V}&version_id=${file.version_id}&page=${page}`);
      if (r.status !== 200 || r.json().status !== 'extracted') throw new Error(`page ${page}: ${r.status} ${r.text.slice(0, 200)}`);
    };
    const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const t0 = performance.now();
    await read(1);
    const firstMs = performance.now() - t0;
    const times = [];
    for (let p = 2; p <= pages; p++) {
      const t = performance.now();
      await read(p);
      times.push(performance.now() - t);
    }
    console.log(`reader route, ${pages}-page ${(bytes.length / 1048576).toFixed(2)} MiB PDF (load ${load}): page 1 (the child started when the PDF joined the project) ${firstMs.toFixed(0)} ms`);
    console.log(`  pages 2–${pages}: ${stats(times)}`);
    // The cold case: no child when page 1 is asked (one ended, and nothing showed the project since).
    const pool = evidenceOf(s.t.ctx).pdf();
    process.kill(pool.pid(), 'SIGKILL');
    while (pool.pid() !== undefined) await new Promise((r) => setTimeout(r, 20));
    const t1 = performance.now();
    await read(1);
    console.log(`  page 1 with no child running (spawn + pdfjs import + the document opened for page 1 included): ${(performance.now() - t1).toFixed(0)} ms`);
  } finally {
    await s.close();
  }
}

if (routeOnly) {
  await readerRoute(PAGES);
  process.exit(0);
}

const lines = (p) => Array.from({ length: 45 }, (_, i) => `Page ${p} line ${i}: the quick brown fox jumps over the lazy dog ${p * 100 + i}.`);
const synthetic = makePdf(Array.from({ length: PAGES }, (_, i) => ({ lines: lines(i + 1) })));
console.log(`node ${process.version}, pdfjs-dist contract ${(await import(path.join(root, 'dist/src/evidence/pdf-protocol.js'))).PDF_CONTRACT}`);
await readAll(`synthetic ${PAGES}-page text PDF`, synthetic);
await freshPerPage(synthetic, 10);
for (const file of extra) await readAll(path.basename(file), fs.readFileSync(file));
await readerRoute(PAGES);
