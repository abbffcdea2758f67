/**
 * The schedule preview shell action: while a routine is being edited in the
 * window, its cron expression and zone as the service reads them — the
 * expression it would store, the sentence, the next five fires, or the
 * service's refusal in its words. It runs the service's own schedule code
 * (scheduler/cron.ts, scheduler/describe.ts), so the page never carries a
 * second cron implementation; nothing is stored.
 */
import { SvcError } from '../errors.js';
import { CronSyntaxError, parseSchedule } from '../scheduler/cron.js';
import { describeSchedule } from '../scheduler/describe.js';
import type { SchedulePreview } from '../wire/routines.js';

export const PREVIEW_FIRE_COUNT = 5;

/** `cron` as typed (it may carry its own CRON_TZ=), `timezone` an IANA zone or empty/UTC for UTC. */
export function schedulePreview(body: unknown, now: Date): SchedulePreview {
  const { cron, timezone } = (body ?? {}) as { cron?: unknown; timezone?: unknown };
  if (typeof cron !== 'string' || (timezone !== undefined && timezone !== null && typeof timezone !== 'string')) {
    throw new SvcError(400, 'invalid_body', 'The schedule preview takes a JSON body {"cron": "<five fields>", "timezone": "<IANA zone>" or null}.');
  }
  const zone = typeof timezone === 'string' && timezone.trim() && timezone.trim() !== 'UTC' ? timezone.trim() : null;
  const expression = zone && !cron.trim().startsWith('CRON_TZ=') ? `CRON_TZ=${zone} ${cron.trim()}` : cron.trim();
  try {
    const schedule = parseSchedule(expression, now);
    return {
      expression: schedule.expression,
      sentence: describeSchedule(schedule.expression),
      timezone: schedule.timezone ?? 'UTC',
      next_fires: schedule.nextRuns(PREVIEW_FIRE_COUNT, now).map((d) => d.toISOString()),
      refusal: null,
    };
  } catch (err) {
    if (!(err instanceof CronSyntaxError)) throw err;
    return { expression, sentence: null, timezone: zone ?? 'UTC', next_fires: [], refusal: { reason: 'cron_invalid', message: err.message } };
  }
}
