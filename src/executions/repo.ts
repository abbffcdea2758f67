/**
 * SQL of executions, in one place. Services call these; routes and commands
 * never see SQL.
 */
import { IN_ID_LIST, idList } from '../db/id-list.js';
import type { Database } from 'better-sqlite3';
import type { RunSpec } from './request.js';
import { RUN_INTERRUPTED_REASON } from './ai-lane.js';
import type { Owner as ClaimOwner } from '../claims/owner.js';
import type { InterruptedReason, RunStatus as ExecutionStatus, SourceStatus, ZeroReason } from '../wire/executions.js';

export type { InterruptedReason, RunStatus as ExecutionStatus } from '../wire/executions.js';

export interface ExecutionRow {
  id: number;
  type: RunSpec['type'];
  status: ExecutionStatus;
  interrupted_reason: InterruptedReason | null;
  request_id: string | null;
  routine_id: number | null;
  saved_configuration_id: number | null;
  query: string;
  repositories_json: string;
  parameters_json: string;
  ai_enabled: number;
  ai_lane_json: string | null;
  restarted_from: number | null;
  owner_pid: number | null;
  owner_boot_id: string | null;
  owner_pid_start: number | null;
  owner_runtime_id: string | null;
  owner_role: string | null;
  last_seen_at_utc: string | null;
  cancel_requested_at_utc: string | null;
  started_at_utc: string;
  finished_at_utc: string | null;
  result_count: number;
  new_count: number;
  error: string | null;
  report_path: string | null;
}

export interface SourceRow {
  execution_id: number;
  source: string;
  position: number;
  status: SourceStatus;
  record_count: number;
  new_count: number;
  zero_reason: ZeroReason | null;
  message: string | null;
  pages: number;
  outcome_json: string | null;
  started_at_utc: string | null;
  finished_at_utc: string | null;
  ms: number | null;
}

/** The process that owns a run: its runtime id, role, pid and who it is where the system says (claims/owner.ts). */
export interface Owner extends ClaimOwner {
  runtimeId: string;
  role: string;
}

