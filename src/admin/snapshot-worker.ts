/**
 * Takes a backup's database snapshot on its own thread. One read transaction
 * on a connection of its own: the facts the backup needs (row counts, the
 * vault and its files, the reports) are read first and posted as
 * {t: 'facts'}, then SQLite's online backup API copies that same snapshot,
 * every page in one step, to workerData.snapshot and {t: 'done'} follows.
 * The backup API reuses the open read transaction, so facts and copy agree
 * whatever is written meanwhile (WAL readers never block writers). Before
 * {t: 'done'}, the secret columns of the copy (tables.ts SECRET_COLUMNS) are
 * emptied with secure_delete on, so their bytes are overwritten, not freed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Sqlite from 'better-sqlite3';
import { listTables, rowCount } from './repo.js';
import { SECRET_COLUMNS } from './tables.js';

export interface SnapshotFacts {
  tables: Record<string, number>;
  vault: { vault_id: string; root_path: string; label: string } | null;
  vaultFiles: string[];
  reports: { path: string; execution_id: number }[];
}

function readFacts(db: Sqlite.Database): SnapshotFacts {
  const tables: Record<string, number> = {};
  for (const t of listTables(db)) tables[t.name] = rowCount(db, t.name);
  const has = (name: string) => name in tables;
  const vault = has('library_vaults') ? ((db.prepare('SELECT vault_id, root_path, label FROM library_vaults WHERE id = 1').get() as SnapshotFacts['vault']) ?? null) : null;
  const vaultFiles = vault ? (db.prepare('SELECT relative_path FROM library_files WHERE vault_id = ? ORDER BY id').all(vault.vault_id) as { relative_path: string }[]).map((r) => r.relative_path) : [];
  const reports = has('executions') ? (db.prepare('SELECT id AS execution_id, report_path AS path FROM executions WHERE report_path IS NOT NULL ORDER BY id').all() as { path: string; execution_id: number }[]) : [];
  return { tables, vault, vaultFiles, reports };
}

/** Empty every secret column of a snapshot; closing the connection folds its WAL back into the file. */
export function scrubSecrets(file: string): void {
  const db = new Sqlite(file, { fileMustExist: true });
  try {
    db.pragma('secure_delete = ON');
    const tables = new Set(listTables(db).map((t) => t.name));
    db.transaction(() => {
      for (const [table, columns] of Object.entries(SECRET_COLUMNS)) {
        if (!tables.has(table)) continue;
        for (const column of columns) db.prepare(`UPDATE "${table}" SET "${column}" = NULL WHERE "${column}" IS NOT NULL`).run();
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

if (parentPort && workerData?.snapshot) {
  const { database, snapshot } = workerData as { database: string; snapshot: string };
  try {
    const db = new Sqlite(database, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.exec('BEGIN');
      parentPort.postMessage({ t: 'facts', facts: readFacts(db) });
      await db.backup(snapshot, { progress: () => 0x7fffffff });
      db.exec('COMMIT');
    } finally {
      db.close();
    }
    scrubSecrets(snapshot);
    parentPort.postMessage({ t: 'done' });
  } catch (err) {
    // A SqliteError crossing to the main thread as an 'error' event loses its message (only `code` survives): say it here.
    const e = err as { message?: unknown; code?: unknown };
    parentPort.postMessage({ t: 'error', message: typeof e.message === 'string' && e.message ? e.message : String(err), code: typeof e.code === 'string' ? e.code : undefined });
  }
}
