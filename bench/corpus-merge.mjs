#!/usr/bin/env node
// Records merged into the corpus per second with 10,000 and 100,000 documents
// already stored (target: at least 20,000 per second). Records are shaped like
// real ones (the Europe PMC fixture's fields, varied ids and titles); each
// batch of 100 is one transaction, as a source page is in a run. Half of every
// measured set are new works, half already known (joined by DOI).
// WAL checkpoints run on their own thread, as in a run (db/checkpointer.ts).
// Run after `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'dist/src/db/open.js'));
const { mergeRecords } = await import(path.join(root, 'dist/src/corpus/merge.js'));
const { parseResponse } = await import(path.join(root, 'dist/src/sources/europepmc.js'));
const { flushSearchIndex } = await import(path.join(root, 'dist/src/corpus/search-index.js'));
const { startCheckpointer } = await import(path.join(root, 'dist/src/db/checkpointer.js'));

const templates = parseResponse(fs.readFileSync(path.join(root, 'test/fixtures/europepmc/search-cancer-lite.json'), 'utf8')).records;
const now = () => '2026-11-21T00:00:00.000Z';

function record(n, source = 'europepmc') {
  const t = templates[n % templates.length];
  return {
    ...t,
    source,
    nativeId: `BENCH/${n}`,
    // Lite records carry no abstract; real ones do, and the full-text index pays for it.
    abstract: t.abstract ?? `${t.title}. We report findings from cohort ${n} across several populations, with methods, results and limitations discussed at length for readers. `.repeat(4),
    title: `${t.title} (variant ${n})`,
    doi: `10.9999/bench.${n}`,
    ids: { ...t.ids, pmid: String(90_000_000 + n), pmcid: undefined },
    publicationDate: `20${String(10 + (n % 15)).padStart(2, '0')}-0${1 + (n % 9)}-1${n % 9}`,
    datePrecision: 'day',
  };
}

function merge(db, from, count, source) {
  for (let i = 0; i < count; i += 100) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 100); j++) batch.push({ record: record(from + j, source), rank: j - i });
    mergeRecords(db, batch, now());
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-merge-'));
const file = path.join(dir, 'svc.db');
const { db } = openDatabase(file, now);
// As a run does (executions/runner.ts): WAL checkpoints on their own thread.
const checkpointer = startCheckpointer(db, file);
try {
  let stored = 0;
  for (const target of [10_000, 100_000]) {
    merge(db, stored, target - stored, 'europepmc');
    flushSearchIndex(db);
    stored = target;
    const measured = 20_000;
    // Half new works, half the last 10,000 stored ones seen again by another source.
    const start = performance.now();
    merge(db, stored, measured / 2, 'europepmc');
    merge(db, stored - measured / 2, measured / 2, 'crossref');
    flushSearchIndex(db); // the full-text index is brought up to date as a run's end does: counted
    const seconds = (performance.now() - start) / 1000;
    stored += measured / 2;
    console.log(`with ${String(target).padStart(6)} documents stored: ${(measured / seconds).toFixed(0).padStart(6)} records merged/s  (${measured} records, ${seconds.toFixed(2)} s; target ≥ 20000)`);
  }
  const docs = db.prepare('SELECT count(*) FROM documents').pluck().get();
  const provenance = db.prepare('SELECT count(*) FROM document_sources').pluck().get();
  console.log(`corpus now: ${docs} documents, ${provenance} provenance rows`);
} finally {
  await checkpointer.stop();
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
