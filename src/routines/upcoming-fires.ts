/**
 * Upcoming routine fires for the calendar: every active routine's next fires
 * inside the asked window (from now on), at most FIRES_PER_ROUTINE each so an
 * every-minute routine cannot flood a month view.
 */
import type { CalendarEvent } from '../wire/routines.js';
import type { Context } from '../context.js';
import { parseSchedule } from '../scheduler/cron.js';
import { listRoutines } from './repo.js';

export const FIRES_PER_ROUTINE = 100;

export function upcomingFireEvents(ctx: Context, fromUtc: string, toUtc: string, routineId?: number): CalendarEvent[] {
  const now = ctx.clock.now();
  const start = new Date(Math.max(Date.parse(fromUtc), now.getTime()));
  const end = Date.parse(toUtc);
  const events: CalendarEvent[] = [];
  for (const routine of listRoutines(ctx.db, true)) {
    if (routineId !== undefined && routine.id !== routineId) continue;
    let schedule;
    try {
      schedule = parseSchedule(routine.schedule_cron, now);
    } catch {
      continue;
    }
    let t: Date | null = new Date(start.getTime() - 1);
    for (let n = 0; n < FIRES_PER_ROUTINE; n++) {
      t = schedule.nextAfter(t);
      if (!t || t.getTime() >= end) break;
      events.push({ id: `routine-${routine.id}-${t.toISOString()}`, kind: 'routine_fire', title: `routine "${routine.name}"`, start_utc: t.toISOString(), end_utc: null, status: 'scheduled', routine_id: routine.id });
    }
  }
  return events;
}
