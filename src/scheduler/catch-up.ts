/**
 * What to do with a job whose next run has come: the fires due since then
 * split at the misfire grace. A fire late by less than the grace still runs —
 * all such fires together run once (coalesced); a fire late by the grace or
 * more is recorded as missed and not run. The same rule serves the start-up
 * catch-up, a tick after the machine slept, and the live count on reads.
 */
import type { Schedule } from './cron.js';

export interface FireSpan {
  count: number;
  first: Date;
  last: Date;
}

export interface DueFires {
  /** Late by the grace or more: recorded as missed, not run. */
  missed: FireSpan | null;
  /** Late by less than the grace: run once for all of them. */
  late: FireSpan | null;
  /** The first fire after `now`. */
  next: Date | null;
}

function span(result: { count: number; first: Date | null; last: Date | null }): FireSpan | null {
  return result.count > 0 ? { count: result.count, first: result.first!, last: result.last! } : null;
}

/** Fires due from `nextRunAtUtc` (inclusive) up to `now` (inclusive), split at `graceSeconds`. */
export function dueFires(schedule: Schedule, nextRunAtUtc: string, now: Date, graceSeconds: number): DueFires {
  const from = new Date(Date.parse(nextRunAtUtc) - 1); // fires are whole minutes: (from, …] holds nextRunAtUtc itself
  const graceEdge = new Date(now.getTime() - graceSeconds * 1000); // lateness >= grace  <=>  due <= graceEdge
  const missed = graceEdge > from ? span(schedule.countBetween(from, graceEdge)) : null;
  const late = span(schedule.countBetween(graceEdge > from ? graceEdge : from, now));
  return { missed, late, next: schedule.nextAfter(now) };
}
