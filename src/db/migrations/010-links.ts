import type { Migration } from '../migration.js';

/**
 * Near-duplicate links: pairs of documents that look like one work (preprint
 * and published version, arXiv versions, one work under two DOIs, title
 * variants). A link never deletes or merges a document; a pair is stored once
 * with the smaller id first.
 */
export const links: Migration = {
  version: 10,
  name: 'links',
  creates: ['document_links', 'document_links_by_b', 'link_scans'],
  up(db) {
    db.exec(`
      CREATE TABLE document_links (
        document_a INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        document_b INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        method TEXT NOT NULL,
        score REAL NOT NULL,
        evidence_json TEXT NOT NULL DEFAULT '{}',
        created_at_utc TEXT NOT NULL,
        PRIMARY KEY (document_a, document_b),
        CHECK (document_a < document_b)
      ) WITHOUT ROWID;
      CREATE INDEX document_links_by_b ON document_links (document_b);

      CREATE TABLE link_scans (
        id INTEGER PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('running', 'completed', 'cancelled', 'failed', 'interrupted')),
        total INTEGER NOT NULL DEFAULT 0,
        scanned INTEGER NOT NULL DEFAULT 0,
        candidates INTEGER NOT NULL DEFAULT 0,
        links_written INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        owner_runtime_id TEXT,
        started_at_utc TEXT NOT NULL,
        finished_at_utc TEXT
      );
    `);
  },
};
