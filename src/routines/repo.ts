/** SQL of routines, in one place. */
import type { Database } from 'better-sqlite3';
import { idList } from '../db/id-list.js';
import type { LastExecution, RoutineEntity, RoutineParameters, RoutineValues } from '../wire/routines.js';

export type { LastExecution, RoutineValues } from '../wire/routines.js';

export interface RoutineRow {
  id: number;
  name: string;
  schedule_cron: string;
  parameters_json: string;
  ai_enabled: number;
  ai_settings_json: string | null;
  email_ai_summary_enabled: number;
  email_enabled: number;
  intent: string | null;
  is_active: number;
  notify_on_complete: number;
  storage_settings_json: string | null;
  entity_json: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

function columns(v: RoutineValues): unknown[] {
  return [
    v.name,
    v.schedule_cron,
    JSON.stringify(v.parameters),
    v.ai_enabled ? 1 : 0,
    json(v.ai_settings),
    v.email_ai_summary_enabled ? 1 : 0,
    v.email_enabled ? 1 : 0,
    v.intent,
    v.is_active ? 1 : 0,
    v.notify_on_complete ? 1 : 0,
    json(v.storage_settings),
    json(v.entity),
  ];
}

export function valuesOf(row: RoutineRow): RoutineValues {
  return {
    name: row.name,
    schedule_cron: row.schedule_cron,
    parameters: JSON.parse(row.parameters_json) as RoutineParameters,
    ai_enabled: row.ai_enabled === 1,
    ai_settings: row.ai_settings_json ? (JSON.parse(row.ai_settings_json) as Record<string, unknown>) : null,
    email_ai_summary_enabled: row.email_ai_summary_enabled === 1,
    email_enabled: row.email_enabled === 1,
    intent: row.intent,
    is_active: row.is_active === 1,
    notify_on_complete: row.notify_on_complete === 1,
    storage_settings: row.storage_settings_json ? (JSON.parse(row.storage_settings_json) as Record<string, unknown>) : null,
    entity: row.entity_json ? (JSON.parse(row.entity_json) as RoutineEntity) : null,
  };
}

/**
 * A new routine's id is above every id a routine ever had that runs still
 * name: executions keep their routine_id when the routine is deleted, and a
 * reused id would hand the old routine's runs (last run, coverage, window
 * since the last success, a run still going) to the new one.
 */
export function insertRoutine(db: Database, values: RoutineValues, now: string): number {
  const info = db
    .prepare(
      `INSERT INTO routines (id, name, schedule_cron, parameters_json, ai_enabled, ai_settings_json, email_ai_summary_enabled, email_enabled, intent, is_active,
         notify_on_complete, storage_settings_json, entity_json, created_at_utc, updated_at_utc)
       VALUES (max(coalesce((SELECT max(id) FROM routines), 0), coalesce((SELECT max(routine_id) FROM executions), 0)) + 1,
         ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(...columns(values), now, now);
  return Number(info.lastInsertRowid);
}

export function updateRoutine(db: Database, id: number, values: RoutineValues, now: string): void {
  db.prepare(
    `UPDATE routines SET name = ?, schedule_cron = ?, parameters_json = ?, ai_enabled = ?, ai_settings_json = ?, email_ai_summary_enabled = ?, email_enabled = ?,
       intent = ?, is_active = ?, notify_on_complete = ?, storage_settings_json = ?, entity_json = ?, updated_at_utc = ? WHERE id = ?`,
  ).run(...columns(values), now, id);
}

export function setActive(db: Database, id: number, active: boolean, now: string): void {
  db.prepare('UPDATE routines SET is_active = ?, updated_at_utc = ? WHERE id = ?').run(active ? 1 : 0, now, id);
}

export function getRoutine(db: Database, id: number): RoutineRow | undefined {
  return db.prepare('SELECT * FROM routines WHERE id = ?').get(id) as RoutineRow | undefined;
}

export function listRoutines(db: Database, activeOnly: boolean): RoutineRow[] {
  return db.prepare(`SELECT * FROM routines ${activeOnly ? 'WHERE is_active = 1' : ''} ORDER BY id`).all() as RoutineRow[];
}

/** Ids of routines with exactly this name (names may repeat; ids tell them apart). */
export function routineIdsNamed(db: Database, name: string): number[] {
  return db.prepare('SELECT id FROM routines WHERE name = ? ORDER BY id').pluck().all(name) as number[];
}

export function deleteRoutine(db: Database, id: number): boolean {
  return db.prepare('DELETE FROM routines WHERE id = ?').run(id).changes > 0;
}

export function savedConfigurationExists(db: Database, id: number): boolean {
  return db.prepare('SELECT 1 FROM saved_configurations WHERE id = ?').get(id) !== undefined;
}

/** Start instant of the routine's last completed run (the since_last_success window). */
export function lastSuccessStart(db: Database, routineId: number): string | undefined {
  return db.prepare(`SELECT started_at_utc FROM executions WHERE routine_id = ? AND status = 'completed' ORDER BY started_at_utc DESC, id DESC LIMIT 1`).pluck().get(routineId) as
    | string
    | undefined;
}

/** The last run of each routine that has run (by start, the newest id first among equal starts). */
export function lastExecutionsOf(db: Database, routineIds: readonly number[]): Map<number, LastExecution> {
  const rows = db
    .prepare(
      `SELECT e.routine_id, e.id, e.status, e.started_at_utc, e.finished_at_utc, e.result_count, e.new_count
       FROM json_each(?) AS r JOIN executions e ON e.id =
         (SELECT x.id FROM executions x WHERE x.routine_id = r.value ORDER BY x.started_at_utc DESC, x.id DESC LIMIT 1)`,
    )
    .all(idList(routineIds)) as (LastExecution & { routine_id: number })[];
  return new Map(rows.map(({ routine_id, ...run }) => [routine_id, run]));
}
