/** Routine health: new results per run and a quiet flag judged against the routine's own history. */
import type { Context } from '../context.js';
import { listRoutines } from '../routines/repo.js';
import * as repo from './repo.js';
import { quantile, round1, type AnalyticsWindow } from './window.js';
import type { RoutineHealth, RoutineHealthRow } from '../wire/analytics.js';

export const HEALTH_RUNS = { min: 1, max: 200, default: 20 };

/** Thresholds of the quiet flag (also the watchdog's "gone quiet" finding). */
export const QUIET = {
  /** The latest completed runs that must all have found nothing new. */
  recent_runs: 3,
  /** Completed runs before those needed to have a history to compare with. */
  min_history_runs: 3,
  /** Mean new papers per run in that history at or above which silence is unusual. */
  min_history_mean_new: 1,
};

export interface QuietJudgement {
  quiet: boolean | null;
  reason: string;
  recent_new: number[];
  history_mean_new: number | null;
  recent_results: number[];
  history_mean_results: number | null;
}

/** Judge quietness from completed runs, newest first. */
export function judgeQuiet(completed: repo.HealthRun[]): QuietJudgement {
  const recent = completed.slice(0, QUIET.recent_runs);
  const history = completed.slice(QUIET.recent_runs);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  const base = { recent_new: recent.map((r) => r.new_count), recent_results: recent.map((r) => r.result_count) };
  if (recent.length < QUIET.recent_runs || history.length < QUIET.min_history_runs) {
    return { quiet: null, reason: `needs ${QUIET.recent_runs + QUIET.min_history_runs} completed runs to compare with its own history; has ${completed.length}`, history_mean_new: null, history_mean_results: null, ...base };
  }
  const historyMean = mean(history.map((r) => r.new_count))!;
  const historyResults = mean(history.map((r) => r.result_count))!;
  const silent = recent.every((r) => r.new_count === 0);
  const quiet = silent && historyMean >= QUIET.min_history_mean_new;
  const reason = quiet
    ? `the last ${QUIET.recent_runs} completed runs found no new paper; before them it found ${round1(historyMean)} new per run`
    : silent
      ? `the last ${QUIET.recent_runs} runs found nothing new, but its history averaged only ${round1(historyMean)} new per run (below ${QUIET.min_history_mean_new})`
      : 'recent runs still find new papers';
  return { quiet, reason, history_mean_new: round1(historyMean), history_mean_results: round1(historyResults), ...base };
}

export function healthOfRoutine(ctx: Context, routine: { id: number; name: string; is_active: number }, window: AnalyticsWindow, runs: number): RoutineHealthRow {
  const rows = repo.routineRuns(ctx.db, routine.id, window.from_utc, runs);
  const completed = rows.filter((r) => r.status === 'completed');
  const news = completed.map((r) => r.new_count).sort((a, b) => a - b);
  const judgement = judgeQuiet(completed);
  return {
    routine_id: routine.id,
    name: routine.name,
    is_active: routine.is_active === 1,
    runs_considered: rows.length,
    completed_runs: completed.length,
    failed_runs: rows.filter((r) => r.status === 'failed').length,
    interrupted_or_cancelled_runs: rows.filter((r) => r.status === 'interrupted' || r.status === 'cancelled').length,
    new_per_run: {
      mean: round1(news.length ? news.reduce((a, b) => a + b, 0) / news.length : null),
      median: round1(quantile(news, 0.5)),
      last: completed[0]?.new_count ?? null,
    },
    quiet: judgement.quiet,
    quiet_reason: judgement.reason,
    runs: rows.map((r) => ({ execution_id: r.id, status: r.status, started_at_utc: r.started_at_utc, result_count: r.result_count, new_count: r.new_count })),
  };
}

export function routineHealth(ctx: Context, window: AnalyticsWindow, runs = HEALTH_RUNS.default): RoutineHealth {
  const routines = listRoutines(ctx.db, false).map((r) => healthOfRoutine(ctx, r, window, runs));
  return {
    view: 'routine-health',
    window,
    routines,
    totals: { routines: routines.length, quiet: routines.filter((r) => r.quiet === true).length, not_judged: routines.filter((r) => r.quiet === null).length },
    thresholds: { runs_per_routine: runs, ...QUIET },
    method:
      `Per routine, its latest settled runs started in the window (at most ${runs}), newest first, with the papers each returned and those new to the corpus. ` +
      `quiet is true when the last ${QUIET.recent_runs} completed runs found no new paper while the ${QUIET.min_history_runs} or more completed runs before them ` +
      `averaged at least ${QUIET.min_history_mean_new} new per run: quiet against its own history, not against other routines. quiet is null when there are too few runs to judge.`,
  };
}
