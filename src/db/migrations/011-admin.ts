import type { Migration } from '../migration.js';

/**
 * Administration (schema 11): the record of every backup bundle written (local
 * or uploaded to the cloud) and of every restore applied at a start. These
 * rows describe the installation's own history, so no erase scope removes
 * them and the round-trip comparison of a restore leaves them out.
 */
export const admin: Migration = {
  version: 11,
  name: 'admin',
  creates: ['admin_backups', 'admin_restores'],
  up(db) {
    db.exec(`
      CREATE TABLE admin_backups (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('local', 'cloud')),
        path TEXT NOT NULL,
        created_at_utc TEXT NOT NULL,
        byte_size INTEGER NOT NULL,
        manifest_sha256 TEXT NOT NULL,
        include_reports INTEGER NOT NULL,
        file_count INTEGER NOT NULL,
        schema_version INTEGER NOT NULL,
        remote_path TEXT
      );
      CREATE TABLE admin_restores (
        id INTEGER PRIMARY KEY,
        bundle_path TEXT NOT NULL,
        bundle_created_at_utc TEXT NOT NULL,
        staged_at_utc TEXT NOT NULL,
        applied_at_utc TEXT NOT NULL,
        undo_path TEXT,
        vault_path TEXT,
        not_restored_json TEXT NOT NULL,
        acknowledged_at_utc TEXT
      );
    `);
  },
};
