import type { Migration } from '../migration.js';

/**
 * The rows that name the process owning them — a running execution, a
 * delivery being sent, a running embedding run or link scan — record who
 * that process is beyond its pid (claims/rows.ts): the boot's id and the
 * process's start time, where the system says (Linux). A pid now run by
 * another process is then told from the owner. Rows from before have neither
 * and are judged by the pid alone, as they were.
 */
export const ownerIdentity: Migration = {
  version: 36,
  name: 'owner-identity',
  creates: [],
  up(db) {
    for (const table of ['executions', 'deliveries', 'embedding_runs', 'link_scans']) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN owner_boot_id TEXT; ALTER TABLE ${table} ADD COLUMN owner_pid_start INTEGER;`);
    }
  },
};
