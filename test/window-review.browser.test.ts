/**
 * Review in Chromium against `svc window --no-open --json` (a fallback
 * backend) whose crossref is a loopback stub: two routines whose
 * review-mode destinations hold their reports; the navigation's badge counts
 * them; /review gathers them per routine, the report is read in place, one is
 * released with Deliver (and written to its folder), others dropped with
 * Skip, each checked against what the backend stored; the badge and the list
 * empty out. A notification, once allowed, says a report awaits review while
 * the tab is in the background. axe-core and screenshots (full, empty, dark
 * at 800 px).
 */
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { browserTests } from './_chromium.js';
import { fixture, waitFor } from './_setup.js';
import { startStub } from './_stub.js';
import { screenshot, seriousViolations, startWindow, windowDirs, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
const dirs = windowDirs();
const heldFolder = path.join(dirs.root, 'held');
const routines: { id: number; name: string; run: number }[] = [];

const signedIn = (page: any) => page.waitForSelector('nav.nav', { timeout: 20_000 });
const held = async (routineId: number) => (await win.api('GET', `/api/routines/${routineId}/deliveries?state=awaiting_review`)).deliveries as any[];

/** Run the routine and wait for its review-mode deliveries to be created; answers the run. */
async function runAndHold(routineId: number, expected: number): Promise<number> {
  const run = (await win.api('POST', `/api/routines/${routineId}/run`)).execution_id as number;
  await waitFor(async () => (await win.api('GET', `/api/executions/${run}/deliveries`)).deliveries.filter((d: any) => d.state === 'awaiting_review').length === expected, 30_000, `run ${run}'s held deliveries`);
  return run;
}

test.before(async () => {
  fs.mkdirSync(heldFolder, { recursive: true });
  const crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  win = await startWindow(executablePath(), { dirs, env: { SVC_SOURCE_CROSSREF_URL: crossref.url }, closes: [crossref] });
  for (const [name, targets] of [
    ['soil carbon', [{ channel: 'folder', target: heldFolder, mode: 'review' }, { channel: 'feed', target: heldFolder, mode: 'review' }]],
    ['pollinators', [{ channel: 'folder', target: heldFolder, mode: 'review' }]],
  ] as const) {
    const id = (await win.api('POST', '/api/routines', { name, schedule_cron: '0 6 * * 1', parameters: { repositories: ['crossref'], query: 'ecology', max_results: 2, window_days: 7 }, is_active: false })).id;
    for (const t of targets) await win.api('POST', `/api/routines/${id}/delivery-targets`, t);
    routines.push({ id, name, run: 0 });
  }
  routines[0]!.run = await runAndHold(routines[0]!.id, 2);
  routines[1]!.run = await runAndHold(routines[1]!.id, 1);
});
test.after(async () => {
  await win?.close();
});

test('the badge counts what awaits review; Review gathers it per routine, reads the report in place, delivers one and skips the others', async () => {
  const { page, context } = await win.open('/', { bypassCSP: true });
  try {
    const badge = page.locator('nav.nav a[href="/review"] .nav-badge');
    await badge.waitFor();
    assert.is((await badge.textContent()).replace(/\s+/g, ' ').trim(), '3, 3 reports awaiting review', 'the count, and its words for a screen reader');

    await page.getByRole('link', { name: /Review/ }).click();
    await page.getByRole('heading', { name: 'Review', level: 1 }).waitFor();
    for (const r of routines) await page.locator(`[data-execution="${r.run}"]`).waitFor();
    assert.match(await page.locator('main').textContent(), '3 reports awaiting review in 2 routines.');
    assert.equal(await page.locator('.review-group h2').allTextContents(), routines.map((r) => r.name));

    // Read in place: the report the backend has for the run.
    const soil = page.locator(`[data-execution="${routines[0]!.run}"]`);
    await soil.getByRole('button', { name: 'Read the report' }).click();
    const report = (await win.api('GET', `/api/executions/${routines[0]!.run}/report`)).text;
    await soil.locator('pre.report').waitFor();
    assert.is(await soil.locator('pre.report').textContent(), report);
    await screenshot(page, 'review-full');
    assert.equal(await seriousViolations(page), [], 'axe: no serious or critical violation');

    const [folderHeld, feedHeld] = (await held(routines[0]!.id)).sort((a, b) => a.id - b.id);
    assert.equal([folderHeld.channel, feedHeld.channel], ['folder', 'feed']);
    await soil.getByRole('button', { name: `Deliver the report of run ${routines[0]!.run} to Folder (delivery ${folderHeld.id})` }).click();
    await page.getByText(`Delivery ${folderHeld.id} released`).waitFor();
    const delivered = await waitFor(async () => {
      const d = (await win.api('GET', `/api/executions/${routines[0]!.run}/deliveries`)).deliveries.find((x: any) => x.id === folderHeld.id);
      return d.state === 'delivered' ? d : undefined;
    }, 15_000, 'the released delivery to be delivered');
    assert.is(delivered.attempts, 1);
    assert.ok(fs.readdirSync(heldFolder).length > 0, 'the released report was written to its folder');

    await soil.getByRole('button', { name: `Skip the report of run ${routines[0]!.run} to Atom feed (delivery ${feedHeld.id})` }).click();
    await page.getByText(`Delivery ${feedHeld.id} skipped`).waitFor();
    const feedState = (await win.api('GET', `/api/executions/${routines[0]!.run}/deliveries`)).deliveries.find((x: any) => x.id === feedHeld.id).state;
    assert.is(feedState, 'skipped');
    await page.getByText('Nothing of this routine awaits review any more.').waitFor();
    await waitFor(async () => (await badge.textContent()).trim().startsWith('1'), 5000, 'the badge to count one');

    const pollinators = page.locator(`[data-execution="${routines[1]!.run}"]`);
    await pollinators.getByRole('button', { name: /^Skip/ }).click();
    await badge.waitFor({ state: 'detached' });
    assert.equal(await held(routines[1]!.id), [], 'nothing awaits review in the backend');

    await page.reload();
    await signedIn(page);
    await page.getByText('No report awaits review.').waitFor();
    await screenshot(page, 'review-empty');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 800, height: 800 });
    await screenshot(page, 'review-empty-narrow-dark');
    assert.equal(await seriousViolations(page), [], 'axe on the empty state, dark, 800 px');
  } finally {
    await context.close();
  }
});

