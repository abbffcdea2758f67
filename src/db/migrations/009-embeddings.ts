import type { Migration } from '../migration.js';

/**
 * Embeddings: the canonical vectors live in an ordinary table keyed by model
 * and document (float32 little-endian, L2-normalised). The sqlite-vec index is
 * not created here: the extension loads lazily and the index is rebuilt from
 * this table (see src/similarity/vec-index.ts). A document whose title or
 * abstract changes loses its vectors, so the next backfill embeds it again.
 */
export const embeddings: Migration = {
  version: 9,
  name: 'embeddings',
  creates: ['embedding_vectors', 'embedding_vectors_by_document', 'embedding_runs', 'embedding_stats', 'embedding_index_state', 'embedding_vectors_stale'],
  up(db) {
    db.exec(`
      CREATE TABLE embedding_vectors (
        model TEXT NOT NULL,
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        dimension INTEGER NOT NULL,
        vector BLOB NOT NULL,
        created_at_utc TEXT NOT NULL,
        PRIMARY KEY (model, document_id)
      );
      CREATE INDEX embedding_vectors_by_document ON embedding_vectors (document_id);

      -- One row per backfill (API, CLI or after-run); the latest tells the status answer.
      CREATE TABLE embedding_runs (
        id INTEGER PRIMARY KEY,
        model TEXT NOT NULL,
        trigger TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'completed', 'cancelled', 'failed', 'interrupted')),
        total INTEGER NOT NULL DEFAULT 0,
        embedded INTEGER NOT NULL DEFAULT 0,
        tokens INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        owner_runtime_id TEXT,
        started_at_utc TEXT NOT NULL,
        finished_at_utc TEXT
      );

      -- Lane statistics that vectors depend on (the lexical lane's document frequencies).
      CREATE TABLE embedding_stats (
        model TEXT PRIMARY KEY,
        documents INTEGER NOT NULL,
        data BLOB NOT NULL,
        updated_at_utc TEXT NOT NULL
      );

      -- What the rebuildable vec0 index holds (one model at a time).
      CREATE TABLE embedding_index_state (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        model TEXT NOT NULL,
        dimension INTEGER NOT NULL,
        vectors INTEGER NOT NULL,
        built_at_utc TEXT NOT NULL
      );

      CREATE TRIGGER embedding_vectors_stale AFTER UPDATE OF title, abstract ON documents
      WHEN old.title IS NOT new.title OR old.abstract IS NOT new.abstract BEGIN
        DELETE FROM embedding_vectors WHERE document_id = new.id;
      END;
    `);
  },
};
