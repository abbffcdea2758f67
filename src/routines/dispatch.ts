/**
 * The one dispatcher of routine runs: scheduled fires and "run now" go through
 * the same conflict check, the same window and search, and both leave a fire
 * record. They differ where the spec makes them differ: a scheduled fire with
 * no free slot queues (routine_fire_queue_limit; overflow recorded), while a
 * manual run answers its execution id at once, so with no free slot it is
 * refused like any manual run (429). A routine already running or already
 * queued is never started twice: a manual run gets 409, a scheduled fire is
 * recorded as skipped.
 */
import type { Context } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { executionManager } from '../executions/manager.js';
import { liveSince } from '../executions/admission.js';
import { runningExecutionsOf } from '../executions/repo.js';
import { insertFire, markFireStarted, queuedFiresOf, setFireOutcome, type FireOutcome, type FireRow, type FireTrigger } from './jobs.js';
import { schedulerLease } from './scheduler-lease.js';
import { getRoutine, type RoutineRow } from './repo.js';
import { runSpecFor } from './run-spec.js';
import type { ManualRun } from '../wire/routines.js';

export interface Busy {
  kind: 'routine_already_running' | 'routine_already_queued';
  executionId: number | null;
  queuedAtUtc: string | null;
}

/**
 * Is the routine running (an owner seen recently), or waiting in a fire queue:
 * this process's, or that of the process scheduling this data directory (a
 * CLI run or a standby server sees the scheduler's queue through its fire
 * records; only the live lease holder queues fires, so its records are current).
 */
export function busyWith(ctx: Context, routineId: number): Busy | null {
  return busyLookup(ctx, [routineId])(routineId);
}

/** busyWith for many routines, each source read once (the routine list asks for 200). */
export function busyLookup(ctx: Context, routineIds: readonly number[]): (routineId: number) => Busy | null {
  const running = runningExecutionsOf(ctx.db, routineIds, liveSince(ctx));
  const queuedHere = executionManager(ctx).queued();
  const scheduler = schedulerLease(ctx).holder();
  const elsewhere = scheduler && scheduler.runtime_id !== ctx.runtimeId ? queuedFiresOf(ctx.db, routineIds, scheduler.runtime_id) : new Map<number, FireRow>();
  return (routineId) => {
    const executionId = running.get(routineId);
    if (executionId !== undefined) return { kind: 'routine_already_running', executionId, queuedAtUtc: null };
    const queued = queuedHere.find((q) => q.routine_id === routineId);
    if (queued) return { kind: 'routine_already_queued', executionId: null, queuedAtUtc: queued.queued_at_utc };
    const fire = elsewhere.get(routineId);
    if (fire) return { kind: 'routine_already_queued', executionId: null, queuedAtUtc: fire.recorded_at_utc };
    return null;
  };
}

/**
 * Run a routine now, outside its schedule; answers the new execution id at once.
 *
 * @example runRoutineNow(ctx, 3) // → { execution_id: 12, routine_active: true, … }
 */
export function runRoutineNow(ctx: Context, routineId: number): ManualRun {
  const manager = executionManager(ctx);
  return ctx.db
    .transaction(() => {
      const row = getRoutine(ctx.db, routineId);
      if (!row) throw notFound('routine_not_found', `No routine ${routineId}; GET /api/routines (or \`svc routine list\`) lists them.`);
      const busy = busyWith(ctx, routineId);
      if (busy?.kind === 'routine_already_running') {
        throw conflict('routine_already_running', `Routine ${routineId} is already running as execution ${busy.executionId}; wait for it or cancel it first.`, {
          conflict: 'routine_already_running',
          execution_id: busy.executionId,
        });
      }
      if (busy) {
        throw conflict('routine_already_queued', `A scheduled fire of routine ${routineId} is waiting for a free slot since ${busy.queuedAtUtc}; it will run when one frees.`, {
          conflict: 'routine_already_queued',
          execution_id: null,
          queued_at_utc: busy.queuedAtUtc,
        });
      }
      const now = ctx.nowIso();
      const spec = runSpecFor(ctx, row, { firstDueAtUtc: now });
      const submitted = manager.submit({ spec, ephemeralCredentials: {} });
      insertFire(ctx.db, { routineId, trigger: 'manual', outcome: 'started', firstDueAtUtc: now, dueAtUtc: now, executionId: submitted.id, startedAtUtc: now }, now);
      const active = row.is_active === 1;
      return {
        execution_id: submitted.id,
        routine_id: routineId,
        status: 'running' as const,
        routine_active: active,
        note: active ? null : `Routine ${routineId} is inactive: this run happens once and does not put it back on the schedule (activate it for that).`,
        window: { date_from: spec.dateFrom, date_to: spec.dateTo },
      };
    })
    .immediate();
}

export interface ScheduledFire {
  trigger: Exclude<FireTrigger, 'manual'>;
  firstDueAtUtc: string;
  dueAtUtc: string;
  fireCount: number;
}

export interface FireResult {
  routineId: number;
  outcome: FireOutcome;
  executionId: number | null;
  reason: string | null;
}

/** A scheduled (or coalesced) fire: started, queued, overflowed or skipped, and recorded in every case. */
export function fireRoutine(ctx: Context, row: RoutineRow, fire: ScheduledFire): FireResult {
  const now = ctx.nowIso();
  const base = { routineId: row.id, trigger: fire.trigger, firstDueAtUtc: fire.firstDueAtUtc, dueAtUtc: fire.dueAtUtc, fireCount: fire.fireCount };
  const busy = busyWith(ctx, row.id);
  if (busy) {
    const reason =
      busy.kind === 'routine_already_running'
        ? `routine_already_running: execution ${busy.executionId} was still going, so this fire did not start a second run`
        : `routine_already_queued: a fire queued at ${busy.queuedAtUtc} is still waiting for a slot`;
    insertFire(ctx.db, { ...base, outcome: 'skipped', executionId: busy.executionId, reason }, now);
    return { routineId: row.id, outcome: 'skipped', executionId: busy.executionId, reason };
  }
  const fireId = insertFire(ctx.db, { ...base, outcome: 'queued', ownerRuntimeId: ctx.runtimeId }, now);
  let executionId: number | null = null;
  const admission = executionManager(ctx).fire({
    spec: runSpecFor(ctx, row, { firstDueAtUtc: fire.firstDueAtUtc }),
    queuedAtUtc: now,
    onStart: (id) => {
      executionId = id;
      markFireStarted(ctx.db, fireId, id, ctx.nowIso());
    },
    // Asked again when a slot frees: the routine may have been deleted or deactivated (by any process) meanwhile.
    shouldStart: () => {
      if (getRoutine(ctx.db, row.id)?.is_active === 1) return true;
      setFireOutcome(ctx.db, fireId, 'dropped', 'the routine was deactivated or deleted while this fire waited for a slot; it did not run');
      return false;
    },
  });
  if (admission.state === 'started') return { routineId: row.id, outcome: 'started', executionId: admission.executionId, reason: null };
  if (admission.state === 'queued') {
    const reason = `no free slot: waiting in the fire queue at position ${admission.position}`;
    setFireOutcome(ctx.db, fireId, 'queued', reason);
    return { routineId: row.id, outcome: 'queued', executionId, reason };
  }
  const reason = `overflow: the fire queue was full (routine_fire_queue_limit ${admission.queueLimit}), so this fire did not run`;
  setFireOutcome(ctx.db, fireId, 'overflow', reason);
  ctx.log.warn(`routine ${row.id}: fire due ${fire.dueAtUtc} not run — ${reason}`);
  return { routineId: row.id, outcome: 'overflow', executionId: null, reason };
}
