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
import { startStub, type Stub } from './_stub.js';
import { backendRequest, exchange, freshCode, launchBrowser, launchShell, openPage, screenshot, windowDirs, type Session, type ShellProcess } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let browser: any;
let shell: ShellProcess;
let harness: Session;
let arxiv: Stub;
let dirs: ReturnType<typeof windowDirs>;

test.before(async () => {
  arxiv = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), headers: { 'content-type': 'application/atom+xml' }, times: Infinity }]);
  dirs = windowDirs({ SVC_SOURCE_ARXIV_URL: arxiv.url, SVC_PORT: String(await freePort()) });
  const started = await runCli(['daemon', 'start'], { env: dirs.shellEnv, timeoutMs: 30_000 });
  assert.is(started.code, 0, started.stderr);
  [browser, shell] = await Promise.all([launchBrowser(executablePath()), launchShell(dirs.shellEnv)]);
  harness = await exchange(shell, shell.code);
});
test.after(async () => {
  await browser?.close();
  await shell?.stop();
  await runCli(['daemon', 'stop'], { env: dirs.shellEnv });
  await arxiv?.close();
  dirs?.cleanup();
});

const backend = async (method: string, path: string) => (await backendRequest(harness, method, path)).json();

test('a routine made in the form on "every minute" fires on the daemon, and its page shows the run', async () => {
  assert.is(shell.line.backend.role, 'daemon', 'the window attached to the daemon');
  const { page, context } = await openPage(browser, `${shell.line.renderer_origin}/routines/new#launch=${await freshCode(shell, harness)}`);
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
    assert.is((await backend('GET', `/api/routines/${id}`)).schedule_cron, '* * * * *');

    const fired = await waitFor(
      async () => {
        const r = await backend('GET', `/api/routines/${id}`);
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
    assert.is((await backend('GET', `/api/routines/${id}`)).is_active, false);
  } finally {
    await context.close();
  }
});

test.run();
