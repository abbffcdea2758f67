/** Publication volume: papers per publication month, split by source or subject category. */
import type { Context } from '../context.js';
import * as repo from './repo.js';
import type { AnalyticsWindow } from './window.js';
import type { Volume } from '../wire/analytics.js';

export const VOLUME_SPLITS = ['source', 'category'] as const;
export type VolumeSplit = (typeof VOLUME_SPLITS)[number];
export const VOLUME_TOP = { min: 1, max: 50, default: 10 };
/** Gaps between the first and last month are filled with zeros up to this span. */
const MAX_FILLED_MONTHS = 1200;

function monthsBetween(first: string, last: string): string[] | null {
  const [y0, m0] = first.split('-').map(Number) as [number, number];
  const [y1, m1] = last.split('-').map(Number) as [number, number];
  const span = (y1 - y0) * 12 + (m1 - m0) + 1;
  if (!(span > 0) || span > MAX_FILLED_MONTHS) return null;
  return Array.from({ length: span }, (_, i) => {
    const n = y0 * 12 + (m0 - 1) + i;
    return `${String(Math.floor(n / 12)).padStart(4, '0')}-${String((n % 12) + 1).padStart(2, '0')}`;
  });
}

export function publicationVolume(ctx: Context, window: AnalyticsWindow, split: VolumeSplit = 'source', top = VOLUME_TOP.default): Volume {
  const from = window.from_utc;
  const totals = repo.monthTotals(ctx.db, from).filter((r) => /^\d{4}-\d{2}$/.test(r.month));
  const rows = (split === 'source' ? repo.monthBySource : repo.monthByCategory)(ctx.db, from);
  const keyTotals = new Map<string, number>();
  for (const r of rows) keyTotals.set(r.series, (keyTotals.get(r.series) ?? 0) + r.n);
  const ranked = [...keyTotals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const kept = new Set(ranked.slice(0, top).map(([k]) => k));
  const byMonth = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const key = kept.has(r.series) ? r.series : 'other';
    const by = byMonth.get(r.month) ?? {};
    by[key] = (by[key] ?? 0) + r.n;
    byMonth.set(r.month, by);
  }
  const totalOf = new Map(totals.map((r) => [r.month, r.n]));
  const monthList = totals.length ? (monthsBetween(totals[0]!.month, totals.at(-1)!.month) ?? totals.map((r) => r.month)) : [];
  const precision = repo.precisionCounts(ctx.db, from);
  const others = ranked.slice(top);
  return {
    view: 'publication-volume',
    window,
    split,
    months: monthList.map((month) => ({ month, total: totalOf.get(month) ?? 0, by: byMonth.get(month) ?? {} })),
    series: [
      ...ranked.slice(0, top).map(([key, total]) => ({ key, total })),
      ...(others.length ? [{ key: 'other', total: others.reduce((n, [, t]) => n + t, 0), keys: others.length }] : []),
    ],
    totals: {
      dated_papers: totals.reduce((n, r) => n + r.n, 0),
      year_only_papers: precision.year_only,
      undated_papers: precision.undated,
      series_keys: ranked.length,
    },
    method:
      `Papers whose publication date is known to the month or day, counted per publication month (YYYY-MM); papers first seen in the window only. ` +
      `Split by ${split === 'source' ? 'source: a paper counts once under every source that holds a record of it, so a month\'s split can add up to more than its total' : 'subject category as the sources gave them: a paper counts once under each of its categories, and papers with none appear in no split'}. ` +
      `The ${top} largest series are named; the rest are summed as "other". Papers dated only to the year and undated papers are counted apart, never placed in a month. Months between the first and last are listed with zeros.`,
  };
}
