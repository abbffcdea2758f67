import type { Migration } from '../migration.js';

/**
 * Delivery destinations of a routine, one delivery per destination and
 * completed routine run, and the record of every attempt (an attempt cut short
 * by a crash is recorded as interrupted, so nothing is sent twice without a
 * trace). A webhook destination's secret lives in its row and never leaves the
 * service layer except to sign.
 */
export const deliveries: Migration = {
  version: 5,
  name: 'deliveries',
  creates: ['delivery_targets', 'deliveries', 'delivery_attempts', 'delivery_targets_by_routine', 'deliveries_by_routine', 'deliveries_by_execution', 'deliveries_due', 'deliveries_one_per_target'],
  up(db) {
    db.exec(`
      CREATE TABLE delivery_targets (
        id INTEGER PRIMARY KEY,
        routine_id INTEGER NOT NULL REFERENCES routines (id) ON DELETE CASCADE,
        channel TEXT NOT NULL CHECK (channel IN ('email', 'folder', 'webhook', 'feed')),
        enabled INTEGER NOT NULL DEFAULT 1,
        mode TEXT NOT NULL DEFAULT 'automatic' CHECK (mode IN ('automatic', 'review')),
        target TEXT NOT NULL DEFAULT '',
        secret TEXT,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );
      CREATE INDEX delivery_targets_by_routine ON delivery_targets (routine_id, id);

      CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY,
        routine_id INTEGER REFERENCES routines (id) ON DELETE SET NULL,
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        target_id INTEGER REFERENCES delivery_targets (id) ON DELETE SET NULL,
        origin TEXT NOT NULL DEFAULT 'target' CHECK (origin IN ('target', 'routine_email')),
        channel TEXT NOT NULL CHECK (channel IN ('email', 'folder', 'webhook', 'feed')),
        mode TEXT NOT NULL CHECK (mode IN ('automatic', 'review')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'awaiting_review', 'delivering', 'delivered', 'failed', 'skipped')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        next_attempt_at_utc TEXT,
        owner_runtime_id TEXT,
        owner_pid INTEGER,
        claimed_at_utc TEXT,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL,
        delivered_at_utc TEXT
      );
      CREATE INDEX deliveries_by_routine ON deliveries (routine_id, id DESC);
      CREATE INDEX deliveries_by_execution ON deliveries (execution_id, id);
      CREATE INDEX deliveries_due ON deliveries (state, next_attempt_at_utc) WHERE state IN ('queued', 'delivering');
      CREATE UNIQUE INDEX deliveries_one_per_target ON deliveries (execution_id, target_id) WHERE target_id IS NOT NULL;

      CREATE TABLE delivery_attempts (
        delivery_id INTEGER NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        started_at_utc TEXT NOT NULL,
        finished_at_utc TEXT,
        outcome TEXT CHECK (outcome IN ('delivered', 'failed', 'interrupted')),
        error TEXT,
        owner_runtime_id TEXT,
        PRIMARY KEY (delivery_id, seq)
      ) WITHOUT ROWID;
    `);
  },
};
