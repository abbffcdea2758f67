/**
 * SQL of the routines' scheduled jobs (one per active routine) and the record
 * of every fire. The scheduler only times them (src/scheduler/); services
 * call these; routes and commands never see SQL.
 */
import type { Database } from 'better-sqlite3';
import { IN_ID_LIST, idList } from '../db/id-list.js';
import type { FireOutcome, FireTrigger } from '../wire/routines.js';

export const MISFIRE_GRACE_SECONDS = 3600;

export interface JobRow {
  id: string;
  routine_id: number;
  schedule_cron: string;
  next_run_at_utc: string | null;
  misfire_grace_seconds: number;
  created_at_utc: string;
  updated_at_utc: string;
}

export type { FireOutcome, FireTrigger } from '../wire/routines.js';

export interface FireRow {
  id: number;
  routine_id: number;
  trigger: FireTrigger;
  outcome: FireOutcome;
  first_due_at_utc: string;
  due_at_utc: string;
  fire_count: number;
  execution_id: number | null;
  reason: string | null;
  owner_runtime_id: string | null;
  recorded_at_utc: string;
  started_at_utc: string | null;
}

export const jobIdFor = (routineId: number) => `routine-${routineId}`;

export function getJob(db: Database, routineId: number): JobRow | undefined {
  return db.prepare('SELECT * FROM scheduler_jobs WHERE routine_id = ?').get(routineId) as JobRow | undefined;
}

export function jobsOf(db: Database, routineIds: readonly number[]): JobRow[] {
  return db.prepare(`SELECT * FROM scheduler_jobs WHERE routine_id IN (${IN_ID_LIST})`).all(idList(routineIds)) as JobRow[];
}

export function listJobs(db: Database): JobRow[] {
  return db.prepare('SELECT * FROM scheduler_jobs ORDER BY next_run_at_utc IS NULL, next_run_at_utc, routine_id').all() as JobRow[];
}

/** Create or replace the job of a routine (a new schedule or an activation starts from now). */
export function putJob(db: Database, routineId: number, scheduleCron: string, nextRunAtUtc: string | null, now: string): void {
  db.prepare(
    `INSERT INTO scheduler_jobs (id, routine_id, schedule_cron, next_run_at_utc, misfire_grace_seconds, created_at_utc, updated_at_utc)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (routine_id) DO UPDATE SET schedule_cron = excluded.schedule_cron, next_run_at_utc = excluded.next_run_at_utc, updated_at_utc = excluded.updated_at_utc`,
  ).run(jobIdFor(routineId), routineId, scheduleCron, nextRunAtUtc, MISFIRE_GRACE_SECONDS, now, now);
}

export function deleteJob(db: Database, routineId: number): boolean {
  return db.prepare('DELETE FROM scheduler_jobs WHERE routine_id = ?').run(routineId).changes > 0;
}

/** Jobs whose routine is missing or inactive (removed at start-up before registration). */
export function staleJobs(db: Database): JobRow[] {
  return db
    .prepare(`SELECT j.* FROM scheduler_jobs j LEFT JOIN routines r ON r.id = j.routine_id WHERE r.id IS NULL OR r.is_active = 0 ORDER BY j.routine_id`)
    .all() as JobRow[];
}

/** Active routines without a job. */
export function routinesWithoutJob(db: Database): { id: number; schedule_cron: string }[] {
  return db
    .prepare(`SELECT r.id, r.schedule_cron FROM routines r LEFT JOIN scheduler_jobs j ON j.routine_id = r.id WHERE r.is_active = 1 AND j.id IS NULL ORDER BY r.id`)
    .all() as { id: number; schedule_cron: string }[];
}

/** Jobs due at `now` (their next run has come). */
export function dueJobs(db: Database, now: string): JobRow[] {
  return db.prepare('SELECT * FROM scheduler_jobs WHERE next_run_at_utc IS NOT NULL AND next_run_at_utc <= ? ORDER BY next_run_at_utc, routine_id').all(now) as JobRow[];
}

export function earliestNextRun(db: Database): string | null {
  return (db.prepare('SELECT min(next_run_at_utc) FROM scheduler_jobs').pluck().get() as string | null) ?? null;
}

/**
 * Move a job past the fires being handled, only if nobody else did: the claim
 * that keeps two schedulers on one database from firing the same due time twice.
 */
export function claimJob(db: Database, job: JobRow, nextRunAtUtc: string | null, now: string): boolean {
  return (
    db.prepare('UPDATE scheduler_jobs SET next_run_at_utc = ?, updated_at_utc = ? WHERE id = ? AND next_run_at_utc IS ?').run(nextRunAtUtc, now, job.id, job.next_run_at_utc)
      .changes > 0
  );
}

