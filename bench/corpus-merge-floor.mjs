#!/usr/bin/env node
// The SQL floor under bench/corpus-merge.mjs: the same measured merge (10,000 new
// works and 10,000 known ones from another source, 100 a transaction, then the
// flush) is run once with every statement svc executes recorded with its
// arguments; the recording is then replayed alone, on a copy of the database as
// it stood before, and timed. What the replay takes is what SQLite needs for the
// rows and indexes the corpus keeps, with no JavaScript of svc's at all: no merge
// can be faster than it. Per-statement totals show where the time goes.
// Run after `npm run build`. BENCH_STORED=… sets the documents stored first (100,000).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchRecords, flushSearchIndex, mergeRecords, now, openDatabase, startCheckpointer } from './_merge-records.mjs';

const { batches } = await benchRecords();
const STORED = Number(process.env.BENCH_STORED ?? 100_000);
const MEASURED = 20_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-merge-floor-'));
const file = path.join(dir, 'svc.db');
const before = path.join(dir, 'before.db');

/** Time fn on dbFile (or on a fresh copy of `from`) with WAL checkpoints on their own thread, as in a run. */
async function timed(dbFile, fn, from) {
  if (from) fs.copyFileSync(from, dbFile);
  const { db } = openDatabase(dbFile, now);
  const checkpointer = startCheckpointer(db, dbFile);
  try {
    const start = performance.now();
    fn(db);
    return performance.now() - start;
  } finally {
    await checkpointer.stop();
    db.close();
  }
}

try {
  {
    const { db } = openDatabase(file, now);
    batches(0, STORED, 'europepmc').forEach((batch) => mergeRecords(db, batch, now()));
    flushSearchIndex(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    fs.copyFileSync(file, before);
  }
  const work = [...batches(STORED, MEASURED / 2, 'europepmc'), ...batches(STORED - MEASURED / 2, MEASURED / 2, 'crossref')];

  // 1. The merge as svc runs it, every statement recorded (the recording costs a little: not the figure).
  const calls = [];
  const merged = await timed(file, (db) => {
    const proto = Object.getPrototypeOf(db.prepare('SELECT 1'));
    const original = { run: proto.run, get: proto.get, all: proto.all };
    for (const method of Object.keys(original)) {
      proto[method] = function (...args) {
        calls.push({ sql: this.source, args: args.map((a) => (a && typeof a === 'object' ? { ...a } : a)) });
        return original[method].apply(this, args);
      };
    }
    try {
      work.forEach((batch) => mergeRecords(db, batch, now()));
      flushSearchIndex(db);
    } finally {
      Object.assign(proto, original);
    }
  });

  // 2. The same statements and arguments alone, on the database as it stood before.
  const perStatement = new Map();
  const replayed = await timed(path.join(dir, 'replay.db'), (db) => {
    const prepared = new Map();
    const plan = calls.map(({ sql, args }) => {
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
      return { sql, statement, args };
    });
    for (const { statement, args } of plan) statement.reader ? statement.all(...args) : statement.run(...args);
  }, before);
  // 3. Where it goes: once more with a clock around each statement (slower; shares only).
  await timed(path.join(dir, 'shares.db'), (db) => {
    const prepared = new Map();
    for (const { sql, args } of calls) {
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
      const start = performance.now();
      statement.reader ? statement.all(...args) : statement.run(...args);
      const entry = perStatement.get(sql) ?? { ms: 0, count: 0 };
      entry.ms += performance.now() - start;
      entry.count++;
      perStatement.set(sql, entry);
    }
  }, before);

  const rate = (ms) => ((MEASURED / ms) * 1000).toFixed(0);
  console.log(`with ${STORED} documents stored, ${MEASURED} records (half new, half known), ${calls.length} statements:`);
  console.log(`  merge as svc runs it (recording on): ${merged.toFixed(0)} ms`);
  console.log(`  SQL alone, replayed:                 ${replayed.toFixed(0)} ms  -> no merge can beat ${rate(replayed)} records/s with this schema`);
  const total = [...perStatement.values()].reduce((sum, e) => sum + e.ms, 0);
  console.log('  share of the SQL by statement:');
  for (const [sql, { ms, count }] of [...perStatement].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) {
    console.log(`    ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${String(count).padStart(6)}×  ${sql.replace(/\s+/g, ' ').slice(0, 96)}`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
