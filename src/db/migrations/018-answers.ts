import type { Migration } from '../migration.js';

/**
 * Selected-evidence answers (spec 2, schema 18): one answer table and one
 * index in project order. The request is stored as its canonical JSON and
 * never changes; (project_row, preview_id) makes a repeated consent find the
 * answer it already admitted. Private columns (owner runtime, route digest,
 * native session id) never leave the service.
 */
export const answers: Migration = {
  version: 18,
  name: 'answers',
  creates: ['evidence_answers', 'evidence_answers_order'],
  up(db) {
    db.exec(`
      CREATE TABLE evidence_answers (
        id INTEGER PRIMARY KEY,
        answer_id TEXT NOT NULL UNIQUE,
        project_row INTEGER NOT NULL REFERENCES evidence_projects (id),
        preview_id TEXT NOT NULL,
        request_sha256 TEXT NOT NULL,
        request_json TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('admitted', 'running', 'succeeded', 'refused', 'failed', 'cancelled', 'interrupted')),
        owner_runtime_id TEXT NOT NULL,
        route_digest TEXT NOT NULL,
        native_session_id TEXT,
        partial_text TEXT NOT NULL DEFAULT '',
        output_json TEXT,
        usage_json TEXT,
        model_json TEXT,
        error_reason TEXT,
        error_message TEXT,
        completion TEXT NOT NULL DEFAULT 'pending' CHECK (completion IN ('pending', 'completed', 'unknown')),
        cleanup TEXT NOT NULL DEFAULT 'pending' CHECK (cleanup IN ('pending', 'confirmed', 'unknown')),
        created_at_utc TEXT NOT NULL,
        started_at_utc TEXT,
        finished_at_utc TEXT,
        updated_at_utc TEXT NOT NULL,
        UNIQUE (project_row, preview_id)
      );
      CREATE INDEX evidence_answers_order ON evidence_answers (project_row, id);
    `);
  },
};