test('once allowed, a notification says a report awaits review while the tab is in the background, and none while it is in front', async () => {
  const context = await win.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    // The browser's notifications and the tab's visibility, as the page sees them (headless has no notification centre).
    await page.addInitScript(`
      window.__shown = [];
      window.__hidden = false;
      Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible') });
      class Recorded {
        static permission = 'default';
        static requestPermission() {
          Recorded.permission = 'granted';
          return Promise.resolve('granted');
        }
        constructor(title, options) {
          this.onclick = null;
          window.__shown.push({ title, body: options.body });
        }
        close() {}
      }
      window.Notification = Recorded;
    `);
    await page.clock.install();
    await page.goto(await win.url('/review'));
    await signedIn(page);
    await page.getByText('No report awaits review.').waitFor();
    await page.getByRole('button', { name: 'Turn on notifications' }).click();
    await page.getByText('Notifications are on').waitFor();

    // In front: a new held report shows on the badge, with no notification.
    await runAndHold(routines[1]!.id, 1);
    await page.clock.runFor(31_000);
    await page.locator('nav.nav a[href="/review"] .nav-badge').waitFor();
    assert.equal(await page.evaluate('window.__shown'), []);

    // In the background: the next one is notified.
    await page.evaluate('window.__hidden = true');
    await runAndHold(routines[0]!.id, 2);
    await page.clock.runFor(31_000);
    const shown = await waitFor(async () => ((await page.evaluate('window.__shown')) as any[]).at(0), 10_000, 'a notification');
    assert.equal(shown, { title: 'svc: a report awaits review', body: '3 reports wait for review before delivery.' });
  } finally {
    await context.close();
  }
});

test.run();
