/**
 * How many reports wait for review, across routines: the sum of each
 * routine's delivery summary (one GET /api/routines; the summary's
 * awaiting_review is counted by the service). Shown as the badge beside
 * Review; read again by the watcher (watch/watcher.ts) and after a Deliver or
 * Skip.
 */
import { signal } from '@preact/signals';
import { deliveries, type RoutineBrief } from '../api/deliveries.js';
import { setNavBadge } from '../ui/nav-badges.js';

export const reviewCount = signal<number | null>(null);

/** The routine list last read for the count: Review starts asking from it while it reads the list again. */
export const lastRoutineList = signal<RoutineBrief[] | null>(null);

const wording = (n: number) => `${n} ${n === 1 ? 'report' : 'reports'} awaiting review`;

/** Count from a routine list already read (the Review page has one); answers the count. */
export function countFrom(routines: RoutineBrief[]): number {
  const n = routines.reduce((sum, r) => sum + (r.delivery_summary?.awaiting_review ?? 0), 0);
  reviewCount.value = n;
  lastRoutineList.value = routines;
  setNavBadge('review', n, wording(n));
  return n;
}

export async function refreshReviewCount(): Promise<number> {
  return countFrom((await deliveries.routines()).routines);
}
