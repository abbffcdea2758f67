import type { Migration } from '../migration.js';

/**
 * Document ids are not AUTOINCREMENT: when the paper with the largest id is
 * deleted (folded into an older one when a record proves them one work), the
 * next paper stored gets that id again. The lexical lane's statistics count
 * the papers after counted_through (migration 25), so a paper stored under an
 * id already counted was never counted. When the largest id goes, every
 * counted_through above the largest id left comes down to it: the papers
 * between are gone, and one stored there next is counted.
 */
export const lexicalStatsReusedId: Migration = {
  version: 28,
  name: 'lexical-stats-reused-id',
  creates: [],
  up(db) {
    db.exec(`
      CREATE TRIGGER embedding_stats_counted_through_delete AFTER DELETE ON documents
      WHEN NOT EXISTS (SELECT 1 FROM documents WHERE id > old.id)
      BEGIN
        UPDATE embedding_stats SET counted_through = (SELECT coalesce(max(id), 0) FROM documents)
        WHERE counted_through > (SELECT coalesce(max(id), 0) FROM documents);
      END;
    `);
  },
};
