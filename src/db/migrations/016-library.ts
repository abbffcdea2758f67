import type { Migration } from '../migration.js';

/**
 * The Library (spec 2, schema 16): one vault record, one record per retained
 * file, and explicit file-to-document links.
 *
 * A file record carries its one immutable version: no operation ever adds a
 * second version to a file (different bytes get a new file), so a separate
 * versions table would only add a join. `id` is the keyset ordinal of the list
 * route (through_id / before_id); `file_id` and `version_id` are the public
 * UUIDs. A digest names at most one record per vault (a collision refuses).
 * Deleting a document removes only its link rows (ON DELETE CASCADE).
 */
export const library: Migration = {
  version: 16,
  name: 'library',
  creates: ['library_vaults', 'library_files', 'library_paper_links', 'library_paper_links_by_document'],
  up(db) {
    db.exec(`
      CREATE TABLE library_vaults (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        vault_id TEXT NOT NULL UNIQUE,
        root_path TEXT NOT NULL,
        label TEXT NOT NULL,
        created_at_utc TEXT NOT NULL
      );

      CREATE TABLE library_files (
        id INTEGER PRIMARY KEY,
        file_id TEXT NOT NULL UNIQUE,
        version_id TEXT NOT NULL UNIQUE,
        vault_id TEXT NOT NULL REFERENCES library_vaults (vault_id),
        original_name TEXT NOT NULL,
        name_fold TEXT NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('pdf', 'txt', 'md')),
        media_type TEXT NOT NULL,
        byte_size INTEGER NOT NULL CHECK (byte_size > 0),
        sha256 TEXT NOT NULL,
        relative_path TEXT NOT NULL UNIQUE,
        imported_at_utc TEXT NOT NULL,
        UNIQUE (vault_id, sha256)
      );

      CREATE TABLE library_paper_links (
        file_row INTEGER NOT NULL REFERENCES library_files (id),
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        basis TEXT NOT NULL CHECK (basis IN ('import', 'link')),
        linked_at_utc TEXT NOT NULL,
        PRIMARY KEY (file_row, document_id)
      ) WITHOUT ROWID;
      CREATE INDEX library_paper_links_by_document ON library_paper_links (document_id);
    `);
  },
};
