import type { Migration } from '../migration.js';

/**
 * A cancel asked of a turn that another process runs (the desktop's cancel
 * route while `svc chat N` runs the turn, or the other way round): the asking
 * process stamps the owner's claim, and the owner, which looks at its claims
 * while a turn runs, stops that turn as a local cancel does. A new claim
 * starts without a request (the row is replaced whole).
 */
export const assistantTurnCancel: Migration = {
  version: 27,
  name: 'assistant-turn-cancel',
  creates: [],
  up(db) {
    db.exec('ALTER TABLE assistant_turn_claims ADD COLUMN cancel_requested_at_utc TEXT');
  },
};
