/**
 * The window's one background poll, kept cheap: every 30 s (and when the tab
 * comes back to the front) it reads the routines list once for the review
 * badge; only when notifications are allowed does it also read the active
 * runs (GET /api/executions/active) and, for each run that has just left that
 * list, the run itself (and its routine, for notify_on_complete). A hidden
 * tab without notifications polls nothing. Chromium slows a background tab's
 * timers to once a minute after a while: the news is then up to a minute late.
 */
import { api } from '../api/client.js';
import { deliveries } from '../api/deliveries.js';
import type { ActiveRuns, RunDetail } from '../api/executions.js';
import { notificationsOn, notify, startedHere } from './notifications.js';
import { refreshReviewCount, reviewCount } from './review-count.js';

export const WATCH_INTERVAL_MS = 30_000;

let active: Set<number> | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let busy = false;

const routineNotifies = new Map<number, boolean>();

async function runFinished(id: number): Promise<void> {
  const run = await api.get<RunDetail>(`/api/executions/${id}`);
  const words = `${run.status}${run.status === 'completed' ? `: ${run.result_count} papers, ${run.new_count} new` : ''}`;
  if (startedHere().includes(id)) return notify(`svc: run ${id} finished`, `${run.type} “${run.query}” ${words}`, `/runs/${id}`, `run-${id}`);
  if (run.routine_id === null) return;
  if (!routineNotifies.has(run.routine_id)) {
    const routine = await deliveries.routine(run.routine_id).catch(() => null);
    routineNotifies.set(run.routine_id, routine?.notify_on_complete ?? false);
  }
  if (routineNotifies.get(run.routine_id)) notify(`svc: routine ${run.routine_id} ran`, `Run ${id} ${words}`, `/runs/${id}`, `run-${id}`);
}

async function watchRuns(): Promise<void> {
  const now = new Set((await api.get<ActiveRuns>('/api/executions/active')).executions.map((e) => e.id));
  const before = active;
  active = now;
  if (!before) return;
  for (const id of before) if (!now.has(id)) await runFinished(id).catch(() => undefined);
}

/** One pass; errors are left for the pages to show (a backend restarting says so there). */
export async function tick(): Promise<void> {
  if (busy) return;
  const on = notificationsOn();
  if (document.visibilityState === 'hidden' && !on) return;
  busy = true;
  try {
    const before = reviewCount.value;
    const after = await refreshReviewCount().catch(() => before);
    if (on && before !== null && after !== null && after > before) notify('svc: a report awaits review', `${after} ${after === 1 ? 'report waits' : 'reports wait'} for review before delivery.`, '/review', 'review');
    if (on) await watchRuns().catch(() => undefined);
    else active = null; // what ran while notifications were off is not news
  } finally {
    busy = false;
  }
}

export function startWatcher(): () => void {
  if (timer) return stopWatcher;
  void tick();
  timer = setInterval(() => void tick(), WATCH_INTERVAL_MS);
  document.addEventListener('visibilitychange', onVisible);
  return stopWatcher;
}

const onVisible = () => document.visibilityState === 'visible' && void tick();

function stopWatcher(): void {
  if (timer) clearInterval(timer);
  timer = null;
  document.removeEventListener('visibilitychange', onVisible);
}
