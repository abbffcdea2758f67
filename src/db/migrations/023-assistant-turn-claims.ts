import type { Migration } from '../migration.js';

/**
 * Who runs a conversation's turn now, across processes on one data directory
 * (`svc chat N` in a terminal and the desktop through the server): one row per
 * claimed conversation, taken in a write transaction, with the owner's pid
 * and runtime id so that a claim left by a process that died can be taken
 * over. `claimed_at_ms` is wall-clock time, compared with the machine's boot
 * time: a claim written before this boot is stale even if its pid runs again.
 */
export const assistantTurnClaims: Migration = {
  version: 23,
  name: 'assistant-turn-claims',
  creates: ['assistant_turn_claims'],
  up(db) {
    db.exec(`
      CREATE TABLE assistant_turn_claims (
        session_id INTEGER PRIMARY KEY REFERENCES assistant_sessions (id) ON DELETE CASCADE,
        pid INTEGER NOT NULL,
        runtime_id TEXT NOT NULL,
        claimed_at_ms INTEGER NOT NULL
      );
    `);
  },
};
