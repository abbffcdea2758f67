/** Routines as the API and the CLI show them. */
import type { Context } from '../context.js';
import { parseSchedule } from '../scheduler/cron.js';
import { describeSchedule } from '../scheduler/describe.js';
import { getJob, lastFire } from './jobs.js';
import { deliverySummary } from '../delivery/summary.js';
import { busyWith } from './dispatch.js';
import { missedFires } from './missed.js';
import { lastExecutionOf, valuesOf, type RoutineRow } from './repo.js';

export const PREVIEW_FIRES = 3;

/** The next few fire times of an expression from now (also the CLI's preview). */
export function upcomingFires(ctx: Context, scheduleCron: string, n = PREVIEW_FIRES): string[] {
  const now = ctx.clock.now();
  try {
    return parseSchedule(scheduleCron, now).nextRuns(n, now).map((d) => d.toISOString());
  } catch {
    return [];
  }
}

export function routineView(ctx: Context, row: RoutineRow, options: { details: boolean }) {
  const values = valuesOf(row);
  const job = getJob(ctx.db, row.id);
  const busy = busyWith(ctx, row.id);
  const fire = lastFire(ctx.db, row.id);
  let timezone: string | null = null;
  try {
    timezone = parseSchedule(row.schedule_cron, ctx.clock.now()).timezone;
  } catch {
    // a stored schedule that no longer parses shows no zone and no upcoming fires
  }
  return {
    id: row.id,
    ...values,
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
    schedule: {
      timezone: timezone ?? 'UTC',
      /** The schedule in words ("every Monday at 08:00, Europe/Berlin"), for the window's and other readers' views. */
      sentence: describeSchedule(row.schedule_cron),
      job_id: job?.id ?? null,
      next_run_at_utc: job?.next_run_at_utc ?? null,
      next_runs: values.is_active ? upcomingFires(ctx, row.schedule_cron) : [],
      misfire_grace_seconds: job?.misfire_grace_seconds ?? null,
    },
    running_execution_id: busy?.executionId ?? null,
    queued_fire_at_utc: busy?.queuedAtUtc ?? null,
    last_execution: lastExecutionOf(ctx.db, row.id) ?? null,
    last_fire: fire
      ? { trigger: fire.trigger, outcome: fire.outcome, due_at_utc: fire.due_at_utc, fire_count: fire.fire_count, execution_id: fire.execution_id, reason: fire.reason }
      : null,
    ...missedFires(ctx, row.id, job, options.details),
    delivery_summary: deliverySummary(ctx, row.id),
  };
}
