import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import path from 'node:path';
import { ensureOwnedDir, ensureOwnedFile } from '../util/owned-files.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';

export type { Database };

/** Migration steps recorded as applied (0 for a new file). */
function appliedCount(db: Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  return table ? (db.prepare('SELECT count(*) FROM schema_migrations').pluck().get() as number) : 0;
}

/** Open the database file (WAL, foreign keys, busy timeout) and bring its schema up to date. */
export function openDatabase(file: string, now: () => string): { db: Database; schemaVersion: number } {
  if (file !== ':memory:') {
    ensureOwnedDir(path.dirname(file));
    ensureOwnedFile(file); // SQLite would create it 0644 (and its -wal and -shm alike)
  }
  const db = new Sqlite(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    const appliedBefore = appliedCount(db);
    const schemaVersion = migrate(db, MIGRATIONS, now);
    // An upgrade may have removed secrets (migrations 21, 22, 24, 31 overwrite them with
    // secure_delete), but the overwritten pages sit in the WAL and the main file keeps the old
    // ones until a checkpoint. Checkpoint and empty the WAL at once, not at some later close.
    if (file !== ':memory:' && appliedCount(db) > appliedBefore) db.pragma('wal_checkpoint(TRUNCATE)');
    return { db, schemaVersion };
  } catch (err) {
    db.close();
    throw err;
  }
}
