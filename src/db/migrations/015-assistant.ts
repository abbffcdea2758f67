import type { Migration } from '../migration.js';

/**
 * The assistant (spec 3, schema 15): conversations and their messages, the
 * binding of a conversation to a connection (session choices), the requested
 * choices of each turn, and the models responses claimed (model reports).
 *
 * A session without a choices row is a legacy conversation (made before
 * bindings existed, or restored from such a database); its first send must
 * adopt a binding. `route_digest` is a private digest of the configured
 * locator at binding time (never exported). `assistant_message_id` has no
 * foreign key to the session on purpose: a reply link pointing into another
 * session is reported as unreadable rather than made impossible to restore.
 */
export const assistant: Migration = {
  version: 15,
  name: 'assistant',
  creates: ['assistant_sessions', 'assistant_messages', 'assistant_messages_by_session', 'assistant_session_choices', 'assistant_turn_choices', 'assistant_model_reports'],
  up(db) {
    db.exec(`
      CREATE TABLE assistant_sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT,
        runtime TEXT,
        model TEXT,
        native_session_id TEXT,
        created_at_utc TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      );

      CREATE TABLE assistant_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES assistant_sessions (id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        content TEXT NOT NULL,
        created_at_utc TEXT NOT NULL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cost_usd REAL,
        tool_calls_json TEXT,
        tool_results_json TEXT
      );
      CREATE INDEX assistant_messages_by_session ON assistant_messages (session_id, id);

      CREATE TABLE assistant_session_choices (
        session_id INTEGER PRIMARY KEY REFERENCES assistant_sessions (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        runtime TEXT NOT NULL,
        provider TEXT NOT NULL,
        requested_model TEXT,
        requested_effort TEXT,
        model_basis TEXT NOT NULL,
        effort_basis TEXT NOT NULL,
        binding_basis TEXT NOT NULL,
        route_digest TEXT NOT NULL,
        created_at_utc TEXT NOT NULL
      );

      CREATE TABLE assistant_turn_choices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES assistant_sessions (id) ON DELETE CASCADE,
        user_message_id INTEGER NOT NULL UNIQUE REFERENCES assistant_messages (id) ON DELETE CASCADE,
        assistant_message_id INTEGER,
        version INTEGER NOT NULL,
        runtime TEXT NOT NULL,
        provider TEXT NOT NULL,
        requested_model TEXT,
        requested_effort TEXT,
        created_at_utc TEXT NOT NULL
      );

      CREATE TABLE assistant_model_reports (
        turn_id INTEGER NOT NULL REFERENCES assistant_turn_choices (id) ON DELETE CASCADE,
        sequence INTEGER NOT NULL,
        model TEXT NOT NULL,
        source TEXT NOT NULL,
        observed_at_utc TEXT NOT NULL,
        PRIMARY KEY (turn_id, sequence)
      ) WITHOUT ROWID;
    `);
  },
};
