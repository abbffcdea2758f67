/** SQL of the watchdog: mutes, and the recent outcomes of each source. */
import type { Database } from 'better-sqlite3';

export interface MuteRow {
  finding_key: string;
  note: string | null;
  muted_at_utc: string;
}

export function listMutes(db: Database): MuteRow[] {
  return db.prepare('SELECT * FROM watchdog_mutes').all() as MuteRow[];
}

export function getMute(db: Database, key: string): MuteRow | undefined {
  return db.prepare('SELECT * FROM watchdog_mutes WHERE finding_key = ?').get(key) as MuteRow | undefined;
}

export function insertMute(db: Database, key: string, note: string | null, now: string): void {
  db.prepare('INSERT INTO watchdog_mutes (finding_key, note, muted_at_utc) VALUES (?, ?, ?) ON CONFLICT (finding_key) DO NOTHING').run(key, note, now);
}

export function deleteMute(db: Database, key: string): boolean {
  return db.prepare('DELETE FROM watchdog_mutes WHERE finding_key = ?').run(key).changes > 0;
}

export interface SourceOutcomeRow {
  execution_id: number;
  source: string;
  status: string;
  zero_reason: string | null;
  message: string | null;
  outcome_json: string | null;
  started_at_utc: string;
}

/** Settled outcomes of every source, newest run first, at most `perSource` each. */
export function recentSourceOutcomes(db: Database, perSource: number): SourceOutcomeRow[] {
  return db
    .prepare(
      `SELECT * FROM (
         SELECT es.execution_id, es.source, es.status, es.zero_reason, es.message, es.outcome_json, e.started_at_utc,
           row_number() OVER (PARTITION BY es.source ORDER BY e.started_at_utc DESC, e.id DESC) AS n
         FROM execution_sources es JOIN executions e ON e.id = es.execution_id
         WHERE es.status IN ('answered', 'not_answered'))
       WHERE n <= ? ORDER BY source, n`,
    )
    .all(perSource) as SourceOutcomeRow[];
}

/** Every source row of these runs: whether a run failed as a whole, and how. */
export function runSourceRows(db: Database, executionIds: number[]): Pick<SourceOutcomeRow, 'execution_id' | 'status' | 'outcome_json'>[] {
  if (executionIds.length === 0) return [];
  return db
    .prepare('SELECT execution_id, status, outcome_json FROM execution_sources WHERE execution_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(executionIds)) as Pick<SourceOutcomeRow, 'execution_id' | 'status' | 'outcome_json'>[];
}

/** The zero reasons of a routine's last settled run, per source. */
export function lastRunReasons(db: Database, routineId: number): { execution_id: number; source: string; zero_reason: string | null; started_at_utc: string }[] {
  return db
    .prepare(
      `SELECT es.execution_id, es.source, es.zero_reason, e.started_at_utc FROM execution_sources es JOIN executions e ON e.id = es.execution_id
       WHERE e.id = (SELECT id FROM executions WHERE routine_id = ? AND status != 'running' ORDER BY started_at_utc DESC, id DESC LIMIT 1)`,
    )
    .all(routineId) as { execution_id: number; source: string; zero_reason: string | null; started_at_utc: string }[];
}
