import type { Migration } from '../migration.js';

/** Take one from a counter, creating it at -1 when absent: see below. */
const decrement = (facet: string, value: string) =>
  `INSERT INTO explorer_facet_counts (facet, value, count) VALUES ('${facet}', ${value}, -1) ON CONFLICT (facet, value) DO UPDATE SET count = count - 1;`;
const year = (row: 'old' | 'new') => `coalesce(CAST(${row}.year AS TEXT), 'undated')`;

/**
 * Ingest at scale (issue 11 item 9). Three per-row triggers ran on every
 * merged record: queueing a new document for the full-text index, counting
 * its year, counting its source. Each cost more than the row it followed
 * (together about a fifth of a merge's CPU time). Documents and provenance
 * rows are inserted only by mergeRecords() (corpus/merge.ts), which now
 * queues a new document itself and adds year and source counts once per
 * batch, in the same transaction; the delete and move triggers keep
 * counting. Their decrements now create a
 * counter that does not exist yet (at -1): a paper new in a batch, from a
 * year or source never seen before, can be folded away or change year before
 * the batch adds its counts, and a decrement of a missing row was lost.
 *
 * The full-text update and delete triggers now ask the index itself (its
 * docsize table has a row per indexed document) whether a document is in it,
 * instead of inferring that from the queue: a document written by any other
 * means is never "deleted" from an index it was never in, which would corrupt
 * the index.
 */
export const corpusMergeCounts: Migration = {
  version: 20,
  name: 'corpus-merge-counts',
  creates: [],
  up(db) {
    db.exec(`
      DROP TRIGGER documents_fts_insert;
      DROP TRIGGER facet_count_year_insert;
      DROP TRIGGER facet_count_source_insert;

      DROP TRIGGER facet_count_year_delete;
      CREATE TRIGGER facet_count_year_delete AFTER DELETE ON documents BEGIN ${decrement('years', year('old'))} END;
      DROP TRIGGER facet_count_year_update;
      CREATE TRIGGER facet_count_year_update AFTER UPDATE OF year ON documents WHEN old.year IS NOT new.year BEGIN
        ${decrement('years', year('old'))}
        INSERT INTO explorer_facet_counts (facet, value, count) VALUES ('years', ${year('new')}, 1) ON CONFLICT (facet, value) DO UPDATE SET count = count + 1;
      END;
      DROP TRIGGER facet_count_source_delete;
      CREATE TRIGGER facet_count_source_delete AFTER DELETE ON document_sources
      WHEN NOT EXISTS (SELECT 1 FROM document_sources WHERE source = old.source AND document_id = old.document_id)
      BEGIN ${decrement('sources', 'old.source')} END;
      DROP TRIGGER facet_count_source_update_old;
      CREATE TRIGGER facet_count_source_update_old AFTER UPDATE OF document_id, source ON document_sources
      WHEN (old.document_id IS NOT new.document_id OR old.source IS NOT new.source)
        AND NOT EXISTS (SELECT 1 FROM document_sources WHERE source = old.source AND document_id = old.document_id)
      BEGIN ${decrement('sources', 'old.source')} END;

      DROP TRIGGER documents_fts_update;
      CREATE TRIGGER documents_fts_update AFTER UPDATE OF title, abstract, authors_text ON documents
      WHEN old.title IS NOT new.title OR old.abstract IS NOT new.abstract OR old.authors_text IS NOT new.authors_text BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, abstract, authors_text)
          SELECT 'delete', old.id, old.title, old.abstract, old.authors_text WHERE EXISTS (SELECT 1 FROM documents_fts_docsize WHERE id = old.id);
        INSERT OR IGNORE INTO documents_fts_pending (id) VALUES (new.id);
      END;
      DROP TRIGGER documents_fts_delete;
      CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
        INSERT INTO documents_fts (documents_fts, rowid, title, abstract, authors_text)
          SELECT 'delete', old.id, old.title, old.abstract, old.authors_text WHERE EXISTS (SELECT 1 FROM documents_fts_docsize WHERE id = old.id);
        DELETE FROM documents_fts_pending WHERE id = old.id;
      END;
    `);
  },
};
