import type { Migration } from '../migration.js';

/**
 * The corpus: one row per work, whatever number of sources and runs found it.
 * Identity columns (doi, arxiv_id, pmid, pmcid) are unique; the fallback
 * identity (title key + year + first author) is indexed, not unique. Every
 * source that saw the work keeps a provenance row. FTS5 over title, abstract
 * and authors follows the table through triggers and a pending queue.
 */
export const corpus: Migration = {
  version: 2,
  name: 'corpus',
  creates: ['documents', 'document_sources', 'documents_fts', 'documents_fts_pending', 'documents_by_date', 'documents_by_title_key'],
  up(db) {
    db.exec(`
      CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        title_key TEXT NOT NULL,
        abstract TEXT,
        authors_json TEXT NOT NULL DEFAULT '[]',
        authors_text TEXT NOT NULL DEFAULT '',
        first_author_key TEXT NOT NULL DEFAULT '',
        publication_date TEXT,
        date_precision TEXT CHECK (date_precision IN ('day', 'month', 'year')),
        sort_date TEXT NOT NULL DEFAULT '',
        year INTEGER,
        venue TEXT,
        doi TEXT UNIQUE,
        arxiv_id TEXT UNIQUE,
        pmid TEXT UNIQUE,
        pmcid TEXT UNIQUE,
        ids_json TEXT NOT NULL DEFAULT '{}',
        landing_url TEXT,
        pdf_url TEXT,
        categories_json TEXT NOT NULL DEFAULT '[]',
        license TEXT,
        open_access INTEGER,
        doc_type TEXT,
        is_retracted INTEGER NOT NULL DEFAULT 0,
        relations_json TEXT NOT NULL DEFAULT '[]',
        -- The source whose record gave title, venue, type and date (see corpus/authority.ts).
        meta_source TEXT,
        first_seen_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );
      CREATE INDEX documents_by_date ON documents (sort_date DESC, id DESC);
      CREATE INDEX documents_by_title_key ON documents (title_key, year, first_author_key);

      -- A rowid table: record_json is large, which WITHOUT ROWID tables handle badly.
      CREATE TABLE document_sources (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        native_id TEXT NOT NULL,
        first_seen_at_utc TEXT NOT NULL,
        last_seen_at_utc TEXT NOT NULL,
        record_json TEXT NOT NULL
      );
      CREATE UNIQUE INDEX document_sources_by_native ON document_sources (source, native_id);
      CREATE INDEX document_sources_by_document ON document_sources (document_id);

      CREATE VIRTUAL TABLE documents_fts USING fts5 (
        title, abstract, authors_text,
        content = 'documents', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
      );
      -- Indexing is deferred: writes queue the document here and flushSearchIndex() indexes the
      -- queue in one statement (at the end of a run, before any full-text query). One large
      -- FTS5 transaction costs a fraction of many small ones. A queued document is not in the
      -- index yet, so its old values must not be deleted from it.
      CREATE TABLE documents_fts_pending (id INTEGER PRIMARY KEY);
      CREATE TRIGGER documents_fts_insert AFTER INSERT ON documents BEGIN
        INSERT OR IGNORE INTO documents_fts_pending (id) VALUES (new.id);
      END;
      CREATE TRIGGER documents_fts_update AFTER UPDATE OF title, abstract, authors_text ON documents
      WHEN old.title IS NOT new.title OR old.abstract IS NOT new.abstract OR old.authors_text IS NOT new.authors_text BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, abstract, authors_text)
          SELECT 'delete', old.id, old.title, old.abstract, old.authors_text WHERE NOT EXISTS (SELECT 1 FROM documents_fts_pending WHERE id = old.id);
        INSERT OR IGNORE INTO documents_fts_pending (id) VALUES (new.id);
      END;
      CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, abstract, authors_text)
          SELECT 'delete', old.id, old.title, old.abstract, old.authors_text WHERE NOT EXISTS (SELECT 1 FROM documents_fts_pending WHERE id = old.id);
        DELETE FROM documents_fts_pending WHERE id = old.id;
      END;
    `);
  },
};
