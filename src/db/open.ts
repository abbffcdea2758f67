import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import path from 'node:path';
import { ensureOwnedDir, ensureOwnedFile } from '../util/owned-files.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';

export type { Database };

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
    const schemaVersion = migrate(db, MIGRATIONS, now);
    return { db, schemaVersion };
  } catch (err) {
    db.close();
    throw err;
  }
}
