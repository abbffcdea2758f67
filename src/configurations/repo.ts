/** SQL of saved configurations. */
import type { Database } from 'better-sqlite3';
import type { ConfigType } from './schema.js';

export interface ConfigRow {
  id: number;
  name: string;
  config_type: ConfigType;
  parameters_json: string;
  created_at_utc: string;
  updated_at_utc: string;
}

export function insertConfig(db: Database, name: string, type: ConfigType, parameters: Record<string, unknown>, now: string): number {
  const info = db
    .prepare('INSERT INTO saved_configurations (name, config_type, parameters_json, created_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, ?)')
    .run(name, type, JSON.stringify(parameters), now, now);
  return Number(info.lastInsertRowid);
}

export function getConfig(db: Database, id: number): ConfigRow | undefined {
  return db.prepare('SELECT * FROM saved_configurations WHERE id = ?').get(id) as ConfigRow | undefined;
}

export function listConfigs(db: Database, type?: ConfigType): ConfigRow[] {
  return (type
    ? db.prepare('SELECT * FROM saved_configurations WHERE config_type = ? ORDER BY id').all(type)
    : db.prepare('SELECT * FROM saved_configurations ORDER BY id').all()) as ConfigRow[];
}

export function updateConfig(db: Database, id: number, name: string, parameters: Record<string, unknown>, now: string): void {
  db.prepare('UPDATE saved_configurations SET name = ?, parameters_json = ?, updated_at_utc = ? WHERE id = ?').run(name, JSON.stringify(parameters), now, id);
}

/** Delete; executions that named it stop naming it (a dangling id would mislead). */
export function deleteConfig(db: Database, id: number): number {
  return db.transaction(() => {
    const unlinked = db.prepare('UPDATE executions SET saved_configuration_id = NULL WHERE saved_configuration_id = ?').run(id).changes;
    db.prepare('DELETE FROM saved_configurations WHERE id = ?').run(id);
    return unlinked;
  })();
}

export function executionExists(db: Database, id: number): boolean {
  return db.prepare('SELECT 1 FROM executions WHERE id = ?').get(id) !== undefined;
}

export function linkExecution(db: Database, executionId: number, configId: number): void {
  db.prepare('UPDATE executions SET saved_configuration_id = ? WHERE id = ?').run(configId, executionId);
}

export function executionsUsing(db: Database, id: number): number {
  return db.prepare('SELECT count(*) FROM executions WHERE saved_configuration_id = ?').pluck().get(id) as number;
}
