import type { Migration } from '../migration.js';

/** The local lexical lane's model key (providers.ts modelKey('local', LEXICAL_MODEL)), frozen here. */
const LEXICAL_KEY = 'local/lexical-hash-v1';

/**
 * The lexical lane's statistics record the highest document id they have
 * counted (counted_through), so each document is counted once: a backfill
 * counts the documents after it before embedding, whether it was cancelled
 * before or runs for one run's documents.
 *
 * Until now those statistics were never stored: every backfill counted the
 * corpus afresh, an after-run embedding weighted a run's papers by that run
 * alone, and queries were weighted by nothing. The lane's stored vectors are
 * therefore on no common scale with each other or with the queries now
 * weighted by the stored counts. They are removed, with any statistics and
 * the index state of that model (the vec0 table itself is dropped by the next
 * `svc embed rebuild`, which needs the extension): `svc embed status` then
 * counts every paper missing and names `svc embed backfill`, which counts the
 * corpus once and embeds it again offline in seconds. Vectors of other lanes
 * (OpenAI, Ollama) do not depend on these statistics and stay.
 */
export const lexicalStats: Migration = {
  version: 25,
  name: 'lexical-stats',
  creates: [],
  up(db) {
    db.exec('ALTER TABLE embedding_stats ADD COLUMN counted_through INTEGER NOT NULL DEFAULT 0');
    db.prepare('DELETE FROM embedding_vectors WHERE model = ?').run(LEXICAL_KEY);
    db.prepare('DELETE FROM embedding_stats WHERE model = ?').run(LEXICAL_KEY);
    db.prepare('DELETE FROM embedding_index_state WHERE model = ?').run(LEXICAL_KEY);
  },
};
