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
import type { Lease, LeaseHolder } from './lease.js';

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
  /** One scheduler per data directory: without the lease this one waits on standby. Null: no lease (tests of one process). */
  lease?: Lease | null;
}

export interface Scheduler<Outcome = unknown, Report = unknown> {
  readonly running: boolean;
  /** running: this process schedules; standby: another process holds the lease and this one waits to take over. */
  readonly state: 'running' | 'standby';
  /** On standby: the process that schedules instead (as its lease says). */
  readonly heldBy: LeaseHolder | null;
  /** The start-up report, or null when started on standby. */
  start(): Report | null;
  /** Handle every due job now, then wait again. */
  tick(): Outcome[];
  stop(): void;
  pollMs: number;
}

export function createScheduler<Outcome, Report>(ctx: Context, work: DueWork<Outcome, Report>, options: SchedulerOptions = {}): Scheduler<Outcome, Report> {
  const timers = options.timers ?? realTimers;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const lease = options.lease ?? null;
  let cancelTimer: (() => void) | null = null;
  let running = false;
  let heldBy: LeaseHolder | null = null;

  /** Take the lease (or keep it); on standby remember who holds it. True when this process may schedule. */
  function hold(): boolean {
    if (!lease) return true;
    const wasStandby = heldBy !== null;
    try {
      heldBy = lease.acquire();
    } catch (err) {
      // The lease file cannot be read or written: keep doing what this process did (a timer callback must not throw).
      ctx.log.error('scheduler: the scheduler lease cannot be taken', { error: err instanceof Error ? err.message : String(err) });
      return !wasStandby;
    }
    if (heldBy && !wasStandby) ctx.log.info(`scheduler: on standby; routines are scheduled by ${describeHolder(heldBy)}`);
    return heldBy === null;
  }

  function arm(): void {
    cancelTimer?.();
    if (!running) return;
    if (heldBy) {
      cancelTimer = timers.set(() => scheduler.tick(), pollMs); // on standby: look again whether the holder is gone
      return;
    }
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
    get state() {
      return heldBy ? 'standby' : 'running';
    },
    get heldBy() {
      return heldBy;
    },
    start() {
      running = true;
      if (!hold()) {
        arm();
        return null;
      }
      const report = work.start();
      arm();
      return report;
    },
    tick() {
      if (!running) return [];
      try {
        if (heldBy) {
          if (!hold()) return [];
          ctx.log.warn('scheduler: the process that scheduled routines here is gone; this one schedules them now');
          try {
            work.start(); // catch up on what came due while nobody scheduled
          } catch (err) {
            ctx.log.error('scheduler: catching up after the takeover failed; due fires are handled at the next tick', { error: err instanceof Error ? err.message : String(err) });
          }
          return [];
        }
        if (lease && !renewed(lease) && !hold()) {
          ctx.log.warn(`scheduler: the lease was taken over by ${describeHolder(heldBy!)}; this process stops scheduling`);
          return [];
        }
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
      if (heldBy) return;
      work.stop();
      lease?.release();
    },
  };
  return scheduler;
}

function renewed(lease: Lease): boolean {
  try {
    return lease.renew();
  } catch {
    return false;
  }
}

export function describeHolder(h: LeaseHolder): string {
  return `the ${h.role === 'daemon' ? 'daemon' : h.role === 'server' ? 'server' : 'process'} with pid ${h.pid || 'unknown'}${h.port ? ` on port ${h.port}` : ''}`;
}