export function insertExecution(db: Database, spec: RunSpec, owner: Owner, now: string, restartedFrom: number | null, aiLane: unknown): number {
  return db.transaction(() => {
    const info = db
      .prepare(
        `INSERT INTO executions (type, status, request_id, routine_id, saved_configuration_id, query, repositories_json, parameters_json, ai_enabled, ai_lane_json,
           restarted_from, owner_pid, owner_boot_id, owner_pid_start, owner_runtime_id, owner_role, last_seen_at_utc, started_at_utc)
         VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        spec.type,
        spec.requestId,
        spec.routineId,
        spec.savedConfigurationId,
        spec.query,
        JSON.stringify(spec.repositories),
        JSON.stringify(spec),
        spec.aiEnabled ? 1 : 0,
        JSON.stringify(aiLane),
        restartedFrom,
        owner.pid,
        owner.boot_id ?? null,
        owner.pid_start ?? null,
        owner.runtimeId,
        owner.role,
        now,
        now,
      );
    const id = Number(info.lastInsertRowid);
    const addSource = db.prepare(`INSERT INTO execution_sources (execution_id, source, position, status) VALUES (?, ?, ?, 'pending')`);
    spec.repositories.forEach((source, i) => addSource.run(id, source, i));
    return id;
  })();
}

export function getExecution(db: Database, id: number): ExecutionRow | undefined {
  return db.prepare('SELECT * FROM executions WHERE id = ?').get(id) as ExecutionRow | undefined;
}

/** Executions started in [fromUtc, toUtc), oldest first (the calendar's past events). */
export function executionsStartedBetween(db: Database, fromUtc: string, toUtc: string): ExecutionRow[] {
  return db.prepare('SELECT * FROM executions WHERE started_at_utc >= ? AND started_at_utc < ? ORDER BY started_at_utc').all(fromUtc, toUtc) as ExecutionRow[];
}

export function getSources(db: Database, id: number): SourceRow[] {
  return db.prepare('SELECT * FROM execution_sources WHERE execution_id = ? ORDER BY position').all(id) as SourceRow[];
}

export function restartedInto(db: Database, id: number): number[] {
  return db.prepare('SELECT id FROM executions WHERE restarted_from = ? ORDER BY id').pluck().all(id) as number[];
}

export function savedConfigurationExists(db: Database, id: number): boolean {
  return db.prepare('SELECT 1 FROM saved_configurations WHERE id = ?').get(id) !== undefined;
}

export function runningWithRequestId(db: Database, requestId: string): number | undefined {
  return db.prepare(`SELECT id FROM executions WHERE request_id = ? AND status = 'running' ORDER BY id DESC LIMIT 1`).pluck().get(requestId) as number | undefined;
}

/** The routine's run that is going now (its owner seen since `seenSince`), if any. */
export function runningExecutionOf(db: Database, routineId: number, seenSince: string): number | undefined {
  return runningExecutionsOf(db, [routineId], seenSince).get(routineId);
}

/** The newest running execution of each routine that has one whose owner was seen since `seenSince`. */
export function runningExecutionsOf(db: Database, routineIds: readonly number[], seenSince: string): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT routine_id, max(id) AS id FROM executions WHERE routine_id IN (${IN_ID_LIST}) AND status = 'running' AND last_seen_at_utc >= ? GROUP BY routine_id`,
    )
    .all(idList(routineIds), seenSince) as { routine_id: number; id: number }[];
  return new Map(rows.map((r) => [r.routine_id, r.id]));
}

/** Running executions whose owner was seen recently: they hold admission slots. */
export function countLiveRunning(db: Database, seenSince: string): number {
  return db.prepare(`SELECT count(*) FROM executions WHERE status = 'running' AND last_seen_at_utc >= ?`).pluck().get(seenSince) as number;
}

export function markSourceRunning(db: Database, id: number, source: string, now: string): void {
  db.prepare(`UPDATE execution_sources SET status = 'running', started_at_utc = ? WHERE execution_id = ? AND source = ?`).run(now, id, source);
}

export function finishSource(
  db: Database,
  id: number,
  source: string,
  fields: { status: SourceRow['status']; recordCount: number; newCount: number; zeroReason: string | null; message: string | null; pages: number; outcome: unknown; startedAt: string; finishedAt: string; ms: number },
): void {
  db.prepare(
    `UPDATE execution_sources SET status = ?, record_count = ?, new_count = ?, zero_reason = ?, message = ?, pages = ?, outcome_json = ?,
       started_at_utc = ?, finished_at_utc = ?, ms = ? WHERE execution_id = ? AND source = ?`,
  ).run(fields.status, fields.recordCount, fields.newCount, fields.zeroReason, fields.message, fields.pages, JSON.stringify(fields.outcome), fields.startedAt, fields.finishedAt, fields.ms, id, source);
}

export function linkDocuments(db: Database, id: number, source: string, links: { documentId: number; rank: number; isNew: boolean }[]): void {
  const insert = db.prepare(`INSERT OR IGNORE INTO execution_documents (execution_id, document_id, source, rank, is_new) VALUES (?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (const link of links) insert.run(id, link.documentId, source, link.rank, link.isNew ? 1 : 0);
  })();
}

/** Refresh result counts from the links (distinct documents; new = first found by this run). */
export function refreshCounts(db: Database, id: number): { resultCount: number; newCount: number } {
  const row = db
    .prepare(
      `SELECT count(*) AS total, coalesce(sum(is_new), 0) AS fresh FROM (
         SELECT document_id, max(is_new) AS is_new FROM execution_documents WHERE execution_id = ? GROUP BY document_id)`,
    )
    .get(id) as { total: number; fresh: number };
  db.prepare('UPDATE executions SET result_count = ?, new_count = ? WHERE id = ?').run(row.total, row.fresh, id);
  return { resultCount: row.total, newCount: row.fresh };
}

/** Settle a running execution; false when something else (an interruption) settled it first. */
export function finishExecution(db: Database, id: number, status: ExecutionStatus, now: string, error: string | null): boolean {
  return db.prepare(`UPDATE executions SET status = ?, finished_at_utc = ?, error = ?, last_seen_at_utc = ? WHERE id = ? AND status = 'running'`).run(status, now, error, now, id).changes > 0;
}

export function setReportPath(db: Database, id: number, file: string): void {
  db.prepare('UPDATE executions SET report_path = ? WHERE id = ?').run(file, id);
}

export function heartbeat(db: Database, ids: number[], now: string): void {
  if (ids.length === 0) return;
  db.prepare(`UPDATE executions SET last_seen_at_utc = ? WHERE status = 'running' AND id IN (${ids.map(() => '?').join(',')})`).run(now, ...ids);
}

/** Of these ids, the ones someone asked to cancel (possibly from another process). */
export function cancelRequested(db: Database, ids: number[]): number[] {
  if (ids.length === 0) return [];
  return db.prepare(`SELECT id FROM executions WHERE cancel_requested_at_utc IS NOT NULL AND id IN (${ids.map(() => '?').join(',')})`).pluck().all(...ids) as number[];
}

export function requestCancel(db: Database, id: number, now: string): boolean {
  return db.prepare(`UPDATE executions SET cancel_requested_at_utc = coalesce(cancel_requested_at_utc, ?) WHERE id = ? AND status = 'running'`).run(now, id).changes > 0;
}

export function deleteExecution(db: Database, id: number): boolean {
  return db.prepare(`DELETE FROM executions WHERE id = ? AND status != 'running'`).run(id).changes > 0;
}

export function runningExecutions(db: Database): ExecutionRow[] {
  return db.prepare(`SELECT * FROM executions WHERE status = 'running' ORDER BY id`).all() as ExecutionRow[];
}

/**
 * Sources a run left unsettled because svc itself failed (not the source): no
 * reason was observed, so not_recorded, with what happened as the message.
 */
export function settleUnfinishedSources(db: Database, id: number, message: string, now: string): number {
  return db
    .prepare(
      `UPDATE execution_sources SET status = 'not_answered', zero_reason = CASE WHEN record_count = 0 THEN 'not_recorded' END, message = ?,
         finished_at_utc = coalesce(finished_at_utc, ?) WHERE execution_id = ? AND status IN ('pending', 'running')`,
    )
    .run(message, now, id).changes;
}

/** The AI lane of a run, replaced whole (ai-lane.ts says what it holds); false when the run is gone (deleted). */
export function setAiLane(db: Database, id: number, lane: unknown): boolean {
  return db.prepare('UPDATE executions SET ai_lane_json = ? WHERE id = ?').run(JSON.stringify(lane), id).changes > 0;
}

/** Put back a lane as it was stored (null included): an attempt abandoned before it decided anything. */
export function restoreAiLane(db: Database, id: number, raw: string | null): void {
  db.prepare('UPDATE executions SET ai_lane_json = ? WHERE id = ?').run(raw, id);
}

/**
 * Take a settled run's AI lane for one writer, in one statement so two writers (of any process)
 * cannot both win: the lane becomes `lane` (state writing) only when the run has settled with
 * documents and no other writer holds it — a lane writing whose deadline is after `writingAfter`,
 * or, when `pendingSettledAfter` is given, a lane pending on a run settled after it (the automatic
 * step, about to start). False when refused or the run is gone.
 */
export function claimAiLane(db: Database, id: number, lane: unknown, held: { writingAfter: string; pendingSettledAfter: string | null }): boolean {
  return (
    db
      .prepare(
        `UPDATE executions SET ai_lane_json = ?
         WHERE id = ? AND status != 'running' AND result_count > 0
           AND NOT coalesce(json_valid(ai_lane_json) AND (
             (json_extract(ai_lane_json, '$.state') = 'writing' AND coalesce(json_extract(ai_lane_json, '$.deadline_utc'), '9999') > ?)
             OR (? IS NOT NULL AND json_extract(ai_lane_json, '$.state') = 'pending' AND coalesce(finished_at_utc, '9999') > ?)), 0)`,
      )
      .run(JSON.stringify(lane), id, held.writingAfter, held.pendingSettledAfter, held.pendingSettledAfter).changes > 0
  );
}

/** Settle a running execution as interrupted; false when it had settled already (nothing changed). */
export function markInterrupted(db: Database, id: number, reason: InterruptedReason, now: string, aiReason = RUN_INTERRUPTED_REASON): boolean {
  return db.transaction(() => {
    const changed = db.prepare(`UPDATE executions SET status = 'interrupted', interrupted_reason = ?, finished_at_utc = ? WHERE id = ? AND status = 'running'`).run(reason, now, id).changes > 0;
    if (!changed) return false;
    // A summary asked for is never written for an interrupted run (its after-run steps do not run): the lane says so.
    db.prepare(
      `UPDATE executions SET ai_lane_json = json_set(ai_lane_json, '$.state', 'not_used', '$.reason_code', 'run_interrupted', '$.reason', ?, '$.decided_at_utc', ?)
       WHERE id = ? AND json_valid(ai_lane_json) AND json_extract(ai_lane_json, '$.state') = 'pending'`,
    ).run(aiReason, now, id);
    db.prepare(`UPDATE execution_sources SET status = 'interrupted', zero_reason = coalesce(zero_reason, CASE WHEN record_count = 0 THEN 'not_recorded' END)
                WHERE execution_id = ? AND status IN ('pending', 'running')`).run(id);
    return true;
  })();
}
