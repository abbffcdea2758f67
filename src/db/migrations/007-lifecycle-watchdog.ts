import type { Migration } from '../migration.js';

/**
 * Lifecycle checks and the watchdog's mutes.
 *
 * lifecycle_events: what the outside world says happened to a paper after it
 * was collected (retraction, preprint to published, version change), each with
 * the notice link and the source that said so; one row per distinct notice.
 * lifecycle_checks: when each paper was last asked about (the "least recently
 * checked" order of a bounded check, and corpus coverage). lifecycle_runs: one
 * row per bounded check, so a stop request can come from another process and a
 * run whose owner went away is seen as such.
 * watchdog_mutes: findings acknowledged by key, left out of the alarm total.
 */
export const lifecycleWatchdog: Migration = {
  version: 7,
  name: 'lifecycle-watchdog',
  creates: ['lifecycle_events', 'lifecycle_events_by_document', 'lifecycle_checks', 'lifecycle_checks_by_checked', 'lifecycle_runs', 'watchdog_mutes'],
  up(db) {
    db.exec(`
      CREATE TABLE lifecycle_events (
        id INTEGER PRIMARY KEY,
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('retraction', 'preprint_to_published', 'version_change')),
        source TEXT NOT NULL,
        notice_url TEXT NOT NULL,
        notice_doi TEXT,
        label TEXT,
        detail_json TEXT NOT NULL DEFAULT '{}',
        event_date TEXT,
        detected_at_utc TEXT NOT NULL,
        run_id INTEGER,
        UNIQUE (document_id, kind, notice_url)
      );
      CREATE INDEX lifecycle_events_by_document ON lifecycle_events (document_id);

      CREATE TABLE lifecycle_checks (
        document_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
        checked_at_utc TEXT,
        attempted_at_utc TEXT NOT NULL,
        attempt_run_id INTEGER,
        outcome TEXT NOT NULL CHECK (outcome IN ('checked', 'partial', 'failed', 'nothing_to_ask')),
        asked_json TEXT NOT NULL DEFAULT '[]',
        error TEXT
      );
      CREATE INDEX lifecycle_checks_by_checked ON lifecycle_checks (checked_at_utc, document_id);

      CREATE TABLE lifecycle_runs (
        id INTEGER PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'stopped', 'failed', 'interrupted')),
        limit_n INTEGER NOT NULL,
        run_until_done INTEGER NOT NULL DEFAULT 0,
        checked_count INTEGER NOT NULL DEFAULT 0,
        failed_count INTEGER NOT NULL DEFAULT 0,
        event_count INTEGER NOT NULL DEFAULT 0,
        slices INTEGER NOT NULL DEFAULT 0,
        owner_runtime_id TEXT,
        last_seen_at_utc TEXT,
        stop_requested_at_utc TEXT,
        started_at_utc TEXT NOT NULL,
        finished_at_utc TEXT,
        error TEXT
      );

      CREATE TABLE watchdog_mutes (
        finding_key TEXT PRIMARY KEY,
        note TEXT,
        muted_at_utc TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
