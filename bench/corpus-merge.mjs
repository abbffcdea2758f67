#!/usr/bin/env node
// Records merged into the corpus per second with 10,000 and 100,000 documents
// already stored (target: at least 20,000 per second). Records are shaped like
// real ones (bench/_merge-records.mjs); each batch of 100 is one transaction.
// Half of every measured set are new works, half already known (joined by DOI).
// WAL checkpoints run on their own thread, as in a run (db/checkpointer.ts).
// bench/corpus-merge-floor.mjs times the SQL alone. Run after `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchRecords, flushSearchIndex, mergeRecords, now, openDatabase, startCheckpointer } from './_merge-records.mjs';

const { batches } = await benchRecords();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-merge-'));
const file = path.join(dir, 'svc.db');
const { db } = openDatabase(file, now);
// As a run does (executions/runner.ts): WAL checkpoints on their own thread.
const checkpointer = startCheckpointer(db, file);
const merge = (work) => work.forEach((batch) => mergeRecords(db, batch, now()));
try {
  let stored = 0;
  for (const target of [10_000, 100_000]) {
    merge(batches(stored, target - stored, 'europepmc'));
    flushSearchIndex(db);
    stored = target;
    const measured = 20_000;
    // Half new works, half the last 10,000 stored ones seen again by another source.
    const work = [...batches(stored, measured / 2, 'europepmc'), ...batches(stored - measured / 2, measured / 2, 'crossref')];
    const start = performance.now();
    merge(work);
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
