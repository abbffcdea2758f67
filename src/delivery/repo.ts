/** SQL of delivery destinations, deliveries and their attempts, in one place. */
import type { Database } from 'better-sqlite3';
import { IN_ID_LIST, idList } from '../db/id-list.js';
import type { Owner } from '../claims/owner.js';
import type { Delivery, DeliveryChannel, DeliveryState, TargetMode } from '../wire/deliveries.js';

export type { DeliveryState, TargetMode } from '../wire/deliveries.js';

export const DELIVERY_STATES = ['queued', 'awaiting_review', 'delivering', 'delivered', 'failed', 'skipped'] as const satisfies readonly DeliveryState[];
export const TARGET_MODES = ['automatic', 'review'] as const satisfies readonly TargetMode[];

/**
 * What delivery reads of a routine: its name for messages, and what it asked
 * of its own email and notifications. Read here rather than through the
 * routines room, which sits above delivery (a routine's read carries its
 * delivery summary).
 */
export interface RoutineFacts {
  id: number;
  name: string;
  email_enabled: number;
  email_ai_summary_enabled: number;
  notify_on_complete: number;
}

export function routineFacts(db: Database, routineId: number): RoutineFacts | undefined {
  return db.prepare('SELECT id, name, email_enabled, email_ai_summary_enabled, notify_on_complete FROM routines WHERE id = ?').get(routineId) as RoutineFacts | undefined;
}

export interface TargetRow {
  id: number;
  routine_id: number;
  channel: DeliveryChannel;
  enabled: number;
  mode: TargetMode;
  target: string;
  secret: string | null;
  created_at_utc: string;
  updated_at_utc: string;
}

/** A delivery as stored: the answer's fields (max_attempts is the worker's, not the row's) and who holds its claim. */
export interface DeliveryRow extends Omit<Delivery, 'max_attempts'> {
  owner_runtime_id: string | null;
  owner_pid: number | null;
  owner_boot_id: string | null;
  owner_pid_start: number | null;
  claimed_at_utc: string | null;
}

export interface AttemptRow {
  delivery_id: number;
  seq: number;
  started_at_utc: string;
  finished_at_utc: string | null;
  outcome: 'delivered' | 'failed' | 'interrupted' | null;
  error: string | null;
}

// Targets

