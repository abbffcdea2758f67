/** The scheduler's jobs as GET /api/scheduler/jobs and `svc routine jobs` show them. */
import type { Context } from '../context.js';
import { executionManager } from '../executions/manager.js';
import { parseSchedule } from '../scheduler/cron.js';
import { lastFire, listJobs, MISFIRE_GRACE_SECONDS } from './jobs.js';
import { getRoutine } from './repo.js';
import type { LeaseHolder } from '../scheduler/lease.js';

export const DIALECT =
  'five fields (minute hour day-of-month month day-of-week), UTC unless prefixed CRON_TZ=<IANA zone>; names, ranges, steps, lists, ? as *, L W #; nicknames @yearly @annually @monthly @weekly @daily @midnight @hourly; no seconds, no @reboot';

/** not_in_this_process: asked from the CLI, which never runs a scheduler (the server or daemon does). */
export type SchedulerState = 'running' | 'standby' | 'disabled' | 'not_started' | 'not_in_this_process';

/** `heldBy`: on standby, the process that schedules instead. */
export function schedulerJobs(ctx: Context, state: SchedulerState, heldBy: LeaseHolder | null = null) {
  const now = ctx.clock.now();
  const jobs = listJobs(ctx.db).map((job) => {
    const routine = getRoutine(ctx.db, job.routine_id);
    let nextRuns: string[] = [];
    let timezone: string | null = null;
    try {
      const schedule = parseSchedule(job.schedule_cron, now);
      timezone = schedule.timezone;
      nextRuns = schedule.nextRuns(3, now).map((d) => d.toISOString());
    } catch {
      // an unreadable stored schedule lists no upcoming fires
    }
    const fire = lastFire(ctx.db, job.routine_id);
    return {
      id: job.id,
      routine_id: job.routine_id,
      routine_name: routine?.name ?? null,
      routine_active: routine ? routine.is_active === 1 : null,
      schedule_cron: job.schedule_cron,
      timezone: timezone ?? 'UTC',
      next_run_at_utc: job.next_run_at_utc,
      overdue: job.next_run_at_utc !== null && Date.parse(job.next_run_at_utc) <= now.getTime(),
      next_runs: nextRuns,
      misfire_grace_seconds: job.misfire_grace_seconds,
      last_fire: fire ? { trigger: fire.trigger, outcome: fire.outcome, due_at_utc: fire.due_at_utc, execution_id: fire.execution_id, reason: fire.reason } : null,
    };
  });
  return {
    scheduler: { state, in_this_process: state === 'running', held_by: heldBy, misfire_grace_seconds: MISFIRE_GRACE_SECONDS, dialect: DIALECT },
    jobs,
    total: jobs.length,
    queued_fires: executionManager(ctx).queued(),
  };
}
