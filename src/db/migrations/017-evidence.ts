import type { Migration } from '../migration.js';

/**
 * Evidence projects (spec 2, schema 17): projects, their memberships (exact
 * Library file versions) and saved notes, with one explicit index each for
 * the membership and note list orders.
 *
 * A note keeps its own file row, not the membership row: removing a
 * membership deletes only that row, and re-adding the same file version
 * reconnects its notes. Nothing deletes projects or notes. A passage anchor
 * lives in the note row (all its columns null for a plain note), with the
 * retained-byte digest it was made against.
 */
export const evidence: Migration = {
  version: 17,
  name: 'evidence',
  creates: ['evidence_projects', 'evidence_project_files', 'evidence_notes', 'evidence_project_files_order', 'evidence_notes_order'],
  up(db) {
    db.exec(`
      CREATE TABLE evidence_projects (
        id INTEGER PRIMARY KEY,
        project_id TEXT NOT NULL UNIQUE,
        vault_id TEXT NOT NULL REFERENCES library_vaults (vault_id),
        name TEXT NOT NULL,
        revision INTEGER NOT NULL CHECK (revision >= 1),
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );

      CREATE TABLE evidence_project_files (
        id INTEGER PRIMARY KEY,
        project_row INTEGER NOT NULL REFERENCES evidence_projects (id),
        file_row INTEGER NOT NULL REFERENCES library_files (id),
        added_at_utc TEXT NOT NULL,
        UNIQUE (project_row, file_row)
      );
      CREATE INDEX evidence_project_files_order ON evidence_project_files (project_row, id);

      CREATE TABLE evidence_notes (
        id INTEGER PRIMARY KEY,
        project_row INTEGER NOT NULL REFERENCES evidence_projects (id),
        file_row INTEGER NOT NULL REFERENCES library_files (id),
        kind TEXT NOT NULL CHECK (kind IN ('plain', 'passage')),
        body TEXT NOT NULL,
        revision INTEGER NOT NULL CHECK (revision >= 1),
        page_basis TEXT CHECK (page_basis IN ('physical', 'logical')),
        page INTEGER,
        extraction_contract TEXT,
        page_sha256 TEXT,
        start_codepoint INTEGER,
        end_codepoint INTEGER,
        quote TEXT,
        content_sha256 TEXT,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL,
        CHECK ((kind = 'plain') = (page IS NULL)),
        CHECK (kind = 'plain' OR (page_basis IS NOT NULL AND extraction_contract IS NOT NULL AND page_sha256 IS NOT NULL
          AND start_codepoint >= 0 AND end_codepoint > start_codepoint AND quote IS NOT NULL AND content_sha256 IS NOT NULL))
      );
      CREATE INDEX evidence_notes_order ON evidence_notes (project_row, id);
    `);
  },
};
