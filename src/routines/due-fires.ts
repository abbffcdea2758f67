/**
 * The routines' on-due work for the scheduler: each active routine has a job
 * with its next run time; a due job fires the routine (or records the fires
 * missed while svc was closed), and the job moves on to its next time.
 *
 * Start-up: remove stale jobs (routine missing or inactive), drop fires queued
 * by a process that went away, catch up on fires due while svc was closed
 * (late by less than the grace: run once, coalesced; older: recorded missed),
 * register a job for every active routine without one, then wait.
 */
import type { Context } from '../context.js';
import { dueFires } from '../scheduler/catch-up.js';
import { parseSchedule } from '../scheduler/cron.js';
import { createScheduler, type DueWork, type Scheduler, type SchedulerOptions } from '../scheduler/scheduler.js';
import { fireRoutine, type FireResult } from './dispatch.js';
import { claimJob, deleteJob, dropQueuedFires, dueJobs, earliestNextRun, insertFire, putJob, routinesWithoutJob, staleJobs, type JobRow } from './jobs.js';
import { getRoutine } from './repo.js';
import { notify } from '../delivery/notify.js';
import { schedulerLease } from './scheduler-lease.js';
import { count, minuteUtc } from '../util/words.js';

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

export type RoutineScheduler = Scheduler<JobOutcome, StartReport>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function routineFires(ctx: Context): DueWork<JobOutcome, StartReport> {
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
    const handled = ctx.db
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
    // After the commit: a notification for fires that were never recorded would mislead.
    if (handled?.missed) {
      const m = handled.missed;
      notify(ctx, 'fires_missed', routine.id, null, `${routine.name}: ${count(m.count, 'scheduled run')} missed (last due ${minuteUtc(m.lastDueAtUtc)}) while svc was not running.`);
    }
    return handled;
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

  return {
    start() {
      const removedStale = ctx.db.transaction(() => staleJobs(ctx.db).map((job) => (deleteJob(ctx.db, job.routine_id), job.routine_id)))();
      if (removedStale.length) ctx.log.info(`scheduler: removed ${removedStale.length} stale job(s) of routines ${removedStale.join(', ')}`);
      const droppedQueued = dropQueuedFires(ctx.db, 'the process holding this queued fire went away before a slot freed; it did not run', { except: ctx.runtimeId });
      const caughtUp = processDue(true);
      const registered = register();
      return { removedStale, droppedQueued, caughtUp, registered };
    },
    runDue() {
      const outcomes = processDue(false);
      register(); // routines activated by another process
      return outcomes;
    },
    nextDueAt: () => earliestNextRun(ctx.db),
    stop() {
      dropQueuedFires(ctx.db, 'svc shut down before a slot freed; this fire did not run', { only: ctx.runtimeId });
    },
  };
}

/** A scheduler timing the routines' fires; of the processes serving one data directory only the lease holder fires. */
export function createRoutineScheduler(ctx: Context, options: SchedulerOptions = {}): RoutineScheduler {
  return createScheduler(ctx, routineFires(ctx), { ...options, lease: options.lease === undefined ? schedulerLease(ctx) : options.lease });
}

export { schedulerLease };

export const SCHEDULER_SERVICE = 'scheduler';

/** The scheduler of this process, built on first use (tests build it first with their own timers). */
export function schedulerOf(ctx: Context, options: SchedulerOptions = {}): RoutineScheduler {
  return ctx.service(SCHEDULER_SERVICE, () => {
    const scheduler = createRoutineScheduler(ctx, options);
    ctx.onClose(() => scheduler.stop());
    return scheduler;
  });
}
