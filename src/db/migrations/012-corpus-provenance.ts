import type { Migration } from '../migration.js';

/**
 * What the explorer filters and facets on, kept beside each document: its
 * authors (name and a lower-cased key) and its subject categories, one row
 * each, derived from the document's own authors_json and categories_json by
 * triggers (any writer keeps them right; folding two documents moves them
 * through the foreign key like every other row). Provenance gets an index by
 * source so "found by this source" is a seek, not a scan, and the full-text
 * index a vocabulary view (how many papers hold a word).
 *
 * Existing databases are backfilled from the documents in the same
 * transaction; nothing is dropped.
 */
export const corpusProvenance: Migration = {
  version: 12,
  name: 'corpus-provenance',
  creates: ['document_authors', 'document_authors_by_key', 'document_categories', 'document_categories_by_category', 'document_sources_by_source', 'documents_fts_vocab'],
  up(db) {
    db.exec(`
      CREATE TABLE document_authors (
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        author_key TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (document_id, position)
      ) WITHOUT ROWID;
      CREATE INDEX document_authors_by_key ON document_authors (author_key, document_id);

      CREATE TABLE document_categories (
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        category TEXT NOT NULL,
        PRIMARY KEY (document_id, category)
      ) WITHOUT ROWID;
      CREATE INDEX document_categories_by_category ON document_categories (category, document_id);

      CREATE INDEX document_sources_by_source ON document_sources (source, document_id);
      -- Per-word document counts of the full-text index: the explorer picks its query plan with them.
      CREATE VIRTUAL TABLE documents_fts_vocab USING fts5vocab(documents_fts, 'row');

      CREATE TRIGGER document_facets_insert AFTER INSERT ON documents BEGIN
        INSERT OR IGNORE INTO document_authors (document_id, position, author_key, name)
          SELECT new.id, key, lower(trim(json_extract(value, '$.name'))), json_extract(value, '$.name') FROM json_each(new.authors_json)
          WHERE trim(coalesce(json_extract(value, '$.name'), '')) <> '';
        INSERT OR IGNORE INTO document_categories (document_id, category)
          SELECT new.id, value FROM json_each(new.categories_json) WHERE type = 'text' AND value <> '';
      END;
      CREATE TRIGGER document_facets_authors AFTER UPDATE OF authors_json ON documents WHEN old.authors_json IS NOT new.authors_json BEGIN
        DELETE FROM document_authors WHERE document_id = new.id;
        INSERT OR IGNORE INTO document_authors (document_id, position, author_key, name)
          SELECT new.id, key, lower(trim(json_extract(value, '$.name'))), json_extract(value, '$.name') FROM json_each(new.authors_json)
          WHERE trim(coalesce(json_extract(value, '$.name'), '')) <> '';
      END;
      CREATE TRIGGER document_facets_categories AFTER UPDATE OF categories_json ON documents WHEN old.categories_json IS NOT new.categories_json BEGIN
        DELETE FROM document_categories WHERE document_id = new.id;
        INSERT OR IGNORE INTO document_categories (document_id, category)
          SELECT new.id, value FROM json_each(new.categories_json) WHERE type = 'text' AND value <> '';
      END;

      INSERT OR IGNORE INTO document_authors (document_id, position, author_key, name)
        SELECT d.id, j.key, lower(trim(json_extract(j.value, '$.name'))), json_extract(j.value, '$.name') FROM documents d, json_each(d.authors_json) j
        WHERE trim(coalesce(json_extract(j.value, '$.name'), '')) <> '';
      INSERT OR IGNORE INTO document_categories (document_id, category)
        SELECT d.id, j.value FROM documents d, json_each(d.categories_json) j WHERE j.type = 'text' AND j.value <> '';
    `);
  },
};
