/**
 * Calendar events: what ran (executions) in a window of dates, and upcoming
 * routine fires (routines/upcoming-fires.ts). The SQL lives in each room's repo.
 */
import type { Context } from '../context.js';
import { executionsStartedBetween } from '../executions/repo.js';
import { upcomingFireEvents } from '../routines/upcoming-fires.js';

export interface CalendarEvent {
  id: string;
  kind: string;
  title: string;
  start_utc: string;
  end_utc: string | null;
  status: string;
  execution_id?: number;
  routine_id?: number | null;
}

export type CalendarProvider = (ctx: Context, fromUtc: string, toUtc: string) => CalendarEvent[];

function executionEvents(ctx: Context, fromUtc: string, toUtc: string): CalendarEvent[] {
  return executionsStartedBetween(ctx.db, fromUtc, toUtc).map((r) => ({
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

export function calendarEvents(ctx: Context, fromUtc: string, toUtc: string) {
  const events = CALENDAR_PROVIDERS.flatMap((p) => p(ctx, fromUtc, toUtc)).sort((a, b) => (a.start_utc < b.start_utc ? -1 : a.start_utc > b.start_utc ? 1 : 0));
  return { from_utc: fromUtc, to_utc: toUtc, events };
}
