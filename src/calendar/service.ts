/**
 * Calendar events: what ran (executions) in a window of dates, and upcoming
 * routine fires (routines/upcoming-fires.ts). The SQL lives in each room's repo.
 */
import type { Context } from '../context.js';
import { executionsStartedBetween } from '../executions/repo.js';
import { upcomingFireEvents } from '../routines/upcoming-fires.js';
import type { CalendarAnswer, CalendarEvent } from '../wire/routines.js';

/** `routineId`: only that routine's events (a routine's page asks for its own next fires). */
export type CalendarProvider = (ctx: Context, fromUtc: string, toUtc: string, routineId?: number) => CalendarEvent[];

function executionEvents(ctx: Context, fromUtc: string, toUtc: string, routineId?: number): CalendarEvent[] {
  const rows = executionsStartedBetween(ctx.db, fromUtc, toUtc);
  return (routineId === undefined ? rows : rows.filter((r) => r.routine_id === routineId)).map((r): CalendarEvent => ({
    id: `execution-${r.id}`,
    kind: 'execution',
    title: `${r.type} "${r.query}" (${r.result_count} results)`,
    start_utc: r.started_at_utc,
    end_utc: r.finished_at_utc,
    status: r.status,
    execution_id: r.id,
    routine_id: r.routine_id,
  }));
}

export const CALENDAR_PROVIDERS: CalendarProvider[] = [executionEvents, upcomingFireEvents];

export function calendarEvents(ctx: Context, fromUtc: string, toUtc: string, routineId?: number): CalendarAnswer {
  const events = CALENDAR_PROVIDERS.flatMap((p) => p(ctx, fromUtc, toUtc, routineId)).sort((a, b) => (a.start_utc < b.start_utc ? -1 : a.start_utc > b.start_utc ? 1 : 0));
  return { from_utc: fromUtc, to_utc: toUtc, events };
}
