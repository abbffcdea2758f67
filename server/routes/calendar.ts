import { calendarEvents } from '../../src/calendar/service.js';
import { invalid } from '../../src/errors.js';
import { queryOf } from '../body.js';
import { route } from '../registry.js';
import { intQuery } from '../params.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function instant(raw: string | null, name: string, fallback: Date): string {
  if (raw === null) return fallback.toISOString();
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(ms)) throw invalid(['query', name], 'Input should be a date (YYYY-MM-DD) or an ISO-8601 instant', 'datetime_parsing', raw);
  return new Date(ms).toISOString();
}

export const calendarRoutes = [
  route('GET', '/api/calendar/events', (event, { ctx }) => {
    const q = queryOf(event);
    const now = ctx.clock.now().getTime();
    const from = instant(q.get('from'), 'from', new Date(now - 30 * DAY_MS));
    const to = instant(q.get('to'), 'to', new Date(now + 30 * DAY_MS));
    if (from > to) throw invalid(['query', 'to'], 'to is before from', 'date_order', q.get('to'));
    // routine_id (not in the spec's table, an addition): one routine's events, for its page's next fires.
    const routine = q.get('routine_id');
    return calendarEvents(ctx, from, to, routine === null ? undefined : intQuery(q, 'routine_id', 0, 1, Number.MAX_SAFE_INTEGER));
  }),
];
