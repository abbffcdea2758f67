/**
 * A routine made in the window fires on the daemon's schedule: the daemon of
 * the test's temp data directory runs (the window attaches to it; a fallback
 * has no scheduler), a routine is made in the form with "every minute" built
 * in the builder, and within the scheduler's minute (plus its poll) it fires:
 * the backend records a scheduled fire and its run, and the routine's page
 * shows that run as its last. The routine is then taken off the schedule from
 * its page. The scheduler fires on minute boundaries, so this waits up to 75 s.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { fixture, freePort, runCli, waitFor } from './_setup.js';
import { startStub } from './_stub.js';
import { openPage, screenshot, startWindow, windowDirs, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;

test.before(async () => {
  const arxiv = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), headers: { 'content-type': 'application/atom+xml' }, times: Infinity }]);
  const dirs = windowDirs({ SVC_SOURCE_ARXIV_URL: arxiv.url, SVC_PORT: String(await freePort()) });
  const started = await runCli(['daemon', 'start'], { env: dirs.shellEnv, timeoutMs: 30_000 });
  assert.is(started.code, 0, started.stderr);
  const daemon = { close: () => runCli(['daemon', 'stop'], { env: dirs.shellEnv }) };
  win = await startWindow(executablePath(), { dirs, closes: [daemon, arxiv] });
});
test.after(async () => {
  await win?.close();
});

test('a routine made in the form on "every minute" fires on the daemon, and its page shows the run', async () => {
  assert.is(win.shell.line.backend.role, 'daemon', 'the window attached to the daemon');
  const { page, context } = await openPage(win.browser, await win.url('/routines/new'));
  try {
    await page.waitForSelector('#name', { timeout: 60_000 }); // the daemon, the shell and Chromium share a busy machine
    await page.getByLabel('Name').fill('every minute');
    await page.getByLabel('Query').fill('testing');
    await page.locator('#source-arxiv').check();
    await page.getByLabel('How often').selectOption('minutes');
    await page.getByLabel('Every how many minutes').fill('1');
    await page.getByText('every minute, UTC').waitFor();
    await page.getByRole('button', { name: 'Create the routine' }).click();
    await page.waitForURL(/\/routines\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    assert.is((await win.api('GET', `/api/routines/${id}`)).schedule_cron, '* * * * *');

    const fired = await waitFor(
      async () => {
        const r = await win.api('GET', `/api/routines/${id}`);
        return r.last_fire?.trigger === 'schedule' && r.last_execution ? r : undefined;
      },
      75_000,
      'the daemon to fire the routine',
    );
    assert.is(fired.last_fire.execution_id, fired.last_execution.id);
    await page.reload();
    await page.getByRole('link', { name: `Run ${fired.last_execution.id}` }).waitFor();
    await screenshot(page, 'routine-fired');
    await page.getByRole('button', { name: 'Take off the schedule' }).click();
    await page.getByRole('button', { name: 'Put on the schedule' }).waitFor();
    assert.is((await win.api('GET', `/api/routines/${id}`)).is_active, false);
  } finally {
    await context.close();
  }
});

test.run();
