import type { Migration } from '../migration.js';

/**
 * Embedding runs and link scans record their owner's process id beside its
 * runtime id, so a run left "running" by a process that was killed can be
 * told from one still going in another svc process (a CLI backfill while a
 * server starts) and marked interrupted, as executions are. Rows from before
 * have no pid: their owner is unknown and, not being this process, gone.
 */
export const similarityOwners: Migration = {
  version: 19,
  name: 'similarity-owners',
  creates: [],
  up(db) {
    db.exec(`
      ALTER TABLE embedding_runs ADD COLUMN owner_pid INTEGER;
      ALTER TABLE link_scans ADD COLUMN owner_pid INTEGER;
    `);
  },
};
