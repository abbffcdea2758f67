/**
 * Routines: create, update, delete, activate, deactivate. Each change of the
 * routine and of its scheduler job happens in one transaction, whether or not
 * a scheduler runs in this process: the job row is what a scheduler (the
 * server's or the daemon's) follows. Fires that came due and were not handled
 * before a schedule change or a deactivation are recorded as missed, not lost.
 */
import type { Context } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { dueFires } from '../scheduler/catch-up.js';
import { parseSchedule } from '../scheduler/cron.js';
import { liveSince } from '../executions/admission.js';
import { runningExecutionOf } from '../executions/repo.js';
import { deleteJob, getJob, insertFire, putJob } from './jobs.js';
import { checkEntity } from './entity.js';
import { emptyQueryRefused } from './parameters.js';
import type { RoutineParameters } from './parameters.js';
import * as repo from './repo.js';
import { parseRoutineCreate, parseRoutineUpdate } from './schema.js';
import { routineDetail, routineViews } from './views.js';
import type { RoutineActivated, RoutineCreated, RoutineDeactivated, RoutineDeleted, RoutineDetail, RoutineList } from '../wire/routines.js';

export function requireRoutine(ctx: Context, id: number): repo.RoutineRow {
  const row = repo.getRoutine(ctx.db, id);
  if (!row) throw notFound('routine_not_found', `No routine ${id}; GET /api/routines (or \`svc routine list\`) lists them.`);
  return row;
}

function checkSavedConfiguration(ctx: Context, parameters: RoutineParameters): void {
  const id = parameters.saved_configuration_id;
  if (id !== null && !repo.savedConfigurationExists(ctx.db, id)) {
    throw invalid(['body', 'parameters', 'saved_configuration_id'], `No saved configuration ${id}`, 'not_found', id);
  }
}

function nextRun(ctx: Context, scheduleCron: string): string | null {
  const now = ctx.clock.now();
  return parseSchedule(scheduleCron, now).nextAfter(now)?.toISOString() ?? null;
}

/** Record the fires a job had due but nobody handled, before the job changes or goes. */
function settleOverdue(ctx: Context, routineId: number, why: string): void {
  const job = getJob(ctx.db, routineId);
  if (!job?.next_run_at_utc) return;
  const now = ctx.clock.now();
  if (Date.parse(job.next_run_at_utc) > now.getTime()) return;
  const due = dueFires(parseSchedule(job.schedule_cron, now), job.next_run_at_utc, now, 0); // grace 0: everything due counts
  if (!due.missed) return;
  insertFire(
    ctx.db,
    {
      routineId,
      trigger: 'schedule',
      outcome: 'missed',
      firstDueAtUtc: due.missed.first.toISOString(),
      dueAtUtc: due.missed.last.toISOString(),
      fireCount: due.missed.count,
      reason: `came due while no scheduler was running, and the routine was ${why} before one could run it`,
    },
    ctx.nowIso(),
  );
}

export function findRoutinesNamed(ctx: Context, name: string): number[] {
  return repo.routineIdsNamed(ctx.db, name);
}

/** @example createRoutine(ctx, { name: 'ecology', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'ecology', window_days: 7 } }) */
export function createRoutine(ctx: Context, body: unknown): RoutineCreated {
  const fields = parseRoutineCreate(body, ctx.clock.now());
  const entity = checkEntity(ctx, fields.entity);
  checkSavedConfiguration(ctx, fields.parameters);
  const values: repo.RoutineValues = { ...fields, entity };
  const now = ctx.nowIso();
  const id = ctx.db.transaction(() => {
    const id = repo.insertRoutine(ctx.db, values, now);
    if (values.is_active) putJob(ctx.db, id, values.schedule_cron, nextRun(ctx, values.schedule_cron), now);
    return id;
  })();
  return { id, name: values.name };
}

export function updateRoutine(ctx: Context, id: number, body: unknown): RoutineDetail {
  const row = requireRoutine(ctx, id);
  const changes = parseRoutineUpdate(body, ctx.clock.now());
  const before = repo.valuesOf(row);
  const { entity: rawEntity, ...rest } = changes;
  const values: repo.RoutineValues = { ...before, ...rest, entity: 'entity' in changes ? checkEntity(ctx, rawEntity) : before.entity };
  if (!values.parameters.query && !values.entity) throw emptyQueryRefused(['body', 'parameters']);
  if (changes.parameters) checkSavedConfiguration(ctx, values.parameters);
  const scheduleChanged = values.schedule_cron !== before.schedule_cron;
  const now = ctx.nowIso();
  ctx.db.transaction(() => {
    if (before.is_active && (!values.is_active || scheduleChanged)) settleOverdue(ctx, id, values.is_active ? 'given a new schedule' : 'deactivated');
    if (!values.is_active) deleteJob(ctx.db, id);
    else if (!before.is_active || scheduleChanged || !getJob(ctx.db, id)) putJob(ctx.db, id, values.schedule_cron, nextRun(ctx, values.schedule_cron), now);
    repo.updateRoutine(ctx.db, id, values, now);
  })();
  return routineDetail(ctx, requireRoutine(ctx, id));
}

/**
 * Delete the routine and its job in one transaction (its executions and corpus
 * stay). A run still going goes on and keeps what it finds, but its report is
 * delivered nowhere: the destinations went with the routine. The answer names it.
 */
export function deleteRoutine(ctx: Context, id: number): RoutineDeleted {
  return ctx.db.transaction(() => {
    requireRoutine(ctx, id);
    // Only a running execution is named: busyWith's fire-queue and lease-file look-ups would go unused.
    const running = runningExecutionOf(ctx.db, id, liveSince(ctx)) ?? null;
    const jobRemoved = deleteJob(ctx.db, id);
    repo.deleteRoutine(ctx.db, id);
    return { id, deleted: true as const, job_removed: jobRemoved, running_execution_id: running };
  })();
}

export function activateRoutine(ctx: Context, id: number): RoutineActivated {
  return ctx.db.transaction(() => {
    const row = requireRoutine(ctx, id);
    const job = getJob(ctx.db, id);
    if (row.is_active === 1 && job) return { id, is_active: true as const, next_run_at_utc: job.next_run_at_utc };
    const now = ctx.nowIso();
    // Fires while it was inactive were never due: the schedule starts again from now.
    const next = nextRun(ctx, row.schedule_cron);
    repo.setActive(ctx.db, id, true, now);
    putJob(ctx.db, id, row.schedule_cron, next, now);
    return { id, is_active: true as const, next_run_at_utc: next };
  })();
}

/** Take the routine off the schedule; the routine, its runs and its findings stay. */
export function deactivateRoutine(ctx: Context, id: number): RoutineDeactivated {
  return ctx.db.transaction(() => {
    const row = requireRoutine(ctx, id);
    if (row.is_active === 1) settleOverdue(ctx, id, 'deactivated');
    deleteJob(ctx.db, id);
    repo.setActive(ctx.db, id, false, ctx.nowIso());
    return { id, is_active: false as const };
  })();
}

export function getRoutineView(ctx: Context, id: number): RoutineDetail {
  return routineDetail(ctx, requireRoutine(ctx, id));
}

export function listRoutineViews(ctx: Context, activeOnly: boolean): RoutineList {
  const routines = routineViews(ctx, repo.listRoutines(ctx.db, activeOnly));
  return { routines, total: routines.length };
}
