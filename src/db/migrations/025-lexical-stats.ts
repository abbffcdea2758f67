import type { Migration } from '../migration.js';

/**
 * The lexical lane's statistics record the highest document id they have
 * counted (counted_through), so each document is counted once: a backfill
 * counts the documents after it before embedding, whether it was cancelled
 * before or runs for one run's documents.
 */
export const lexicalStats: Migration = {
  version: 25,
  name: 'lexical-stats',
  creates: [],
  up(db) {
    db.exec('ALTER TABLE embedding_stats ADD COLUMN counted_through INTEGER NOT NULL DEFAULT 0');
  },
};
