import type { Migration } from '../migration.js';

/**
 * Executions (dives, sweeps, routine runs), their per-source accounts, the
 * documents each found (provenance per execution) and their event log, which
 * is also the progress stream. `interrupted` is a status of its own: an owner
 * that went away is not a failed search.
 */
export const executions: Migration = {
  version: 3,
  name: 'executions',
  creates: ['executions', 'execution_sources', 'execution_documents', 'execution_events', 'executions_by_started', 'execution_documents_by_document'],
  up(db) {
    db.exec(`
      CREATE TABLE executions (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL CHECK (type IN ('dive', 'sweep', 'routine')),
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled', 'interrupted')),
        interrupted_reason TEXT CHECK (interrupted_reason IN ('owner_dead', 'daemon_restart', 'unknown')),
        request_id TEXT,
        routine_id INTEGER,
        saved_configuration_id INTEGER,
        query TEXT NOT NULL,
        repositories_json TEXT NOT NULL,
        parameters_json TEXT NOT NULL,
        ai_enabled INTEGER NOT NULL DEFAULT 0,
        ai_lane_json TEXT,
        restarted_from INTEGER REFERENCES executions (id) ON DELETE SET NULL,
        owner_pid INTEGER,
        owner_runtime_id TEXT,
        owner_role TEXT,
        last_seen_at_utc TEXT,
        cancel_requested_at_utc TEXT,
        started_at_utc TEXT NOT NULL,
        finished_at_utc TEXT,
        result_count INTEGER NOT NULL DEFAULT 0,
        new_count INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        report_path TEXT
      );
      CREATE INDEX executions_by_started ON executions (started_at_utc DESC, id DESC);
      CREATE INDEX executions_running ON executions (status) WHERE status = 'running';
      CREATE INDEX executions_by_request ON executions (request_id) WHERE request_id IS NOT NULL;
      CREATE INDEX executions_by_routine ON executions (routine_id, id DESC) WHERE routine_id IS NOT NULL;
      CREATE INDEX executions_by_restart ON executions (restarted_from) WHERE restarted_from IS NOT NULL;

      CREATE TABLE execution_sources (
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        position INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'answered', 'not_answered', 'cancelled', 'interrupted')),
        record_count INTEGER NOT NULL DEFAULT 0,
        new_count INTEGER NOT NULL DEFAULT 0,
        zero_reason TEXT,
        message TEXT,
        pages INTEGER NOT NULL DEFAULT 0,
        outcome_json TEXT,
        started_at_utc TEXT,
        finished_at_utc TEXT,
        ms INTEGER,
        PRIMARY KEY (execution_id, source)
      ) WITHOUT ROWID;

      CREATE TABLE execution_documents (
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        rank INTEGER NOT NULL,
        is_new INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (execution_id, document_id, source)
      ) WITHOUT ROWID;
      CREATE INDEX execution_documents_by_document ON execution_documents (document_id);

      CREATE TABLE execution_events (
        execution_id INTEGER NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        at_utc TEXT NOT NULL,
        kind TEXT NOT NULL,
        level TEXT NOT NULL DEFAULT 'info',
        source TEXT,
        message TEXT NOT NULL,
        data_json TEXT,
        PRIMARY KEY (execution_id, seq)
      ) WITHOUT ROWID;
    `);
  },
};
