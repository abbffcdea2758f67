import type { Migration } from '../migration.js';

/**
 * The corpus: one row per work, whatever number of sources and runs found it.
 * Identity columns (doi, arxiv_id, pmid, pmcid) are unique; the fallback
 * identity (title key + year + first author) is indexed, not unique. Every
 * source that saw the work keeps a provenance row. FTS5 over title, abstract
 * and authors follows the table through triggers.
 */
export const corpus: Migration = {
  version: 2,
  name: 'corpus',
  creates: ['documents', 'document_sources', 'documents_fts', 'documents_by_date', 'documents_by_title_key'],
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
        first_seen_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );
      CREATE INDEX documents_by_date ON documents (sort_date DESC, id DESC);
      CREATE INDEX documents_by_title_key ON documents (title_key, year, first_author_key);

      CREATE TABLE document_sources (
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        native_id TEXT NOT NULL,
        first_seen_at_utc TEXT NOT NULL,
        last_seen_at_utc TEXT NOT NULL,
        record_json TEXT NOT NULL,
        PRIMARY KEY (document_id, source, native_id)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX document_sources_by_native ON document_sources (source, native_id);

      CREATE VIRTUAL TABLE documents_fts USING fts5 (
        title, abstract, authors_text,
        content = 'documents', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER documents_fts_insert AFTER INSERT ON documents BEGIN
        INSERT INTO documents_fts (rowid, title, abstract, authors_text) VALUES (new.id, new.title, new.abstract, new.authors_text);
      END;
      CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, abstract, authors_text) VALUES ('delete', old.id, old.title, old.abstract, old.authors_text);
      END;
      CREATE TRIGGER documents_fts_update AFTER UPDATE OF title, abstract, authors_text ON documents BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, abstract, authors_text) VALUES ('delete', old.id, old.title, old.abstract, old.authors_text);
        INSERT INTO documents_fts (rowid, title, abstract, authors_text) VALUES (new.id, new.title, new.abstract, new.authors_text);
      END;
    `);
  },
};
