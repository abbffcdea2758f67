/**
 * Counting fires exactly without visiting each one. A routine on "* * * * *"
 * that was closed for a month has 43,200 missed fires; asking croner for each
 * would take seconds per read. A five-field schedule fires at the same
 * (hour, minute) pairs on every day it matches, so a whole local day adds the
 * same number — except a day on which the zone's offset changes (DST), and the
 * partial days at both ends, which are walked fire by fire.
 */
import type { Cron } from 'croner';
import type { Schedule } from './cron.js';

const DAY_MS = 86_400_000;
const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function offsetAt(zone: string, t: Date): string {
  let format = offsetFormats.get(zone);
  if (!format) offsetFormats.set(zone, (format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })));
  return format.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** The local day holding `t`: [start, end), and whether its UTC offset stays the same throughout. */
function dayOf(midnight: Cron, zone: string | null, t: Date): { start: number; end: number; uniform: boolean } {
  if (zone === null) {
    const start = Math.floor(t.getTime() / DAY_MS) * DAY_MS;
    return { start, end: start + DAY_MS, uniform: true };
  }
  const start = midnight.previousRuns(1, new Date(t.getTime() + 1))[0]!.getTime();
  const end = midnight.nextRun(t)!.getTime();
  return { start, end, uniform: offsetAt(zone, new Date(start)) === offsetAt(zone, new Date(end - 1)) };
}

export function countFires(schedule: Schedule, midnight: Cron, zone: string | null, after: Date, until: Date): { count: number; first: Date | null; last: Date | null } {
  let count = 0;
  let first: Date | null = null;
  let last: Date | null = null;
  let lastDayEnd: number | null = null; // the last counted fire is the last fire before this instant
  let perDay: number | null = null;
  let cursor = after;
  for (;;) {
    const t = schedule.nextAfter(cursor);
    if (!t || t > until) break;
    first ??= t;
    const day = dayOf(midnight, zone, t);
    const whole = cursor.getTime() < day.start && day.end - 1 <= until.getTime() && day.uniform;
    if (whole && perDay !== null) {
      count += perDay;
      lastDayEnd = day.end;
      cursor = new Date(day.end - 1);
      continue;
    }
    if (whole) {
      // The first whole ordinary day: walk it once to learn how many fires a day has.
      let n = 0;
      for (let s: Date | null = t; s && s.getTime() < day.end; s = schedule.nextAfter(s)) {
        n++;
        last = s;
      }
      perDay = n;
      count += n;
      lastDayEnd = null;
      cursor = last!;
      continue;
    }
    count++;
    last = t;
    lastDayEnd = null;
    cursor = t;
  }
  if (lastDayEnd !== null) last = schedule.lastBefore(new Date(lastDayEnd));
  return { count, first, last };
}
