/**
 * The optional window of every analytics answer: the last N days of
 * collection (papers first seen, runs started within it), or everything.
 * Spelled `30`, `30d` or `all`; one parser serves the HTTP query and the CLI flag.
 */
import { invalid } from '../errors.js';
import type { AnalyticsWindow } from '../wire/analytics.js';

export const MAX_WINDOW_DAYS = 3650;

export type { AnalyticsWindow } from '../wire/analytics.js';

const APPLIES_TO = 'papers first seen and runs started from from_utc to to_utc (the collection time, not the publication date)';

export function parseWindow(raw: string | null | undefined, now: Date, loc: (string | number)[] = ['query', 'window']): AnalyticsWindow {
  const text = (raw ?? '').trim().toLowerCase();
  if (text === '' || text === 'all') return { days: null, from_utc: null, to_utc: now.toISOString(), applies_to: APPLIES_TO };
  const m = /^(\d{1,5})d?$/.exec(text);
  const days = m ? Number(m[1]) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > MAX_WINDOW_DAYS) {
    throw invalid(loc, `window is a number of days from 1 to ${MAX_WINDOW_DAYS} (e.g. 30 or 30d) or all`, 'window_parsing', raw, { ge: 1, le: MAX_WINDOW_DAYS });
  }
  return { days, from_utc: new Date(now.getTime() - days * 86_400_000).toISOString(), to_utc: now.toISOString(), applies_to: APPLIES_TO };
}

/** Median and quartiles of sorted numbers (linear interpolation); null when empty. */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
