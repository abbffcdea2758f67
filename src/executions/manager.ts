/**
 * The execution manager of one process: admits runs, starts them in the
 * background, keeps their owner heartbeat, honours cancel requests (from this
 * process or, through the database, from another), restarts and deletes, and
 * queues routine fires until a slot frees. When the process stops on purpose
 * it says so on its own runs before it exits (close).
 */
import type { Context } from '../context.js';
import { conflict, invalid, notFound, unavailable } from '../errors.js';
import { admissionLimits, hasFreeSlot, liveSince, noSlotError } from './admission.js';
import { NOT_REQUESTED, pendingLane } from './ai-lane.js';
import { storedAiSettings } from './ai-settings.js';
import { appendEvent } from './events.js';
import { INTERRUPTED_REASON_MEANING } from './interrupted-reasons.js';
import { recoverInterrupted } from './recovery.js';
import { cancelRequested, deleteExecution, getExecution, getSources, heartbeat, insertExecution, markInterrupted, requestCancel, runningExecutionOf, runningWithRequestId, savedConfigurationExists, type ExecutionStatus } from './repo.js';
import type { ParsedRun, RunSpec } from './request.js';
import type { CancelAnswer, QueuedRoutineFire, Restarted, RunDeleted, Submitted } from '../wire/executions.js';
import { runExecution } from './runner.js';
import { sleep } from '../util/sleep.js';
import { ownOwner } from '../claims/owner.js';

export type OwnerRole = 'server' | 'cli' | 'daemon' | 'fallback';

export type { Submitted } from '../wire/executions.js';

export type FireAdmission = { state: 'started'; executionId: number } | { state: 'queued'; position: number } | { state: 'overflow'; queueLimit: number };

export interface QueuedFire {
  spec: RunSpec;
  queuedAtUtc: string;
  /** Called with the execution id once the fire starts. */
  onStart?: (executionId: number) => void;
  /** Asked when a slot frees: false drops the fire (its routine was deleted or deactivated while it waited). */
  shouldStart?: () => boolean;
}

interface ActiveRun {
  controller: AbortController;
  done: Promise<ExecutionStatus>;
}

export interface ExecutionManager {
  role: OwnerRole;
  /** A manual run (dive, sweep, restart): replayed by request_id, else admitted or refused with 429. */
  submit(run: ParsedRun, restartedFrom?: number | null): Submitted;
  /** A routine fire: started now, queued, or recorded as overflow by the caller. */
  fire(fire: QueuedFire): FireAdmission;
  queued(): QueuedRoutineFire[];
  cancel(id: number): CancelAnswer;
  restart(id: number, requestId: string | null): Restarted;
  remove(id: number): RunDeleted;
  /** Wait for a run of this process to end. */
  wait(id: number): Promise<ExecutionStatus>;
  activeIds(): number[];
  recover(): number[];
  /**
   * Stop on purpose: runs still going are recorded interrupted (daemon_restart) at once, then
   * stopped; waits for them to settle at most ctx.tuning.shutdownWaitMs. Nothing starts after.
   */
  close(): Promise<void>;
}

/** The lane a run starts with; the summary step decides it once the run settles (ai-summary.ts). */
function aiLaneFor(ctx: Context, spec: RunSpec) {
  if (!spec.aiEnabled) return NOT_REQUESTED;
  const ai = ctx.settings.read('ai');
  const model = storedAiSettings(spec.aiSettings).settings.model ?? (typeof ai.model === 'string' && ai.model !== '' ? ai.model : null);
  return pendingLane(typeof ai.provider === 'string' ? ai.provider : null, model);
}

