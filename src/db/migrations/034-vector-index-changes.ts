import type { Migration } from '../migration.js';

/**
 * The vector index becomes an HNSW file beside the database
 * (src/similarity/vec-index.ts), derived from embedding_vectors. Every write
 * to a canonical vector (insert, re-embedding, delete, a document's delete
 * cascading) appends its model and document to embedding_vector_changes, in
 * the same transaction, with an ever-growing seq. The index file records the
 * seq it holds everything up to (through_seq, in embedding_index_state and in
 * the file's sidecar), so any process, after any crash, knows exactly which
 * documents changed since the file was written and reads those from the
 * canonical table instead. Rows up to the file's through_seq are pruned when
 * a file is published.
 *
 * The state row of the sqlite-vec index says nothing about the new file, so
 * it goes; the next query builds the file.
 */
export const vectorIndexChanges: Migration = {
  version: 34,
  name: 'vector-index-changes',
  creates: ['embedding_vector_changes', 'embedding_vectors_changed_insert', 'embedding_vectors_changed_update', 'embedding_vectors_changed_delete'],
  up(db) {
    db.exec(`
      CREATE TABLE embedding_vector_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        model TEXT NOT NULL,
        document_id INTEGER NOT NULL
      );
      CREATE TRIGGER embedding_vectors_changed_insert AFTER INSERT ON embedding_vectors BEGIN
        INSERT INTO embedding_vector_changes (model, document_id) VALUES (new.model, new.document_id);
      END;
      CREATE TRIGGER embedding_vectors_changed_update AFTER UPDATE ON embedding_vectors BEGIN
        INSERT INTO embedding_vector_changes (model, document_id) VALUES (old.model, old.document_id);
        INSERT INTO embedding_vector_changes (model, document_id) SELECT new.model, new.document_id
          WHERE new.model IS NOT old.model OR new.document_id IS NOT old.document_id;
      END;
      CREATE TRIGGER embedding_vectors_changed_delete AFTER DELETE ON embedding_vectors BEGIN
        INSERT INTO embedding_vector_changes (model, document_id) VALUES (old.model, old.document_id);
      END;
      DELETE FROM embedding_index_state;
      ALTER TABLE embedding_index_state ADD COLUMN file_id TEXT;
      ALTER TABLE embedding_index_state ADD COLUMN through_seq INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE embedding_index_state ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
    `);
  },
};
