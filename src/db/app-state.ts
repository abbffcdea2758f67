import type { Database } from 'better-sqlite3';

/** Small named facts about the installation, stored as JSON. */
export function readAppState<T>(db: Database, key: string): T | undefined {
  const row = db.prepare('SELECT value_json FROM app_state WHERE key = ?').get(key) as { value_json: string } | undefined;
  return row ? (JSON.parse(row.value_json) as T) : undefined;
}

export function writeAppState(db: Database, key: string, value: unknown, now: string): void {
  db.prepare(
    `INSERT INTO app_state (key, value_json, updated_at_utc) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at_utc = excluded.updated_at_utc`,
  ).run(key, JSON.stringify(value), now);
}
