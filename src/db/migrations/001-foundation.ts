import type { Migration } from '../migration.js';

/** Settings groups and small facts about the installation (onboarding card). */
export const foundation: Migration = {
  version: 1,
  name: 'foundation',
  creates: ['settings', 'app_state'],
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        group_name TEXT NOT NULL,
        key TEXT NOT NULL,
        value_json TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL,
        PRIMARY KEY (group_name, key)
      ) WITHOUT ROWID;
      CREATE TABLE app_state (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at_utc TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
