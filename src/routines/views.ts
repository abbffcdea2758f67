/** Routines as the API and the CLI show them. */
import type { Context } from '../context.js';
import { parseSchedule } from '../scheduler/cron.js';
import { describeSchedule } from '../scheduler/describe.js';
import { jobsOf, lastFiresOf, missedTotalsOf, type FireRow, type JobRow, type MissedTotals } from './jobs.js';
import { deliverySummaries } from '../delivery/summary.js';
import { busyLookup, type Busy } from './dispatch.js';
import { missedFireCount, missedFireDetails } from './missed.js';
import { lastExecutionsOf, valuesOf, type LastExecution, type RoutineRow } from './repo.js';
import type { DeliverySummary } from '../wire/deliveries.js';
import type { RoutineDetail, RoutineView } from '../wire/routines.js';

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

/** Everything a routine's read shows beyond its row, gathered for all the routines read at once. */
export interface RoutineFacts {
  job(id: number): JobRow | undefined;
  busy(id: number): Busy | null;
  lastFire(id: number): FireRow | undefined;
  lastExecution(id: number): LastExecution | undefined;
  missedTotals(id: number): MissedTotals;
  deliverySummary(id: number): DeliverySummary;
}

/**
 * One grouped query per kind of fact, whatever the number of routines: the
 * routine list used to spend several queries on each of its 200 routines.
 */
function gatherFacts(ctx: Context, ids: readonly number[]): RoutineFacts {
  const jobs = new Map(jobsOf(ctx.db, ids).map((job) => [job.routine_id, job]));
  const fires = lastFiresOf(ctx.db, ids);
  const runs = lastExecutionsOf(ctx.db, ids);
  const missed = missedTotalsOf(ctx.db, ids);
  const deliveries = deliverySummaries(ctx, ids);
  return {
    job: (id) => jobs.get(id),
    busy: busyLookup(ctx, ids),
    lastFire: (id) => fires.get(id),
    lastExecution: (id) => runs.get(id),
    missedTotals: (id) => missed.get(id) ?? { count: 0, first: null, last: null },
    deliverySummary: (id) => deliveries.get(id)!,
  };
}

/** Routines as the list shows them: without the missed fires' details. */
export function routineViews(ctx: Context, rows: readonly RoutineRow[]): RoutineView[] {
  const facts = gatherFacts(ctx, rows.map((row) => row.id));
  return rows.map((row) => routineView(ctx, row, facts));
}

/** One routine as its own read shows it: with the missed fires' details, listed where the list's view has none (before the delivery summary). */
export function routineDetail(ctx: Context, row: RoutineRow): RoutineDetail {
  const facts = gatherFacts(ctx, [row.id]);
  const { delivery_summary, ...view } = routineView(ctx, row, facts);
  return { ...view, missed_fire_details: missedFireDetails(ctx, row.id, facts.job(row.id)), delivery_summary };
}

export function routineView(ctx: Context, row: RoutineRow, facts: RoutineFacts): RoutineView {
  const values = valuesOf(row);
  const job = facts.job(row.id);
  const busy = facts.busy(row.id);
  const fire = facts.lastFire(row.id);
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
    last_execution: facts.lastExecution(row.id) ?? null,
    last_fire: fire
      ? { trigger: fire.trigger, outcome: fire.outcome, due_at_utc: fire.due_at_utc, fire_count: fire.fire_count, execution_id: fire.execution_id, reason: fire.reason }
      : null,
    missed_fires: missedFireCount(ctx, row.id, job, facts.missedTotals(row.id)),
    delivery_summary: facts.deliverySummary(row.id),
  };
}
