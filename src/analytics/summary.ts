/** Summary (plain counts) and overview (the headline of every view). */
import type { Context } from '../context.js';
import { sourceContribution } from './contribution.js';
import { discoveryLag } from './lag.js';
import * as repo from './repo.js';
import { HEALTH_RUNS, routineHealth } from './routine-health.js';
import { publicationVolume } from './volume.js';
import type { AnalyticsWindow } from './window.js';
import type { Summary } from '../wire/analytics.js';

export function analyticsSummary(ctx: Context, window: AnalyticsWindow): Summary {
  const from = window.from_utc;
  return {
    view: 'summary',
    window,
    corpus: repo.corpusCounts(ctx.db, from),
    distinct: repo.distinctCounts(ctx.db, from),
    executions: repo.executionCounts(ctx.db, from),
    routines: repo.routineCounts(ctx.db),
    lifecycle_events: repo.lifecycleEventCount(ctx.db, from),
    method:
      'Counts over the whole tables, not pages. corpus.documents_total counts every stored paper; the other corpus counts are of papers first seen in the window. ' +
      'executions counts runs started in the window by status; routines counts every routine (the window does not apply); lifecycle_events counts events detected in the window.',
  };
}

export function analyticsOverview(ctx: Context, window: AnalyticsWindow) {
  const summary = analyticsSummary(ctx, window);
  const volume = publicationVolume(ctx, window, 'source', 5);
  const sources = sourceContribution(ctx, window);
  const lag = discoveryLag(ctx, window);
  const health = routineHealth(ctx, window, HEALTH_RUNS.default);
  return {
    view: 'overview',
    window,
    corpus: summary.corpus,
    executions: summary.executions,
    routines: { ...summary.routines, quiet: health.routines.filter((r) => r.quiet === true).map((r) => ({ routine_id: r.routine_id, name: r.name })) },
    lifecycle_events: summary.lifecycle_events,
    recent_months: volume.months.slice(-12).map((m) => ({ month: m.month, total: m.total })),
    top_sources: sources.sources.slice(0, 5).map((s) => ({ source: s.source, delivered: s.delivered, only_this_source: s.only_this_source })),
    discovery_lag: { median_days: lag.overall.median_days, papers: lag.overall.papers },
    method:
      'The headline of each view, computed the same way as the view itself: summary (counts), publication-volume (the last 12 listed months), ' +
      `source-contribution (the five sources that delivered most), discovery-lag (corpus median) and routine-health (routines flagged quiet over their last ${HEALTH_RUNS.default} settled runs, the view's default). ` +
      'Read a view for its full answer and method.',
  };
}
