import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { openDatabase } from '../src/db/open.js';
import { MIGRATIONS } from '../src/db/migrations/index.js';
import { SvcError } from '../src/errors.js';
import { tempDirs } from './_setup.js';
import { startCheckpointer } from '../src/db/checkpointer.js';

const now = () => '2026-11-21T00:00:00.000Z';

test('a new database gets WAL, foreign keys, a busy timeout and the newest schema', () => {
  const dirs = tempDirs();
  try {
    const { db, schemaVersion } = openDatabase(path.join(dirs.dataDir, 'svc.db'), now);
    assert.is(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.is(db.pragma('foreign_keys', { simple: true }), 1);
    assert.is(db.pragma('busy_timeout', { simple: true }), 5000);
    assert.is(schemaVersion, Math.max(...MIGRATIONS.map((m) => m.version)));
    assert.is(db.pragma('user_version', { simple: true }), schemaVersion);
    const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    assert.equal(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    db.close();
    const again = openDatabase(path.join(dirs.dataDir, 'svc.db'), now);
    assert.is(again.schemaVersion, schemaVersion, 'reopening runs nothing');
    again.db.close();
  } finally {
    dirs.cleanup();
  }
});

test('a failing step rolls back whole and leaves the marker where it was', () => {
  const db = new Sqlite(':memory:');
  const ok = { version: 1, name: 'one', creates: ['a'], up: (d: any) => d.exec('CREATE TABLE a (x)') };
  const broken = { version: 2, name: 'two', creates: ['b', 'c'], up: (d: any) => d.exec('CREATE TABLE b (x)') };
  assert.throws(() => migrate(db, [ok, broken], now), (e: unknown) => e instanceof SvcError && e.reason === 'schema_invalid');
  assert.is(db.pragma('user_version', { simple: true }), 1);
  assert.is((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get() as any).n, 0, 'table b rolled back');
});

test('a step whose tables already exist is refused (inconsistent schema)', () => {
  const db = new Sqlite(':memory:');
  db.exec('CREATE TABLE a (x)');
  assert.throws(() => migrate(db, [{ version: 1, name: 'one', creates: ['a'], up: (d: any) => d.exec('CREATE TABLE IF NOT EXISTS a (x)') }], now), /already present/);
  assert.is(db.pragma('user_version', { simple: true }), 0);
});

test('a database newer than this svc is refused, not touched', () => {
  const db = new Sqlite(':memory:');
  db.pragma('user_version = 999');
  assert.throws(() => migrate(db, MIGRATIONS, now), (e: unknown) => e instanceof SvcError && e.reason === 'schema_too_new');
});

test('a step numbered below the marker that never ran still runs', () => {
  const db = new Sqlite(':memory:');
  const low = { version: 3, name: 'low', creates: ['low'], up: (d: any) => d.exec('CREATE TABLE low (x)') };
  const high = { version: 16, name: 'high', creates: ['high'], up: (d: any) => d.exec('CREATE TABLE high (x)') };
  migrate(db, [high], now);
  assert.is(migrate(db, [low, high], now), 16);
  assert.is((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'low'").get() as any).n, 1);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Frames in the WAL file, from its size (32-byte header, then 24-byte frame headers before each 4 KiB page). */
const walFrames = (file: string) => (fs.statSync(`${file}-wal`).size - 32) / (24 + 4096);
/** Frames already copied into the database file: nBackfill in the shared-memory WAL index (offset 96, native order). */
const backfilledFrames = (file: string) => fs.readFileSync(`${file}-shm`).readUInt32LE(96);

test('the background checkpointer copies the WAL into the database off the writer, and hands checkpoints back when stopped', async () => {
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const { db } = openDatabase(file, now);
    db.exec('CREATE TABLE filler (x BLOB)');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const checkpointer = startCheckpointer(db, file);
    assert.is(db.pragma('wal_autocheckpoint', { simple: true }), 10_000, 'the writer keeps a backstop only');
    // 1,200 pages: past SQLite's own threshold (1,000), under the backstop, so only the worker checkpoints.
    const insert = db.prepare('INSERT INTO filler (x) VALUES (randomblob(4000))');
    for (let i = 0; i < 12; i++) db.transaction(() => { for (let j = 0; j < 100; j++) insert.run(); })();
    assert.ok(walFrames(file) > 1000, 'the writer did not checkpoint on its own');
    let backfilled = false;
    for (let i = 0; i < 100 && !backfilled; i++) {
      await sleep(20);
      backfilled = backfilledFrames(file) >= walFrames(file);
    }
    assert.ok(backfilled, 'every frame of the WAL was copied into the database file by the worker');
    await checkpointer.stop();
    await checkpointer.stop(); // twice is harmless
    assert.is(db.pragma('wal_autocheckpoint', { simple: true }), 1000, 'checkpoints are the writer\'s again');
    db.close();
  } finally {
    dirs.cleanup();
  }
});

test('an in-memory database gets no checkpointer', async () => {
  const db = new Sqlite(':memory:');
  const checkpointer = startCheckpointer(db, ':memory:');
  assert.is(db.pragma('wal_autocheckpoint', { simple: true }), 1000);
  await checkpointer.stop();
  db.close();
});

test.run();
