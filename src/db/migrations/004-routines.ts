import type { Migration } from '../migration.js';

/**
 * Routines (saved searches with a cron schedule), the scheduler's persisted
 * jobs, the record of every fire (run, queued, overflowed, skipped, missed or
 * dropped: none is silent) and saved configurations.
 *
 * scheduler_jobs.routine_id has no foreign key on purpose: the job table is the
 * scheduler's own store, and the start-up sweep the spec asks for (remove every
 * job whose routine is missing or inactive) is its integrity check. Deleting a
 * routine removes its job in the same transaction.
 */
export const routines: Migration = {
  version: 4,
  name: 'routines',
  creates: ['routines', 'scheduler_jobs', 'routine_fires', 'routine_fires_by_routine', 'saved_configurations'],
  up(db) {
    db.exec(`
      CREATE TABLE routines (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        schedule_cron TEXT NOT NULL,
        parameters_json TEXT NOT NULL,
        ai_enabled INTEGER NOT NULL DEFAULT 0,
        ai_settings_json TEXT,
        email_ai_summary_enabled INTEGER NOT NULL DEFAULT 0,
        email_enabled INTEGER NOT NULL DEFAULT 0,
        intent TEXT,
        is_active INTEGER NOT NULL DEFAULT 1,
        notify_on_complete INTEGER NOT NULL DEFAULT 0,
        storage_settings_json TEXT,
        entity_json TEXT,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );

      CREATE TABLE scheduler_jobs (
        id TEXT PRIMARY KEY,
        routine_id INTEGER NOT NULL UNIQUE,
        schedule_cron TEXT NOT NULL,
        next_run_at_utc TEXT,
        misfire_grace_seconds INTEGER NOT NULL DEFAULT 3600,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );

      CREATE TABLE routine_fires (
        id INTEGER PRIMARY KEY,
        routine_id INTEGER NOT NULL REFERENCES routines (id) ON DELETE CASCADE,
        trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'coalesced', 'manual')),
        outcome TEXT NOT NULL CHECK (outcome IN ('started', 'queued', 'overflow', 'skipped', 'missed', 'dropped')),
        first_due_at_utc TEXT NOT NULL,
        due_at_utc TEXT NOT NULL,
        fire_count INTEGER NOT NULL DEFAULT 1 CHECK (fire_count >= 1),
        execution_id INTEGER,
        reason TEXT,
        owner_runtime_id TEXT,
        recorded_at_utc TEXT NOT NULL,
        started_at_utc TEXT
      );
      CREATE INDEX routine_fires_by_routine ON routine_fires (routine_id, id DESC);
      CREATE INDEX routine_fires_queued ON routine_fires (outcome) WHERE outcome = 'queued';

      CREATE TABLE saved_configurations (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        config_type TEXT NOT NULL CHECK (config_type IN ('dive', 'sweep', 'routine')),
        parameters_json TEXT NOT NULL,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );
    `);
  },
};
