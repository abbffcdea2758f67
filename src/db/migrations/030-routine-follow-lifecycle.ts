import type { Migration } from '../migration.js';

/**
 * A routine that follows a watch profile in mode "retractions" checks the
 * person's papers at each fire (lifecycle/follow.ts):
 * routine_follow_checks is one row per such fire (how many papers were
 * checked, how many could not be, and why), and routine_follow_events the
 * lifecycle events each routine has reported, with the fire that reported
 * them first, so an event is news once per routine whichever check (a fire
 * or `svc lifecycle check`) recorded it.
 */
export const routineFollowLifecycle: Migration = {
  version: 30,
  name: 'routine-follow-lifecycle',
  creates: ['routine_follow_checks', 'routine_follow_events', 'routine_follow_events_by_execution'],
  up(db) {
    db.exec(`
      CREATE TABLE routine_follow_checks (
        execution_id INTEGER PRIMARY KEY REFERENCES executions (id) ON DELETE CASCADE,
        routine_id INTEGER,
        profile_id INTEGER NOT NULL,
        profile_name TEXT NOT NULL,
        papers INTEGER NOT NULL DEFAULT 0,
        checked INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        lookup_errors_json TEXT NOT NULL DEFAULT '[]',
        error TEXT,
        started_at_utc TEXT NOT NULL,
        finished_at_utc TEXT
      );
      CREATE TABLE routine_follow_events (
        routine_id INTEGER NOT NULL REFERENCES routines (id) ON DELETE CASCADE,
        event_id INTEGER NOT NULL REFERENCES lifecycle_events (id) ON DELETE CASCADE,
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        PRIMARY KEY (routine_id, event_id)
      ) WITHOUT ROWID;
      CREATE INDEX routine_follow_events_by_execution ON routine_follow_events (execution_id);
    `);
  },
};
