import type { Migration } from '../migration.js';

/**
 * Which process runs a long job of the data directory now (the link scan,
 * the embedding backfill), across the server, the daemon and command-line
 * processes: one row per job, taken in a write transaction, with the owner's
 * pid, runtime id and role, so that a second start anywhere is refused naming
 * the owner and a claim left by a process that died (or by one from before
 * the last boot) is taken over. `cancel_requested` is how a cancel from
 * another process reaches the job: it reads the flag between batches.
 */
export const jobClaims: Migration = {
  version: 26,
  name: 'job-claims',
  creates: ['job_claims'],
  up(db) {
    db.exec(`
      CREATE TABLE job_claims (
        job TEXT PRIMARY KEY,
        pid INTEGER NOT NULL,
        runtime_id TEXT NOT NULL,
        role TEXT NOT NULL,
        detail TEXT,
        run_id INTEGER,
        claimed_at_ms INTEGER NOT NULL,
        claimed_at_utc TEXT NOT NULL,
        cancel_requested INTEGER NOT NULL DEFAULT 0
      );
    `);
  },
};