export interface NewFire {
  routineId: number;
  trigger: FireTrigger;
  outcome: FireOutcome;
  firstDueAtUtc: string;
  dueAtUtc: string;
  fireCount?: number;
  executionId?: number | null;
  reason?: string | null;
  ownerRuntimeId?: string | null;
  startedAtUtc?: string | null;
}

export function insertFire(db: Database, fire: NewFire, now: string): number {
  const info = db
    .prepare(
      `INSERT INTO routine_fires (routine_id, trigger, outcome, first_due_at_utc, due_at_utc, fire_count, execution_id, reason, owner_runtime_id, recorded_at_utc, started_at_utc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      fire.routineId,
      fire.trigger,
      fire.outcome,
      fire.firstDueAtUtc,
      fire.dueAtUtc,
      fire.fireCount ?? 1,
      fire.executionId ?? null,
      fire.reason ?? null,
      fire.ownerRuntimeId ?? null,
      now,
      fire.startedAtUtc ?? null,
    );
  return Number(info.lastInsertRowid);
}

/** A queued fire got its slot. */
export function markFireStarted(db: Database, fireId: number, executionId: number, now: string): void {
  db.prepare(`UPDATE routine_fires SET outcome = 'started', execution_id = ?, started_at_utc = ? WHERE id = ? AND outcome = 'queued'`).run(executionId, now, fireId);
}

/** Queued fires held by a process that is closing, or by one that went away: they will not run. */
export function dropQueuedFires(db: Database, reason: string, runtime: { only?: string; except?: string }): number {
  if (runtime.only !== undefined) {
    return db.prepare(`UPDATE routine_fires SET outcome = 'dropped', reason = ? WHERE outcome = 'queued' AND owner_runtime_id = ?`).run(reason, runtime.only).changes;
  }
  return db.prepare(`UPDATE routine_fires SET outcome = 'dropped', reason = ? WHERE outcome = 'queued' AND owner_runtime_id IS NOT ?`).run(reason, runtime.except ?? null).changes;
}

/** Fires that did not run on time: missed, overflowed, dropped, skipped, or run late (coalesced); newest first. */
export function offScheduleFires(db: Database, routineId: number, limit: number): FireRow[] {
  return db
    .prepare(
      `SELECT * FROM routine_fires WHERE routine_id = ? AND (trigger = 'coalesced' OR outcome IN ('missed', 'overflow', 'dropped', 'skipped'))
       ORDER BY due_at_utc DESC, id DESC LIMIT ?`,
    )
    .all(routineId, limit) as FireRow[];
}

export interface MissedTotals {
  count: number;
  first: string | null;
  last: string | null;
}

export function missedTotals(db: Database, routineId: number): MissedTotals {
  return missedTotalsOf(db, [routineId]).get(routineId) ?? { count: 0, first: null, last: null };
}

/** Recorded missed fires of each routine that has any. */
export function missedTotalsOf(db: Database, routineIds: readonly number[]): Map<number, MissedTotals> {
  const rows = db
    .prepare(
      `SELECT routine_id, sum(fire_count) AS count, min(first_due_at_utc) AS first, max(due_at_utc) AS last FROM routine_fires
       WHERE routine_id IN (${IN_ID_LIST}) AND outcome = 'missed' GROUP BY routine_id`,
    )
    .all(idList(routineIds)) as (MissedTotals & { routine_id: number })[];
  return new Map(rows.map(({ routine_id, ...totals }) => [routine_id, totals]));
}

export function lastFire(db: Database, routineId: number): FireRow | undefined {
  return lastFiresOf(db, [routineId]).get(routineId);
}

/** The newest fire of each routine that has fired. */
export function lastFiresOf(db: Database, routineIds: readonly number[]): Map<number, FireRow> {
  const rows = db
    .prepare(`SELECT * FROM routine_fires WHERE id IN (SELECT max(id) FROM routine_fires WHERE routine_id IN (${IN_ID_LIST}) GROUP BY routine_id)`)
    .all(idList(routineIds)) as FireRow[];
  return new Map(rows.map((row) => [row.routine_id, row]));
}

/** The oldest fire of each routine waiting in the queue of process `ownerRuntimeId`. */
export function queuedFiresOf(db: Database, routineIds: readonly number[], ownerRuntimeId: string): Map<number, FireRow> {
  const rows = db
    .prepare(
      `SELECT * FROM routine_fires WHERE id IN
         (SELECT min(id) FROM routine_fires WHERE routine_id IN (${IN_ID_LIST}) AND outcome = 'queued' AND owner_runtime_id = ? GROUP BY routine_id)`,
    )
    .all(idList(routineIds), ownerRuntimeId) as FireRow[];
  return new Map(rows.map((row) => [row.routine_id, row]));
}

export function setFireOutcome(db: Database, fireId: number, outcome: FireOutcome, reason: string | null): void {
  db.prepare('UPDATE routine_fires SET outcome = ?, reason = ? WHERE id = ?').run(outcome, reason, fireId);
}