export function createExecutionManager(ctx: Context): ExecutionManager {
  const active = new Map<number, ActiveRun>();
  const queue: QueuedFire[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;

  const owner = () => ({ ...ownOwner(), runtimeId: ctx.runtimeId, role: manager.role });

  function tick() {
    const ids = [...active.keys()];
    heartbeat(ctx.db, ids, ctx.nowIso());
    for (const id of cancelRequested(ctx.db, ids)) active.get(id)?.controller.abort(new Error('cancelled'));
    drainQueue();
    if (active.size === 0 && queue.length === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  function ensureTimer() {
    if (timer) return;
    timer = setInterval(tick, ctx.tuning.executionHeartbeatMs);
    timer.unref();
  }

  function start(spec: RunSpec, ephemeral: Record<string, string>, restartedFrom: number | null): number {
    // A run started now would outlive the record its stop writes: the next start would find it owner_dead.
    if (closing) throw unavailable('shutting_down', 'svc is shutting down; the run was not started. Start it again once svc runs.');
    const id = insertExecution(ctx.db, spec, owner(), ctx.nowIso(), restartedFrom, aiLaneFor(ctx, spec));
    const controller = new AbortController();
    const done = runExecution(ctx, id, spec, { signal: controller.signal, ephemeralCredentials: ephemeral })
      .catch((err) => {
        ctx.log.error(`execution ${id} crashed`, { error: err instanceof Error ? err.message : String(err) });
        return 'failed' as ExecutionStatus;
      })
      .finally(() => {
        active.delete(id);
        drainQueue();
      });
    active.set(id, { controller, done });
    ensureTimer();
    return id;
  }

  /** Count and insert in one IMMEDIATE transaction so two processes cannot both take the last slot. */
  function admit<T>(fn: () => T): T {
    return ctx.db.transaction(fn).immediate();
  }

  function drainQueue() {
    while (queue.length > 0) {
      const next = admit(() => (hasFreeSlot(ctx) ? queue.shift() : undefined));
      if (!next) return;
      if (next.shouldStart && !next.shouldStart()) continue;
      const id = start(next.spec, {}, null);
      next.onStart?.(id);
    }
  }

  const manager: ExecutionManager = {
    role: 'cli',
    submit(run, restartedFrom = null) {
      if (run.spec.requestId) {
        const running = runningWithRequestId(ctx.db, run.spec.requestId);
        if (running !== undefined) return { id: running, status: 'running', replayed: true };
      }
      const configId = run.spec.savedConfigurationId;
      if (configId !== null && restartedFrom === null && run.spec.type !== 'routine' && !savedConfigurationExists(ctx.db, configId)) {
        throw invalid(['body', 'saved_configuration_id'], `No saved configuration ${configId}; GET /api/configurations lists them`, 'not_found', configId);
      }
      const id = admit(() => {
        if (!hasFreeSlot(ctx)) throw noSlotError(admissionLimits(ctx).cap);
        return start(run.spec, run.ephemeralCredentials, restartedFrom);
      });
      return { id, status: 'running', replayed: false };
    },
    fire(fire) {
      const started = admit(() => (queue.length === 0 && hasFreeSlot(ctx) ? start(fire.spec, {}, null) : undefined));
      if (started !== undefined) {
        fire.onStart?.(started);
        return { state: 'started', executionId: started };
      }
      const { queueLimit } = admissionLimits(ctx);
      if (queue.length >= queueLimit) return { state: 'overflow', queueLimit };
      queue.push(fire);
      ensureTimer();
      return { state: 'queued', position: queue.length };
    },
    queued() {
      return queue.map((f, i) => ({ routine_id: f.spec.routineId, queued_at_utc: f.queuedAtUtc, position: i + 1 }));
    },
    cancel(id) {
      const row = getExecution(ctx.db, id);
      if (!row) throw notFound('execution_not_found', `No execution ${id}.`);
      if (row.status !== 'running') throw conflict('not_running', `Execution ${id} is already ${row.status}; only a running execution can be cancelled.`, { status: row.status });
      requestCancel(ctx.db, id, ctx.nowIso());
      const local = active.get(id);
      if (local) local.controller.abort(new Error('cancelled'));
      else appendEvent(ctx, id, 'log', 'cancel requested; the owning process stops at its next check', { level: 'warn' });
      return { id, status: 'running', cancel_requested: true };
    },
    restart(id, requestId) {
      const row = getExecution(ctx.db, id);
      if (!row) throw notFound('execution_not_found', `No execution ${id}.`);
      if (row.status === 'running') throw conflict('still_running', `Execution ${id} is still running; cancel it first or wait for it to end.`);
      // The stored search, with the link to a saved configuration as it is now (linked later, or
      // its configuration deleted since); ephemeral credentials were never stored, so they are not reused.
      const spec: RunSpec = { ...(JSON.parse(row.parameters_json) as RunSpec), requestId, savedConfigurationId: row.saved_configuration_id };
      // Restarting a routine's run is a run request for that routine: one at a time, as run-now answers.
      const busy = spec.routineId != null ? runningExecutionOf(ctx.db, spec.routineId, liveSince(ctx)) : undefined;
      if (busy !== undefined) {
        throw conflict('routine_already_running', `Routine ${spec.routineId} is already running as execution ${busy}; wait for it or cancel it first.`, {
          conflict: 'routine_already_running',
          execution_id: busy,
        });
      }
      const submitted = manager.submit({ spec, ephemeralCredentials: {} }, id);
      const ephemeral = getSources(ctx.db, id)
        .filter((s) => s.outcome_json !== null && (JSON.parse(s.outcome_json) as { request?: { key?: string } }).request?.key === 'ephemeral')
        .map((s) => s.source);
      const note = ephemeral.length
        ? `The original run asked ${ephemeral.join(', ')} with a key given for that run only (ephemeral credentials are never stored); the restart uses the stored key, if any.`
        : null;
      return { ...submitted, restarted_from: id, ephemeral_credentials_not_reused: ephemeral, note };
    },
    remove(id) {
      const row = getExecution(ctx.db, id);
      if (!row) throw notFound('execution_not_found', `No execution ${id}.`);
      if (row.status === 'running') throw conflict('still_running', `Execution ${id} is running; cancel it before deleting it.`);
      deleteExecution(ctx.db, id);
      // A settled run of this process may still be in its after-run steps (its AI summary being written): they stop.
      active.get(id)?.controller.abort(new Error('deleted'));
      return { id, deleted: true };
    },
    wait(id) {
      return active.get(id)?.done ?? Promise.resolve((getExecution(ctx.db, id)?.status ?? 'failed') as ExecutionStatus);
    },
    activeIds: () => [...active.keys()],
    recover: () => recoverInterrupted(ctx),
    close() {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        timer = undefined;
        queue.length = 0;
        const runs = [...active.entries()];
        for (const [id, run] of runs) {
          // Recorded before anything else: the process may be killed outright if it takes too long to stop.
          // A run already settled (its after-run steps, such as the AI summary, still going) is not interrupted.
          try {
            if (markInterrupted(ctx.db, id, 'daemon_restart', ctx.nowIso())) {
              appendEvent(ctx, id, 'execution_interrupted', `interrupted (daemon_restart): ${INTERRUPTED_REASON_MEANING.daemon_restart}; what it found is kept`, {
                level: 'warn',
                data: { status: 'interrupted', interrupted_reason: 'daemon_restart' },
              });
            }
          } catch (err) {
            // Not recorded (the database busy past its timeout): the next start finds the run owner_dead.
            ctx.log.error(`execution ${id}: its interruption could not be recorded`, { error: err instanceof Error ? err.message : String(err) });
          }
          run.controller.abort(new Error('shutdown'));
        }
        // Aborted runs settle at their next await; one that does not (a source ignoring the abort) is not waited for past the bound.
        const bound = new AbortController();
        await Promise.race([Promise.allSettled(runs.map(([, run]) => run.done)), sleep(ctx.tuning.shutdownWaitMs, bound.signal).catch(() => undefined)]);
        bound.abort();
      })();
      return closing;
    },
  };
  return manager;
}

/** The manager of this process (one per Context). */
export function executionManager(ctx: Context): ExecutionManager {
  return ctx.service('executions.manager', () => {
    const manager = createExecutionManager(ctx);
    ctx.onClose(() => manager.close());
    return manager;
  });
}
