/** Discovery lag: days from publication to first seen, overall and per source. */
import type { Context } from '../context.js';
import * as repo from './repo.js';
import { quantile, round1, type AnalyticsWindow } from './window.js';
import type { DiscoveryLag, LagFigures } from '../wire/analytics.js';

/** Histogram buckets (upper bound in days, inclusive). */
export const LAG_BUCKETS = [
  { label: 'before publication', max: -1 },
  { label: '0-7 days', max: 7 },
  { label: '8-30 days', max: 30 },
  { label: '31-90 days', max: 90 },
  { label: '91-365 days', max: 365 },
  { label: 'over a year', max: Infinity },
];

function describe(sorted: number[]): LagFigures {
  return {
    papers: sorted.length,
    median_days: round1(quantile(sorted, 0.5)),
    p25_days: round1(quantile(sorted, 0.25)),
    p75_days: round1(quantile(sorted, 0.75)),
    seen_before_publication: sorted.filter((x) => x < 0).length,
  };
}

export function discoveryLag(ctx: Context, window: AnalyticsWindow): DiscoveryLag {
  const from = window.from_utc;
  const lags = repo.corpusLags(ctx.db, from);
  const buckets = LAG_BUCKETS.map((b) => ({ label: b.label, papers: 0 }));
  for (const lag of lags) buckets[LAG_BUCKETS.findIndex((b) => lag <= b.max)]!.papers++;
  const perSource = new Map<string, number[]>();
  for (const r of repo.sourceLags(ctx.db, from)) {
    const list = perSource.get(r.source) ?? [];
    list.push(r.lag);
    perSource.set(r.source, list);
  }
  const sources = [...perSource.entries()]
    .map(([source, list]) => ({ source, ...describe(list.sort((a, b) => a - b)) }))
    .sort((a, b) => (a.median_days ?? 0) - (b.median_days ?? 0) || a.source.localeCompare(b.source));
  return {
    view: 'discovery-lag',
    window,
    overall: describe(lags),
    buckets,
    sources,
    excluded: repo.lagExcluded(ctx.db, from),
    method:
      'Lag = the UTC date a paper was first seen minus its publication date, in days; only papers dated to the day count (month and year dates would invent a lag; they are counted in excluded). ' +
      'overall uses the paper\'s first sighting by any source; each source row uses that source\'s own first sighting of the paper. median, p25 and p75 interpolate linearly. ' +
      'A negative lag (seen before the stated publication date, e.g. online-first before the issue date) is kept and counted in seen_before_publication.',
  };
}
