/**
 * The scheduler of one process (the server or the daemon; never a process
 * started with SVC_DISABLE_SCHEDULER). Jobs live in the database, so a routine
 * added by the CLI is picked up at the next look; croner only computes times.
 * Time comes from ctx.clock and waiting from an injectable timer, so tests
 * move a fake clock and call tick() instead of sleeping.
 *
 * Start-up: remove stale jobs (routine missing or inactive), drop fires queued
 * by a process that went away, catch up on fires due while svc was closed
 * (late by less than the grace: run once, coalesced; older: recorded missed),
 * register a job for every active routine without one, then wait.
 */
import type { Context } from '../context.js';
import { fireRoutine, type FireResult } from '../routines/dispatch.js';
import { getRoutine } from '../routines/repo.js';
import { dueFires } from './catch-up.js';
import { parseSchedule } from './cron.js';
import { claimJob, deleteJob, dropQueuedFires, dueJobs, earliestNextRun, insertFire, putJob, routinesWithoutJob, staleJobs, type JobRow } from './jobs.js';

export interface Timers {
  /** Call `fn` after `ms`; answers a cancel function. */
  set(fn: () => void, ms: number): () => void;
}

export const realTimers: Timers = {
  set(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return () => clearTimeout(handle);
  },
};

/** How often the scheduler looks at the jobs even when none is due (changes made by other processes). */
export const DEFAULT_POLL_MS = 30_000;
/** Wait before trying again a job whose fire could not be handled. */
export const RETRY_MS = 1000;

export interface SchedulerOptions {
  timers?: Timers;
  pollMs?: number;
}

export interface JobOutcome {
  routineId: number;
  missed: { count: number; firstDueAtUtc: string; lastDueAtUtc: string } | null;
  fired: (FireResult & { trigger: string; fireCount: number }) | null;
  nextRunAtUtc: string | null;
}

export interface StartReport {
  removedStale: number[];
  droppedQueued: number;
  caughtUp: JobOutcome[];
  registered: number[];
}

