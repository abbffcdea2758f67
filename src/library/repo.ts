/**
 * The Library's SQL: prepared once per database connection.
 */
import type { Database, Statement } from 'better-sqlite3';
import { perDatabase } from '../db/per-database.js';

import type { LibraryFile, LibraryFormat, LinkBasis } from '../wire/library.js';

export type { LibraryFormat, LinkBasis };

export interface VaultRow {
  vault_id: string;
  root_path: string;
  label: string;
  created_at_utc: string;
}

/** A catalog row: the file as the answers show it, and the vault it is in. */
export interface FileRow extends LibraryFile {
  vault_id: string;
}

export interface LinkRow {
  file_row: number;
  document_id: number;
  basis: LinkBasis;
  linked_at_utc: string;
}

/** What the vault scan compares with the folder. */
export type RetainedRow = Pick<FileRow, 'file_id' | 'version_id' | 'format' | 'byte_size' | 'sha256' | 'relative_path'>;

export type NewFile = Omit<FileRow, 'id'> & { name_fold: string };

export interface ListQuery {
  vaultId: string;
  throughId: number;
  beforeId: number | null;
  fold: string | null;
  limit: number;
}

const FILE_COLUMNS = 'id, file_id, version_id, vault_id, original_name, format, media_type, byte_size, sha256, relative_path, imported_at_utc';

function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  const q = {
    vault: s('SELECT vault_id, root_path, label, created_at_utc FROM library_vaults WHERE id = 1'),
    insertVault: s('INSERT INTO library_vaults (id, vault_id, root_path, label, created_at_utc) VALUES (1, ?, ?, ?, ?)'),
    totals: s('SELECT COUNT(*) AS files, COALESCE(SUM(byte_size), 0) AS bytes, COALESCE(MAX(id), 0) AS max_id FROM library_files WHERE vault_id = ?'),
    linkCount: s('SELECT COUNT(*) AS n FROM library_paper_links l JOIN library_files f ON f.id = l.file_row WHERE f.vault_id = ?'),
    bySha: s(`SELECT ${FILE_COLUMNS} FROM library_files WHERE vault_id = ? AND sha256 = ?`),
    byFileId: s(`SELECT ${FILE_COLUMNS} FROM library_files WHERE vault_id = ? AND file_id = ?`),
    byRowId: s(`SELECT ${FILE_COLUMNS} FROM library_files WHERE vault_id = ? AND id = ?`),
    byVersionId: s(`SELECT ${FILE_COLUMNS} FROM library_files WHERE vault_id = ? AND version_id = ?`),
    all: s(`SELECT ${FILE_COLUMNS} FROM library_files WHERE vault_id = ? ORDER BY id`),
    retained: s('SELECT file_id, version_id, format, byte_size, sha256, relative_path FROM library_files WHERE vault_id = ? ORDER BY id'),
    insertFile: s(`INSERT INTO library_files (file_id, version_id, vault_id, original_name, name_fold, format, media_type, byte_size, sha256, relative_path, imported_at_utc)
      VALUES (@file_id, @version_id, @vault_id, @original_name, @name_fold, @format, @media_type, @byte_size, @sha256, @relative_path, @imported_at_utc)`),
    page: s(`SELECT ${FILE_COLUMNS} FROM library_files
      WHERE vault_id = @vaultId AND id <= @throughId AND (@beforeId IS NULL OR id < @beforeId)
        AND (@fold IS NULL OR instr(name_fold, @fold) > 0)
      ORDER BY id DESC LIMIT @limit`),
    linksOf: s('SELECT file_row, document_id, basis, linked_at_utc FROM library_paper_links WHERE file_row = ? ORDER BY document_id'),
    allLinks: s('SELECT l.file_row, l.document_id, l.basis, l.linked_at_utc FROM library_paper_links l JOIN library_files f ON f.id = l.file_row WHERE f.vault_id = ? ORDER BY l.file_row, l.document_id'),
    link: s('SELECT file_row, document_id, basis, linked_at_utc FROM library_paper_links WHERE file_row = ? AND document_id = ?'),
    insertLink: s('INSERT OR IGNORE INTO library_paper_links (file_row, document_id, basis, linked_at_utc) VALUES (?, ?, ?, ?)'),
    document: s('SELECT 1 AS one FROM documents WHERE id = ?'),
  };
  return {
    vault: () => q.vault.get() as VaultRow | undefined,
    insertVault: (v: VaultRow) => void q.insertVault.run(v.vault_id, v.root_path, v.label, v.created_at_utc),
    totals: (vaultId: string) => q.totals.get(vaultId) as { files: number; bytes: number; max_id: number },
    linkCount: (vaultId: string) => (q.linkCount.get(vaultId) as { n: number }).n,
    bySha: (vaultId: string, sha256: string) => q.bySha.get(vaultId, sha256) as FileRow | undefined,
    byFileId: (vaultId: string, fileId: string) => q.byFileId.get(vaultId, fileId) as FileRow | undefined,
    byRowId: (vaultId: string, id: number) => q.byRowId.get(vaultId, id) as FileRow | undefined,
    byVersionId: (vaultId: string, versionId: string) => q.byVersionId.get(vaultId, versionId) as FileRow | undefined,
    all: (vaultId: string) => q.all.all(vaultId) as FileRow[],
    retained: (vaultId: string) => q.retained.all(vaultId) as RetainedRow[],
    insertFile: (row: NewFile) => Number(q.insertFile.run(row).lastInsertRowid),
    page: (query: ListQuery) => q.page.all(query) as FileRow[],
    linksOf: (fileRow: number) => q.linksOf.all(fileRow) as LinkRow[],
    allLinks: (vaultId: string) => q.allLinks.all(vaultId) as LinkRow[],
    link: (fileRow: number, documentId: number) => q.link.get(fileRow, documentId) as LinkRow | undefined,
    /** Insert a link unless it exists; answers whether it was new. */
    insertLink: (fileRow: number, documentId: number, basis: LinkBasis, at: string) => q.insertLink.run(fileRow, documentId, basis, at).changes === 1,
    documentExists: (id: number) => q.document.get(id) !== undefined,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  };
}

export type Catalog = ReturnType<typeof prepare>;

export const catalogOf: (db: Database) => Catalog = perDatabase(prepare);

/** ASCII case folding only: the list search's one normalization. */
export function asciiFold(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
