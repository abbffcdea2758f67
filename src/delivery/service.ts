/**
 * Deliveries: one per enabled destination when a routine run completes
 * (queued, or awaiting_review for a review-mode destination, which never
 * sends on its own), read per execution and per routine, and moved by a
 * person: release (awaiting_review → queued, the only promotion), retry
 * (failed → queued, a new attempt sequence), skip.
 */
import type { Context } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { getExecution } from '../executions/repo.js';
import * as repo from './repo.js';
import { maxAttempts } from './tuning.js';
import { deliveryWorker, processDue } from './worker.js';
import { minuteUtc } from '../util/words.js';
import type { Delivery as DeliveryView, DeliveryPage, ExecutionDeliveries } from '../wire/deliveries.js';

export type { DeliveryView };

export function deliveryView(ctx: Context, row: repo.DeliveryRow): DeliveryView {
  return {
    id: row.id,
    routine_id: row.routine_id,
    execution_id: row.execution_id,
    target_id: row.target_id,
    origin: row.origin,
    channel: row.channel,
    mode: row.mode,
    state: row.state,
    attempts: row.attempts,
    max_attempts: maxAttempts(ctx),
    last_error: row.last_error,
    next_attempt_at_utc: row.state === 'queued' ? row.next_attempt_at_utc : null,
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
    delivered_at_utc: row.delivered_at_utc,
  };
}

/** One delivery with its attempt history (CLI `deliveries show`). */
export function deliveryDetail(ctx: Context, id: number) {
  const row = requireDelivery(ctx, id);
  return {
    ...deliveryView(ctx, row),
    attempt_log: repo.attemptsOf(ctx.db, id).map(({ seq, started_at_utc, finished_at_utc, outcome, error }) => ({ seq, started_at_utc, finished_at_utc, outcome, error })),
  };
}

export function requireDelivery(ctx: Context, id: number): repo.DeliveryRow {
  const row = repo.getDelivery(ctx.db, id);
  if (!row) throw notFound('delivery_not_found', `No delivery ${id}.`);
  return row;
}

export function executionDeliveries(ctx: Context, executionId: number): ExecutionDeliveries {
  if (!getExecution(ctx.db, executionId)) throw notFound('execution_not_found', `No execution ${executionId}.`);
  return { execution_id: executionId, deliveries: repo.deliveriesOfExecution(ctx.db, executionId).map((r) => deliveryView(ctx, r)) };
}

export const ROUTINE_DELIVERIES_LIMIT = { default: 50, min: 1, max: 500 } as const;

export function routineDeliveries(ctx: Context, routineId: number, filter: { state?: repo.DeliveryState; limit: number; offset: number }): DeliveryPage {
  if (!repo.routineFacts(ctx.db, routineId)) throw notFound('routine_not_found', `No routine ${routineId}; GET /api/routines (or \`svc routine list\`) lists them.`);
  const page = repo.deliveriesOfRoutine(ctx.db, routineId, filter.state, filter.limit, filter.offset);
  const next = filter.offset + page.rows.length < page.total ? filter.offset + page.rows.length : null;
  return { routine_id: routineId, total: page.total, limit: filter.limit, offset: filter.offset, next_offset: next, deliveries: page.rows.map((r) => deliveryView(ctx, r)) };
}

export function recentDeliveryViews(ctx: Context, filter: { state?: repo.DeliveryState }, limit: number) {
  return { deliveries: repo.recentDeliveries(ctx.db, filter, limit).map((r) => deliveryView(ctx, r)) };
}

/**
 * Create the deliveries of a settled routine run; answers their ids. Only a
 * completed run delivers. Creating twice for one run creates nothing more.
 */
export function createDeliveries(ctx: Context, executionId: number): number[] {
  const execution = getExecution(ctx.db, executionId);
  if (!execution || execution.status !== 'completed' || execution.routine_id === null) return [];
  const routine = repo.routineFacts(ctx.db, execution.routine_id);
  if (!routine) return [];
  const now = ctx.nowIso();
  return ctx.db.transaction(() => {
    const ids: number[] = [];
    const targets = repo.targetsOf(ctx.db, routine.id).filter((t) => t.enabled === 1);
    for (const t of targets) {
      const id = repo.insertDelivery(
        ctx.db,
        { routineId: routine.id, executionId, targetId: t.id, origin: 'target', channel: t.channel, mode: t.mode, state: t.mode === 'review' ? 'awaiting_review' : 'queued' },
        now,
      );
      if (id !== undefined) ids.push(id);
    }
    // email_enabled with no email destination: the report goes to the email settings' recipient.
    const hasOwnEmail = repo.deliveriesOfExecution(ctx.db, executionId).some((d) => d.origin === 'routine_email');
    if (routine.email_enabled === 1 && !targets.some((t) => t.channel === 'email') && !hasOwnEmail) {
      const id = repo.insertDelivery(ctx.db, { routineId: routine.id, executionId, targetId: null, origin: 'routine_email', channel: 'email', mode: 'automatic', state: 'queued' }, now);
      if (id !== undefined) ids.push(id);
    }
    return ids;
  })();
}

/**
 * Attempt what is due: the serving process's worker when it runs (the
 * answer comes back at once), else this process now (a foreground CLI run
 * makes the first attempts itself; later ones wait for a server or daemon).
 */
export async function dispatchDue(ctx: Context, executionId?: number): Promise<void> {
  const worker = deliveryWorker(ctx);
  if (worker.started) void worker.kick();
  else await processDue(ctx, executionId);
}

function move(ctx: Context, id: number, from: readonly repo.DeliveryState[], set: Parameters<typeof repo.transition>[3], verb: string): DeliveryView {
  const row = requireDelivery(ctx, id);
  if (!from.includes(row.state) || !repo.transition(ctx.db, id, from, set, ctx.nowIso())) {
    const current = repo.getDelivery(ctx.db, id)!;
    // A queued delivery is retried by itself: say when, so nobody waits for nothing or retries in vain.
    const when = current.state === 'queued' && current.next_attempt_at_utc ? ` (its next attempt, ${current.attempts + 1} of ${maxAttempts(ctx)}, is due ${minuteUtc(current.next_attempt_at_utc)}, made by a running svc server or daemon)` : '';
    throw conflict('delivery_state_conflict', `Delivery ${id} is ${current.state}${when}; only a delivery that is ${from.join(' or ')} can be ${verb}.`, { state: current.state });
  }
  return deliveryView(ctx, repo.getDelivery(ctx.db, id)!);
}

/** awaiting_review → queued: the only promotion out of review. */
export function releaseDelivery(ctx: Context, id: number): DeliveryView {
  return move(ctx, id, ['awaiting_review'], { state: 'queued', next_attempt_at_utc: ctx.nowIso() }, 'released');
}

/** failed → queued with a fresh attempt sequence (after backoff gave up). */
export function retryDelivery(ctx: Context, id: number): DeliveryView {
  return move(ctx, id, ['failed'], { state: 'queued', attempts: 0, next_attempt_at_utc: ctx.nowIso() }, 'retried');
}

export function skipDelivery(ctx: Context, id: number): DeliveryView {
  return move(ctx, id, ['queued', 'awaiting_review', 'failed'], { state: 'skipped', next_attempt_at_utc: null }, 'skipped');
}
