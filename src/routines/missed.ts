/**
 * Missed fires as reads show them. Fires that came due while svc was closed
 * are counted on every read, not only once a scheduler starts again: the
 * recorded ones (written by a scheduler's catch-up or a schedule change) plus
 * those a job has due now that are already late by the grace or more (they
 * can no longer run, whoever starts next). Fires late by less than the grace
 * are reported as pending: a scheduler starting now would still run them once.
 */
import type { Context } from '../context.js';
import { dueFires, type FireSpan } from '../scheduler/catch-up.js';
import { parseSchedule } from '../scheduler/cron.js';
import { missedTotals, offScheduleFires, type FireRow, type JobRow, type MissedTotals } from './jobs.js';
import type { MissedFireCount, MissedFireDetail } from '../wire/routines.js';

export const MISSED_DETAIL_LIMIT = 20;

function unhandled(ctx: Context, job: JobRow | undefined): { missed: FireSpan | null; late: FireSpan | null } {
  if (!job?.next_run_at_utc) return { missed: null, late: null };
  const now = ctx.clock.now();
  if (Date.parse(job.next_run_at_utc) > now.getTime()) return { missed: null, late: null };
  try {
    return dueFires(parseSchedule(job.schedule_cron, now), job.next_run_at_utc, now, job.misfire_grace_seconds);
  } catch {
    return { missed: null, late: null }; // an unreadable stored schedule: the scheduler logs and stops that job
  }
}

function detailOf(row: FireRow): MissedFireDetail {
  return {
    first_due_at_utc: row.first_due_at_utc,
    last_due_at_utc: row.due_at_utc,
    count: row.fire_count,
    // offScheduleFires reads a started or queued fire only when it was coalesced: it ran once, late.
    outcome: row.outcome === 'started' || row.outcome === 'queued' ? 'coalesced' : row.outcome,
    ran: row.outcome === 'started',
    execution_id: row.execution_id,
    recorded: true,
    recorded_at_utc: row.recorded_at_utc,
    reason: row.reason,
  };
}

/** `recorded`: the routine's recorded totals, when the caller read them already (with other routines'). */
export function missedFireCount(ctx: Context, routineId: number, job: JobRow | undefined, recorded: MissedTotals = missedTotals(ctx.db, routineId)): MissedFireCount {
  const live = unhandled(ctx, job);
  const liveLast = live.missed?.last.toISOString() ?? null;
  const last = [recorded.last, liveLast].filter((x): x is string => x !== null).sort().pop() ?? null;
  return { count: recorded.count + (live.missed?.count ?? 0), last_due_at_utc: last };
}

/** The spans a single routine's read lists: those still due on the job first, then the recorded ones, newest first. */
export function missedFireDetails(ctx: Context, routineId: number, job: JobRow | undefined): MissedFireDetail[] {
  const live = unhandled(ctx, job);
  const pending: MissedFireDetail[] = [];
  const note = (span: FireSpan, outcome: 'pending' | 'missed', reason: string) =>
    pending.push({ first_due_at_utc: span.first.toISOString(), last_due_at_utc: span.last.toISOString(), count: span.count, outcome, ran: false, execution_id: null, recorded: false, recorded_at_utc: null, reason });
  // One sentence for one fire or several (a span of ×N): "runs it once" / "runs them once".
  const them = (span: FireSpan) => (span.count > 1 ? ['them', 'they'] : ['it', 'it']);
  if (live.late) note(live.late, 'pending', `came due while no scheduler was running; a scheduler starting within the grace runs ${them(live.late)[0]} once`);
  if (live.missed) note(live.missed, 'missed', `came due while no scheduler was running, longer ago than the grace; ${them(live.missed)[1]} will not run`);
  const rows = offScheduleFires(ctx.db, routineId, MISSED_DETAIL_LIMIT);
  return [...pending, ...rows.map(detailOf)].slice(0, MISSED_DETAIL_LIMIT);
}

/** When the first fire counted in missed_fires came due (the watchdog's "since"); null when none is missed. */
export function firstMissedDue(ctx: Context, routineId: number, job: JobRow | undefined): string | null {
  const recorded = missedTotals(ctx.db, routineId).first;
  const live = unhandled(ctx, job).missed?.first.toISOString() ?? null;
  return [recorded, live].filter((x): x is string => x !== null).sort()[0] ?? null;
}