export function insertTarget(db: Database, t: { routineId: number; channel: DeliveryChannel; enabled: boolean; mode: TargetMode; target: string; secret: string | null }, now: string): number {
  return Number(
    db
      .prepare('INSERT INTO delivery_targets (routine_id, channel, enabled, mode, target, secret, created_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(t.routineId, t.channel, t.enabled ? 1 : 0, t.mode, t.target, t.secret, now, now).lastInsertRowid,
  );
}

export function updateTarget(db: Database, id: number, t: { enabled: boolean; mode: TargetMode; target: string }, now: string): void {
  db.prepare('UPDATE delivery_targets SET enabled = ?, mode = ?, target = ?, updated_at_utc = ? WHERE id = ?').run(t.enabled ? 1 : 0, t.mode, t.target, now, id);
}

export function getTarget(db: Database, id: number): TargetRow | undefined {
  return db.prepare('SELECT * FROM delivery_targets WHERE id = ?').get(id) as TargetRow | undefined;
}

export function targetsOf(db: Database, routineId: number): TargetRow[] {
  return db.prepare('SELECT * FROM delivery_targets WHERE routine_id = ? ORDER BY id').all(routineId) as TargetRow[];
}

export function deleteTarget(db: Database, id: number): boolean {
  return db.prepare('DELETE FROM delivery_targets WHERE id = ?').run(id).changes > 0;
}

/** Skip what still waits to go to a destination (queued or awaiting review); answers how many. */
export function skipPendingOfTarget(db: Database, targetId: number, note: string, now: string): number {
  return db
    .prepare(`UPDATE deliveries SET state = 'skipped', last_error = ?, next_attempt_at_utc = NULL, updated_at_utc = ? WHERE target_id = ? AND state IN ('queued', 'awaiting_review')`)
    .run(note, now, targetId).changes;
}

export function webhookTargetsWithoutSecret(db: Database): number[] {
  return (db.prepare("SELECT id FROM delivery_targets WHERE channel = 'webhook' AND secret IS NULL ORDER BY id").all() as { id: number }[]).map((r) => r.id);
}

export function setTargetSecret(db: Database, id: number, secret: string, now: string): void {
  db.prepare('UPDATE delivery_targets SET secret = ?, updated_at_utc = ? WHERE id = ?').run(secret, now, id);
}

/** Enabled destinations of each routine, by channel. */
export function enabledTargetCountsOf(db: Database, routineIds: readonly number[]): { routine_id: number; channel: DeliveryChannel; n: number }[] {
  return db
    .prepare(`SELECT routine_id, channel, count(*) AS n FROM delivery_targets WHERE routine_id IN (${IN_ID_LIST}) AND enabled = 1 GROUP BY routine_id, channel`)
    .all(idList(routineIds)) as { routine_id: number; channel: DeliveryChannel; n: number }[];
}

// Deliveries

export function insertDelivery(
  db: Database,
  d: { routineId: number; executionId: number; targetId: number | null; origin: DeliveryRow['origin']; channel: DeliveryChannel; mode: TargetMode; state: DeliveryState },
  now: string,
): number | undefined {
  const result = db
    .prepare(
      `INSERT INTO deliveries (routine_id, execution_id, target_id, origin, channel, mode, state, next_attempt_at_utc, created_at_utc, updated_at_utc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .run(d.routineId, d.executionId, d.targetId, d.origin, d.channel, d.mode, d.state, d.state === 'queued' ? now : null, now, now);
  return result.changes ? Number(result.lastInsertRowid) : undefined;
}

export function getDelivery(db: Database, id: number): DeliveryRow | undefined {
  return db.prepare('SELECT * FROM deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
}

export function deliveriesOfExecution(db: Database, executionId: number): DeliveryRow[] {
  return db.prepare('SELECT * FROM deliveries WHERE execution_id = ? ORDER BY id').all(executionId) as DeliveryRow[];
}

export function deliveriesOfRoutine(db: Database, routineId: number, state: DeliveryState | undefined, limit: number, offset: number): { total: number; rows: DeliveryRow[] } {
  const where = state ? 'routine_id = ? AND state = ?' : 'routine_id = ?';
  const args: unknown[] = state ? [routineId, state] : [routineId];
  const total = db.prepare(`SELECT count(*) FROM deliveries WHERE ${where}`).pluck().get(...args) as number;
  const rows = db.prepare(`SELECT * FROM deliveries WHERE ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as DeliveryRow[];
  return { total, rows };
}

export function recentDeliveries(db: Database, filter: { state?: DeliveryState }, limit: number): DeliveryRow[] {
  if (filter.state) return db.prepare('SELECT * FROM deliveries WHERE state = ? ORDER BY id DESC LIMIT ?').all(filter.state, limit) as DeliveryRow[];
  return db.prepare('SELECT * FROM deliveries ORDER BY id DESC LIMIT ?').all(limit) as DeliveryRow[];
}

export interface DeliveryTotals {
  routine_id: number;
  awaiting_review: number;
  /** When the last delivered one was delivered; null when none was. */
  last_delivered_at_utc: string | null;
  /** The newest delivery (by id). */
  last: DeliveryRow;
}

/** What a routine's delivery summary counts, for each routine with deliveries: one pass over them and one read of the newest. */
export function deliveryTotalsOf(db: Database, routineIds: readonly number[]): Map<number, DeliveryTotals> {
  const totals = db
    .prepare(
      `SELECT routine_id, sum(state = 'awaiting_review') AS awaiting_review, max(CASE WHEN state = 'delivered' THEN delivered_at_utc END) AS last_delivered_at_utc,
         max(id) AS last_id
       FROM deliveries WHERE routine_id IN (${IN_ID_LIST}) GROUP BY routine_id`,
    )
    .all(idList(routineIds)) as (Omit<DeliveryTotals, 'last'> & { last_id: number })[];
  const newest = db.prepare(`SELECT * FROM deliveries WHERE id IN (${IN_ID_LIST})`).all(idList(totals.map((t) => t.last_id))) as DeliveryRow[];
  const byId = new Map(newest.map((row) => [row.id, row]));
  return new Map(totals.map(({ last_id, ...t }) => [t.routine_id, { ...t, last: byId.get(last_id)! }]));
}

/** Move from one of `from` to `to`; answers false when the row was in another state (a race lost). */
export function transition(db: Database, id: number, from: readonly DeliveryState[], set: Partial<Pick<DeliveryRow, 'state' | 'attempts' | 'last_error' | 'next_attempt_at_utc' | 'delivered_at_utc'>>, now: string): boolean {
  const keys = Object.keys(set) as (keyof typeof set)[];
  const assignments = [...keys.map((k) => `${k} = @${k}`), 'updated_at_utc = @now', 'owner_runtime_id = NULL', 'owner_pid = NULL', 'owner_boot_id = NULL', 'owner_pid_start = NULL', 'claimed_at_utc = NULL'];
  const placeholders = from.map((_, i) => `@from${i}`).join(', ');
  const params: Record<string, unknown> = { id, now, ...set };
  from.forEach((s, i) => (params[`from${i}`] = s));
  return db.prepare(`UPDATE deliveries SET ${assignments.join(', ')} WHERE id = @id AND state IN (${placeholders})`).run(params).changes > 0;
}

/** Claim one queued delivery that is due: only one process wins it. */
export function claimDue(db: Database, now: string, owner: DeliveryOwner, onlyExecution?: number): DeliveryRow | undefined {
  return db.transaction(() => {
    const row = (onlyExecution === undefined
      ? db.prepare("SELECT id FROM deliveries WHERE state = 'queued' AND next_attempt_at_utc <= ? ORDER BY next_attempt_at_utc, id LIMIT 1").get(now)
      : db.prepare("SELECT id FROM deliveries WHERE state = 'queued' AND next_attempt_at_utc <= ? AND execution_id = ? ORDER BY id LIMIT 1").get(now, onlyExecution)) as { id: number } | undefined;
    if (!row) return undefined;
    return claim(db, row.id, now, owner);
  })();
}

/** The process that claims a delivery: its runtime id, its pid and who it is (claims/owner.ts), for the owner columns. */
export type DeliveryOwner = { runtimeId: string } & Owner;

/** Claim one queued delivery by id whatever its due time (a person asked for it now). */
export function claim(db: Database, id: number, now: string, owner: DeliveryOwner): DeliveryRow | undefined {
  return db.transaction(() => {
    const changed = db
      .prepare(
        `UPDATE deliveries SET state = 'delivering', attempts = attempts + 1, owner_runtime_id = ?, owner_pid = ?, owner_boot_id = ?, owner_pid_start = ?,
           claimed_at_utc = ?, updated_at_utc = ?
         WHERE id = ? AND state = 'queued'`,
      )
      .run(owner.runtimeId, owner.pid, owner.boot_id ?? null, owner.pid_start ?? null, now, now, id).changes;
    if (!changed) return undefined;
    const delivery = getDelivery(db, id)!;
    const seq = (db.prepare('SELECT coalesce(max(seq), 0) + 1 FROM delivery_attempts WHERE delivery_id = ?').pluck().get(id) as number);
    db.prepare('INSERT INTO delivery_attempts (delivery_id, seq, started_at_utc, owner_runtime_id) VALUES (?, ?, ?, ?)').run(id, seq, now, owner.runtimeId);
    return delivery;
  })();
}

export function finishAttempt(db: Database, deliveryId: number, outcome: 'delivered' | 'failed' | 'interrupted', error: string | null, now: string): void {
  db.prepare(
    `UPDATE delivery_attempts SET finished_at_utc = ?, outcome = ?, error = ?
     WHERE delivery_id = ? AND seq = (SELECT max(seq) FROM delivery_attempts WHERE delivery_id = ?) AND outcome IS NULL`,
  ).run(now, outcome, error, deliveryId, deliveryId);
}

export function attemptsOf(db: Database, deliveryId: number): AttemptRow[] {
  return db.prepare('SELECT delivery_id, seq, started_at_utc, finished_at_utc, outcome, error FROM delivery_attempts WHERE delivery_id = ? ORDER BY seq').all(deliveryId) as AttemptRow[];
}

export function deliveringRows(db: Database): DeliveryRow[] {
  return db.prepare("SELECT * FROM deliveries WHERE state = 'delivering'").all() as DeliveryRow[];
}

export function nextDueAt(db: Database): string | undefined {
  return (db.prepare("SELECT min(next_attempt_at_utc) FROM deliveries WHERE state = 'queued'").pluck().get() as string | null) ?? undefined;
}

/** Delivered feed entries of one destination, newest first (the feed is rebuilt from these). */
export function deliveredOfTarget(db: Database, targetId: number, limit: number): DeliveryRow[] {
  return db.prepare("SELECT * FROM deliveries WHERE target_id = ? AND state = 'delivered' ORDER BY id DESC LIMIT ?").all(targetId, limit) as DeliveryRow[];
}

export function failingSince(db: Database, sinceIso: string): (DeliveryRow & { routine_name: string | null; first_failed_at_utc: string | null })[] {
  return db
    .prepare(
      `SELECT d.*, r.name AS routine_name,
         (SELECT min(coalesce(a.finished_at_utc, a.started_at_utc)) FROM delivery_attempts a WHERE a.delivery_id = d.id AND a.outcome = 'failed') AS first_failed_at_utc
       FROM deliveries d LEFT JOIN routines r ON r.id = d.routine_id
       WHERE (d.state = 'failed' OR (d.state = 'queued' AND d.attempts > 0)) AND d.updated_at_utc >= ? ORDER BY d.id DESC`,
    )
    .all(sinceIso) as (DeliveryRow & { routine_name: string | null; first_failed_at_utc: string | null })[];
}