export interface Scheduler {
  readonly running: boolean;
  start(): StartReport;
  /** Handle every due job now, then wait again. */
  tick(): JobOutcome[];
  stop(): void;
  pollMs: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function createScheduler(ctx: Context, options: SchedulerOptions = {}): Scheduler {
  const timers = options.timers ?? realTimers;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  let cancelTimer: (() => void) | null = null;
  let running = false;

  function handleJob(job: JobRow, now: Date, atStartup: boolean): JobOutcome | null {
    const routine = getRoutine(ctx.db, job.routine_id);
    if (!routine || routine.is_active !== 1) {
      deleteJob(ctx.db, job.routine_id); // deactivated or deleted by a process that left the job behind
      return null;
    }
    let due;
    try {
      due = dueFires(parseSchedule(job.schedule_cron, now), job.next_run_at_utc!, now, job.misfire_grace_seconds);
    } catch (err) {
      ctx.log.error(`routine ${job.routine_id}: its schedule "${job.schedule_cron}" cannot be read any more; the job stops`, { error: (err as Error).message });
      claimJob(ctx.db, job, null, ctx.nowIso());
      return null;
    }
    return ctx.db
      .transaction((): JobOutcome | null => {
        const nowIso = ctx.nowIso();
        if (!claimJob(ctx.db, job, iso(due.next), nowIso)) return null; // another scheduler handled it
        const outcome: JobOutcome = { routineId: job.routine_id, missed: null, fired: null, nextRunAtUtc: iso(due.next) };
        if (due.missed) {
          const m = due.missed;
          insertFire(
            ctx.db,
            {
              routineId: job.routine_id,
              trigger: 'schedule',
              outcome: 'missed',
              firstDueAtUtc: m.first.toISOString(),
              dueAtUtc: m.last.toISOString(),
              fireCount: m.count,
              reason: `came due while svc was closed or asleep, ${job.misfire_grace_seconds} s or more before a scheduler could run it; not run`,
            },
            nowIso,
          );
          outcome.missed = { count: m.count, firstDueAtUtc: m.first.toISOString(), lastDueAtUtc: m.last.toISOString() };
          ctx.log.warn(`routine ${job.routine_id}: ${m.count} fire(s) missed, last due ${m.last.toISOString()}`);
        }
        if (due.late) {
          const trigger = atStartup || due.late.count > 1 || due.missed ? 'coalesced' : 'schedule';
          const fire = { trigger, firstDueAtUtc: due.late.first.toISOString(), dueAtUtc: due.late.last.toISOString(), fireCount: due.late.count } as const;
          outcome.fired = { ...fireRoutine(ctx, routine, fire), trigger, fireCount: due.late.count };
        }
        return outcome;
      })
      .immediate();
  }

  function processDue(atStartup: boolean): JobOutcome[] {
    const now = ctx.clock.now();
    const outcomes: JobOutcome[] = [];
    for (const job of dueJobs(ctx.db, now.toISOString())) {
      try {
        const outcome = handleJob(job, now, atStartup);
        if (outcome) outcomes.push(outcome);
      } catch (err) {
        ctx.log.error(`routine ${job.routine_id}: the scheduler could not handle its fire`, { error: err instanceof Error ? err.message : String(err) });
      }
    }
    return outcomes;
  }

  function register(): number[] {
    const now = ctx.clock.now();
    const registered: number[] = [];
    for (const routine of routinesWithoutJob(ctx.db)) {
      try {
        putJob(ctx.db, routine.id, routine.schedule_cron, iso(parseSchedule(routine.schedule_cron, now).nextAfter(now)), ctx.nowIso());
        registered.push(routine.id);
      } catch (err) {
        ctx.log.error(`routine ${routine.id}: its schedule cannot be read; not registered`, { error: (err as Error).message });
      }
    }
    return registered;
  }

  function arm(): void {
    cancelTimer?.();
    if (!running) return;
    const next = earliestNextRun(ctx.db);
    const until = next === null ? pollMs : Date.parse(next) - ctx.clock.now().getTime();
    // Still due right after a tick means handling it failed (logged): retry, but not in a tight loop.
    const wait = until <= 0 ? RETRY_MS : Math.min(pollMs, until);
    cancelTimer = timers.set(() => scheduler.tick(), wait);
  }

  const scheduler: Scheduler = {
    pollMs,
    get running() {
      return running;
    },
    start() {
      running = true;
      const removedStale = ctx.db.transaction(() => staleJobs(ctx.db).map((job) => (deleteJob(ctx.db, job.routine_id), job.routine_id)))();
      if (removedStale.length) ctx.log.info(`scheduler: removed ${removedStale.length} stale job(s) of routines ${removedStale.join(', ')}`);
      const droppedQueued = dropQueuedFires(ctx.db, 'the process holding this queued fire went away before a slot freed; it did not run', { except: ctx.runtimeId });
      const caughtUp = processDue(true);
      const registered = register();
      arm();
      return { removedStale, droppedQueued, caughtUp, registered };
    },
    tick() {
      if (!running) return [];
      let outcomes: JobOutcome[] = [];
      try {
        outcomes = processDue(false);
        register(); // routines activated by another process
      } finally {
        arm();
      }
      return outcomes;
    },
    stop() {
      if (!running) return;
      running = false;
      cancelTimer?.();
      cancelTimer = null;
      dropQueuedFires(ctx.db, 'svc shut down before a slot freed; this fire did not run', { only: ctx.runtimeId });
    },
  };
  return scheduler;
}

export const SCHEDULER_SERVICE = 'scheduler';

/** The scheduler of this process, built on first use (tests build it first with their own timers). */
export function schedulerOf(ctx: Context, options: SchedulerOptions = {}): Scheduler {
  return ctx.service(SCHEDULER_SERVICE, () => {
    const scheduler = createScheduler(ctx, options);
    ctx.onClose(() => scheduler.stop());
    return scheduler;
  });
}
