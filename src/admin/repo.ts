/**
 * The administration SQL: the database's own table list, erasing by category,
 * and the backup and restore records.
 */
import type { Database } from 'better-sqlite3';
import { ROW_CATEGORIES, TABLE_CATEGORIES } from './tables.js';
import type { TableCategory } from '../wire/admin.js';

export interface TableInfo {
  name: string;
  /** table, virtual (shadow tables of virtual tables are left out). */
  type: 'table' | 'virtual';
  /** An FTS5 table kept in step with its content table by triggers. */
  externalContent: boolean;
}

/** Every table of the main schema that holds data, without SQLite's own and shadow tables. */
export function listTables(db: Database): TableInfo[] {
  const rows = db.prepare("SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string; type: 'table' | 'virtual' }[];
  const sqlOf = db.prepare("SELECT sql FROM sqlite_master WHERE name = ?");
  return rows.map((r) => {
    const sql = (sqlOf.get(r.name) as { sql: string | null } | undefined)?.sql ?? '';
    // An FTS table over external content, an fts5vocab view of one, or the sqlite-vec index of an
    // earlier version (derived from embedding_vectors, unreadable without the extension) holds nothing of its own.
    const derived = /\bcontent\s*=\s*'[^']+'/i.test(sql) || /\bUSING\s+(fts5vocab|vec0)\b/i.test(sql);
    return { name: r.name, type: r.type, externalContent: r.type === 'virtual' && derived };
  });
}

/** Tables present in the database but absent from the classification. */
export function unclassifiedTables(db: Database): string[] {
  return listTables(db).map((t) => t.name).filter((n) => !(n in TABLE_CATEGORIES));
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function rowCount(db: Database, table: string): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM ${quote(table)}`).get() as { n: number }).n;
}

/**
 * Delete every row of the tables in `categories`, in one transaction. Foreign
 * keys are checked at commit (deferred), so the order within a category does
 * not matter; ON DELETE actions reach dependent rows of other categories.
 * An FTS table with external content follows its content table's triggers.
 */
export function eraseCategories(db: Database, categories: TableCategory[]): Record<string, number> {
  const rows: Record<string, number> = {};
  if (categories.length === 0) return rows;
  const tables = listTables(db).filter((t) => !t.externalContent);
  db.transaction(() => {
    db.pragma('defer_foreign_keys = ON');
    for (const t of tables) {
      const where = eraseWhere(t.name, categories);
      if (where !== null) rows[t.name] = db.prepare(`DELETE FROM ${quote(t.name)}${where}`).run().changes;
    }
  })();
  return rows;
}

/** Which rows of a table an erase of `categories` takes: null none, '' all, else a WHERE clause (ROW_CATEGORIES). */
function eraseWhere(table: string, categories: TableCategory[]): string | null {
  const parts = ROW_CATEGORIES[table] ?? [];
  const own = categories.includes(TABLE_CATEGORIES[table]!);
  const taken = parts.filter((p) => categories.includes(p.category)).map((p) => `(${p.where})`);
  if (own && taken.length === parts.length) return '';
  if (own) taken.push(`NOT (${parts.map((p) => `(${p.where})`).join(' OR ')})`);
  return taken.length ? ` WHERE ${taken.join(' OR ')}` : null;
}

export interface BackupRecord {
  id: number;
  kind: 'local' | 'cloud';
  path: string;
  created_at_utc: string;
  byte_size: number;
  manifest_sha256: string;
  include_reports: number;
  file_count: number;
  schema_version: number;
  remote_path: string | null;
}

export function insertBackup(db: Database, r: Omit<BackupRecord, 'id'>): number {
  return Number(
    db
      .prepare('INSERT INTO admin_backups (kind, path, created_at_utc, byte_size, manifest_sha256, include_reports, file_count, schema_version, remote_path) VALUES (@kind, @path, @created_at_utc, @byte_size, @manifest_sha256, @include_reports, @file_count, @schema_version, @remote_path)')
      .run(r).lastInsertRowid,
  );
}

export function lastBackup(db: Database, kind: 'local' | 'cloud'): BackupRecord | undefined {
  return db.prepare('SELECT * FROM admin_backups WHERE kind = ? ORDER BY id DESC LIMIT 1').get(kind) as BackupRecord | undefined;
}

export interface RestoreRecord {
  id: number;
  bundle_path: string;
  bundle_created_at_utc: string;
  staged_at_utc: string;
  applied_at_utc: string;
  undo_path: string | null;
  vault_path: string | null;
  not_restored_json: string;
  acknowledged_at_utc: string | null;
}

export function insertRestore(db: Database, r: Omit<RestoreRecord, 'id' | 'acknowledged_at_utc'> & { acknowledged_at_utc?: string | null }): void {
  db.prepare(
    'INSERT INTO admin_restores (bundle_path, bundle_created_at_utc, staged_at_utc, applied_at_utc, undo_path, vault_path, not_restored_json, acknowledged_at_utc) VALUES (@bundle_path, @bundle_created_at_utc, @staged_at_utc, @applied_at_utc, @undo_path, @vault_path, @not_restored_json, @acknowledged_at_utc)',
  ).run({ acknowledged_at_utc: null, ...r });
}

/** A restore is recognised by when and what was staged. */
export function hasRestore(db: Database, stagedAt: string, bundlePath: string): boolean {
  return db.prepare('SELECT 1 FROM admin_restores WHERE staged_at_utc = ? AND bundle_path = ?').get(stagedAt, bundlePath) !== undefined;
}

export function lastRestore(db: Database): RestoreRecord | undefined {
  return db.prepare('SELECT * FROM admin_restores ORDER BY id DESC LIMIT 1').get() as RestoreRecord | undefined;
}

export function acknowledgeRestores(db: Database, at: string): number {
  return db.prepare('UPDATE admin_restores SET acknowledged_at_utc = ? WHERE acknowledged_at_utc IS NULL').run(at).changes;
}

/**
 * Add to `db` the backup and restore records of `before` (the database a restore set aside) that
 * it lacks, oldest first. Records already there are recognised by their bundle (backups) or by
 * when and what was staged (restores), so running it twice adds nothing.
 */
export function carryHistory(db: Database, before: Database): { backups: number; restores: number } {
  const backups = before.prepare('SELECT kind, path, created_at_utc, byte_size, manifest_sha256, include_reports, file_count, schema_version, remote_path FROM admin_backups ORDER BY id').all() as Omit<BackupRecord, 'id'>[];
  const restores = before.prepare('SELECT bundle_path, bundle_created_at_utc, staged_at_utc, applied_at_utc, undo_path, vault_path, not_restored_json, acknowledged_at_utc FROM admin_restores ORDER BY id').all() as Omit<RestoreRecord, 'id'>[];
  const hasBackup = db.prepare('SELECT 1 FROM admin_backups WHERE kind = ? AND path = ? AND manifest_sha256 = ? AND byte_size = ?');
  const added = { backups: 0, restores: 0 };
  db.transaction(() => {
    for (const b of backups) {
      if (hasBackup.get(b.kind, b.path, b.manifest_sha256, b.byte_size)) continue;
      insertBackup(db, b);
      added.backups++;
    }
    for (const r of restores) {
      if (hasRestore(db, r.staged_at_utc, r.bundle_path)) continue;
      insertRestore(db, r);
      added.restores++;
    }
  })();
  return added;
}
