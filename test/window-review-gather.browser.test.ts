/**
 * Review's gathering in Chromium (`svc window --no-open --json`, a fallback
 * backend) with ten routines that each hold a report: the page asks each
 * routine's held deliveries a few at a time (routines/gather.ts: never more
 * than GATHER_AT_ONCE at once, so a Deliver pressed meanwhile is not queued
 * behind them), and shows each group as its answer arrives while another
 * routine's answer is still held back. It starts from the routine list the
 * window read for its review badge while it reads the list again: a routine
 * that stopped holding since is dropped once the fresh list is in.
 */
import * as assert from 'uvu/assert';
import path from 'node:path';
import { browserTests } from './_chromium.js';
import { backendRequest, openPage, startWindow, windowDirs, type BrowserWindow } from './_window.js';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { createRoutine } from '../src/routines/service.js';
import { insertExecution } from '../src/executions/repo.js';
import { insertDelivery, insertTarget } from '../src/delivery/repo.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
const dirs = windowDirs();
const ROUTINES = 10;
/** The bound the page keeps (web/src/routines/gather.ts). */
const AT_ONCE = 4;
const held: { routineId: number; executionId: number }[] = [];

/** Ten routines, each with a review-mode folder destination holding one completed run's report. */
function seed(): void {
  const ctx = createContext({ env: { ...process.env, ...dirs.env }, log: silentLogger });
  try {
    const now = new Date().toISOString();
    for (let i = 0; i < ROUTINES; i++) {
      const { id } = createRoutine(ctx, { name: `held ${i}`, schedule_cron: '0 6 * * 1', parameters: { repositories: ['crossref'], query: `topic ${i}`, window_days: 7 }, is_active: false });
      const target = insertTarget(ctx.db, { routineId: id, channel: 'folder', enabled: true, mode: 'review', target: path.join(dirs.root, `held-${i}`), secret: null }, now);
      const spec = { type: 'routine', repositories: ['crossref'], query: `topic ${i}`, keywords: [], dateFrom: null, dateTo: null, maxResults: 10, aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: id, author: null };
      const run = insertExecution(ctx.db, spec as never, { pid: process.pid, runtimeId: ctx.runtimeId, role: 'server' }, now, null, null);
      ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = ? WHERE id = ?`).run(now, run);
      insertDelivery(ctx.db, { routineId: id, executionId: run, targetId: target, origin: 'target', channel: 'folder', mode: 'review', state: 'awaiting_review' }, now);
      held.push({ routineId: id, executionId: run });
    }
  } finally {
    ctx.close();
  }
}

test.before(async () => {
  seed();
  win = await startWindow(executablePath(), { dirs });
});
test.after(async () => {
  await win?.close();
});

test(`/review asks at most ${AT_ONCE} routines at once and shows each group as it arrives, the others still gathering`, async () => {
  const { page, context } = await win.open('/');
  try {
    const first = held[0]!;
    let inFlight = 0;
    let most = 0;
    let asked = 0;
    let releaseFirst!: () => void;
    const firstHeldBack = new Promise<void>((resolve) => (releaseFirst = resolve));
    // Each routine's answer takes a while (so requests asked together overlap); the first routine's waits until released.
    await page.route(/\/api\/routines\/\d+\/deliveries\?/, async (route: any) => {
      if (route.request().method() !== 'GET') return route.continue();
      asked++;
      most = Math.max(most, ++inFlight);
      if (route.request().url().includes(`/api/routines/${first.routineId}/deliveries`)) await firstHeldBack;
      else await new Promise((resolve) => setTimeout(resolve, 150));
      const response = await route.fetch();
      inFlight--;
      await route.fulfill({ response });
    });

    await page.locator('nav.nav a[href="/review"]').click();
    const last = held.at(-1)!;
    await page.locator(`[data-execution="${last.executionId}"]`).waitFor({ timeout: 20_000 });
    assert.is(await page.locator(`[data-execution="${first.executionId}"]`).count(), 0, "the first routine's report is not in yet");
    assert.is(await page.locator(`section[aria-labelledby="review-${first.routineId}"]`).getAttribute('aria-busy'), 'true', 'its group says it is still gathering');
    assert.match(await page.locator('main').textContent(), `Gathering from ${ROUTINES} routines…`);
    assert.is(await page.locator('.held').count(), ROUTINES - 1, 'every other group shows its report');

    releaseFirst();
    await page.locator(`[data-execution="${first.executionId}"]`).waitFor();
    assert.match(await page.locator('main').textContent(), `${ROUTINES} reports awaiting review in ${ROUTINES} routines.`);
    assert.is(asked, ROUTINES, 'each routine asked once');
    assert.ok(most <= AT_ONCE, `at most ${AT_ONCE} at once (saw ${most})`);
    assert.ok(most >= 2, `asked in parallel (saw ${most} at once)`);
  } finally {
    await context.close();
  }
});

test('/review asks from the list read for the badge before its own read of the list answers, then drops a routine that stopped holding', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/'));
  try {
    const badge = page.locator('nav.nav a[href="/review"] .nav-badge');
    await badge.waitFor({ timeout: 20_000 });
    assert.match(await badge.textContent(), `${ROUTINES}`, 'the badge read the list with every routine holding');
    // Since the badge's read, one routine's report was skipped elsewhere (the CLI, another tab).
    const gone = held[1]!;
    const delivery = (await win.api('GET', `/api/routines/${gone.routineId}/deliveries?state=awaiting_review`)).deliveries[0];
    assert.is((await backendRequest(win.session, 'POST', `/api/deliveries/${delivery.id}/skip`)).status, 200);
    let releaseList!: () => void;
    const listHeldBack = new Promise<void>((resolve) => (releaseList = resolve));
    await page.route(/\/api\/routines$/, async (route: any) => {
      await listHeldBack;
      await route.continue();
    });

    await page.locator('nav.nav a[href="/review"]').click();
    await page.locator(`[data-execution="${held[0]!.executionId}"]`).waitFor();
    const stopped = page.locator(`section[aria-labelledby="review-${gone.routineId}"]`);
    await stopped.getByText('Nothing of this routine awaits review any more.').waitFor();

    releaseList();
    await stopped.waitFor({ state: 'detached' });
    await page.getByText(`${ROUTINES - 1} reports awaiting review in ${ROUTINES - 1} routines.`).waitFor();
    assert.is(await page.locator('.review-group').count(), ROUTINES - 1);
  } finally {
    await context.close();
  }
});

test.run();
