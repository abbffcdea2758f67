/**
 * The scheduler of one process (the server or the daemon; never a process
 * started with SVC_DISABLE_SCHEDULER): a timer loop around an on-due callback.
 * What is due and what to do about it belongs to the room that owns the work
 * (routines: src/routines/due-fires.ts); the scheduler only waits until the
 * earliest due time (or a poll interval, for changes made by other processes),
 * asks the work to handle what is due, and waits again. Waiting goes through
 * an injectable timer, so tests move a fake clock and call tick().
 */
import type { Context } from '../context.js';

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

/** The work a scheduler times: the on-due callback and when it is next due. */
export interface DueWork<Outcome, Report> {
  /** At start: tidy up and catch up on what came due while nothing ran. */
  start(): Report;
  /** Handle everything due now. */
  runDue(): Outcome[];
  /** The earliest time anything is due (ISO), or null for nothing scheduled. */
  nextDueAt(): string | null;
  /** At stop: let go of what this process held. */
  stop(): void;
}

export interface SchedulerOptions {
  timers?: Timers;
  pollMs?: number;
}

export interface Scheduler<Outcome = unknown, Report = unknown> {
  readonly running: boolean;
  start(): Report;
  /** Handle every due job now, then wait again. */
  tick(): Outcome[];
  stop(): void;
  pollMs: number;
}

export function createScheduler<Outcome, Report>(ctx: Context, work: DueWork<Outcome, Report>, options: SchedulerOptions = {}): Scheduler<Outcome, Report> {
  const timers = options.timers ?? realTimers;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  let cancelTimer: (() => void) | null = null;
  let running = false;

  function arm(): void {
    cancelTimer?.();
    if (!running) return;
    const next = work.nextDueAt();
    const until = next === null ? pollMs : Date.parse(next) - ctx.clock.now().getTime();
    // Still due right after a tick means handling it failed (logged): retry, but not in a tight loop.
    const wait = until <= 0 ? RETRY_MS : Math.min(pollMs, until);
    cancelTimer = timers.set(() => scheduler.tick(), wait);
  }

  const scheduler: Scheduler<Outcome, Report> = {
    pollMs,
    get running() {
      return running;
    },
    start() {
      running = true;
      const report = work.start();
      arm();
      return report;
    },
    tick() {
      if (!running) return [];
      try {
        return work.runDue();
      } finally {
        arm();
      }
    },
    stop() {
      if (!running) return;
      running = false;
      cancelTimer?.();
      cancelTimer = null;
      work.stop();
    },
  };
  return scheduler;
}
