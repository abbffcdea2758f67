import type { Migration } from '../migration.js';

/**
 * Indexes for what a routine's read and the window's Review ask of a routine
 * that has run for a long time (a schedule every 30 minutes makes 10,000
 * runs in seven months): its last run by start, and its deliveries in one
 * state (what awaits review, what failed) newest first. Before, both read
 * every run or delivery of the routine: the last run sorted them all, and a
 * state was checked row by row.
 */
export const routineReadIndexes: Migration = {
  version: 37,
  name: 'routine-read-indexes',
  creates: ['executions_by_routine_start', 'deliveries_by_routine_state'],
  up(db) {
    db.exec(`
      CREATE INDEX executions_by_routine_start ON executions (routine_id, started_at_utc DESC, id DESC) WHERE routine_id IS NOT NULL;
      CREATE INDEX deliveries_by_routine_state ON deliveries (routine_id, state, id DESC);
    `);
  },
};
