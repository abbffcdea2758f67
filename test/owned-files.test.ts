/**
 * Files svc owns that a library or a child process creates by name: the
 * database (and its -wal and -shm), the backup's database snapshot and the
 * daemon log are owner-only and never reached through a planted link.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/db/open.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { createBackup } from '../src/admin/backup.js';
import { readBundle } from '../src/admin/bundle.js';
import { startDaemon, stopDaemon } from '../src/daemon/control.js';
import { tempDirs } from './_setup.js';

const now = () => '2026-11-25T00:00:00.000Z';
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const quiet = () => createLogger({ level: 'error', sink: () => {} });

test('a new database and its -wal and -shm are created 0600 whatever the umask', () => {
  const dirs = tempDirs();
  const old = process.umask(0o022);
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const { db } = openDatabase(file, now);
    db.prepare('CREATE TABLE t (x)').run();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) assert.is(modeOf(f).toString(8), '600', f);
    db.close();
  } finally {
    process.umask(old);
    dirs.cleanup();
  }
});

test('a database made readable to others before (0644) is owner-only once svc opens it; its rows are kept', () => {
  const dirs = tempDirs();
  const old = process.umask(0o022);
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const first = openDatabase(file, now).db;
    first.prepare("INSERT INTO app_state (key, value_json, updated_at_utc) VALUES ('kept', '1', 'x')").run();
    first.close();
    fs.chmodSync(file, 0o644);
    const { db } = openDatabase(file, now);
    assert.is(modeOf(file).toString(8), '600');
    assert.is(db.prepare("SELECT value_json FROM app_state WHERE key = 'kept'").pluck().get(), '1');
    db.prepare('CREATE TABLE t (x)').run();
    for (const f of [`${file}-wal`, `${file}-shm`]) assert.is(modeOf(f).toString(8), '600', f);
    db.close();
  } finally {
    process.umask(old);
    dirs.cleanup();
  }
});

test('a link planted at the database path is refused (unsafe_file), its target neither created nor changed', () => {
  const dirs = tempDirs();
  try {
    fs.mkdirSync(dirs.dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(dirs.dataDir, 'svc.db');
    const elsewhere = path.join(dirs.root, 'elsewhere.db');
    fs.symlinkSync(elsewhere, file);
    assert.throws(() => openDatabase(file, now), (e: any) => e?.reason === 'unsafe_file');
    assert.not.ok(fs.existsSync(elsewhere), 'a dangling link is not followed to create its target');
    const victim = path.join(dirs.root, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.rmSync(file);
    fs.symlinkSync(victim, file);
    assert.throws(() => openDatabase(file, now), (e: any) => e?.reason === 'unsafe_file');
    assert.is(fs.readFileSync(victim, 'utf8'), 'keep me');
  } finally {
    dirs.cleanup();
  }
});

test('the database snapshot in a backup bundle is recorded 0600 (the live database copied whole)', async () => {
  const dirs = tempDirs();
  const old = process.umask(0o022);
  const ctx = createContext({ env: dirs.env, log: quiet() });
  try {
    void ctx.db; // opened on first use; the snapshot copies it
    const made = await createBackup(ctx, { includeReports: false });
    const { manifest } = await readBundle(made.path);
    const db = manifest.files.find((f) => f.kind === 'database');
    assert.ok(db, 'the bundle holds the database');
    assert.is(db!.mode.toString(8), '600');
    assert.is(modeOf(made.path).toString(8), '600');
  } finally {
    process.umask(old);
    ctx.close();
    dirs.cleanup();
  }
});

test('a link planted at the daemon log is refused (unsafe_file) before any daemon starts; its target is untouched', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: quiet() });
  try {
    fs.mkdirSync(dirs.stateDir, { recursive: true, mode: 0o700 });
    const victim = path.join(dirs.root, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, path.join(dirs.stateDir, 'daemon.log'));
    let caught: any;
    await startDaemon(ctx, { env: { ...dirs.env }, timeoutMs: 5000 }).catch((e) => (caught = e));
    if (!caught) await stopDaemon(ctx); // (old code followed the link and started one)
    assert.is(caught?.reason, 'unsafe_file', String(caught));
    assert.is(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.not.ok(fs.existsSync(path.join(dirs.stateDir, 'daemon.lock')), 'no daemon was spawned');
  } finally {
    ctx.close();
    dirs.cleanup();
  }
});

test.run();
