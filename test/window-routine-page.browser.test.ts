/**
 * A routine's page in Chromium against `svc window --no-open --json` (a real
 * shell; arXiv a loopback server answering a recorded feed), for a routine
 * made and run through the API: the coverage audit as the backend answers it,
 * a configuration saved from the routine, applied to it through its edit form
 * and removed; axe-core on the list, the form and the routine's page, and
 * narrow dark screenshots. The form and Run now: window-routines.browser.test.ts.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { waitFor } from './_setup.js';
import { screenshot, seriousViolations } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: PagesWindow;
let routineId = 0;

test.before(async () => {
  win = await startPagesWindow(executablePath());
  routineId = (await win.api('POST', '/api/routines', { name: 'explainable testing', schedule_cron: 'CRON_TZ=Europe/Berlin 30 7 * * 1,4', parameters: { repositories: ['arxiv'], query: 'testing', window_days: 30 }, intent: 'test case prioritisation and test generation' })).id;
  const run = (await win.api('POST', `/api/routines/${routineId}/run`)).execution_id;
  await waitFor(async () => (await win.api('GET', `/api/executions/${run}`)).status !== 'running', 30_000, 'the routine run to settle');
});
test.after(async () => {
  await win?.close();
});

test('the routine page: the coverage audit against the intent, configurations saved, applied and removed', async () => {
  const { page, context } = await win.open(`/routines/${routineId}`);
  try {
    await page.getByRole('heading', { name: /^Off target: \d+/ }).waitFor({ timeout: 15_000 });
    const audit = await win.api('GET', `/api/routines/${routineId}/coverage`);
    assert.ok(await page.getByRole('heading', { name: `Off target: ${audit.off_target.total}` }).isVisible());
    // The missed side is a lower bound (the corpus holds only what some search found), and says why; the off-target side is not.
    assert.ok(await page.getByRole('heading', { name: `Missed, though in the corpus: ${audit.missed_in_corpus.total} at least` }).isVisible());
    assert.ok(await page.getByText(audit.missed_in_corpus.lower_bound_reason).isVisible());
    await page.getByText("Save this routine's search as a configuration").click();
    await page.locator('#config-name').fill('testing on arXiv');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved as “testing on arXiv”.').waitFor();
    const config = (await win.api('GET', '/api/configurations')).configurations.find((c: { name: string }) => c.name === 'testing on arXiv');
    assert.equal([config.config_type, config.parameters.query, config.parameters.repositories], ['routine', 'testing', ['arxiv']]);
    await page.getByRole('link', { name: 'Apply “testing on arXiv” to this routine' }).waitFor();
    await screenshot(page, 'routine');
    await page.getByRole('link', { name: 'Apply “testing on arXiv” to this routine' }).click();
    await page.waitForURL(new RegExp(`/routines/${routineId}/edit\\?config=${config.id}$`));
    await page.getByLabel('Query').fill('testing generation');
    await page.getByRole('button', { name: 'Save the routine' }).click();
    await page.waitForURL(new RegExp(`/routines/${routineId}$`));
    const edited = await win.api('GET', `/api/routines/${routineId}`);
    assert.equal([edited.parameters.query, edited.parameters.saved_configuration_id, edited.schedule_cron], ['testing generation', config.id, 'CRON_TZ=Europe/Berlin 30 7 * * 1,4']);
    // The row goes when the list read after the DELETE's answer lacks it, not at the click: the DELETE is
    // held back until the row is seen still there. (Waiting for the "Remove the configuration" button to
    // detach proved nothing: the confirmation replaces it at the first click.)
    let releaseDelete!: () => void;
    const deleteHeldBack = new Promise<void>((resolve) => (releaseDelete = resolve));
    let deletes = 0;
    await page.route(new RegExp(`/api/configurations/${config.id}$`), async (route: any) => {
      if (route.request().method() === 'DELETE') deletes += 1;
      await deleteHeldBack;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Remove the configuration “testing on arXiv”' }).click();
    await page.getByRole('button', { name: 'Remove “testing on arXiv”' }).click();
    const row = page.locator('.config-list li', { hasText: 'testing on arXiv' });
    assert.ok(await row.isVisible(), 'the row stays while the backend has not answered');
    releaseDelete();
    await page.getByText("None yet. Save this routine's search below").waitFor();
    assert.equal([await row.count(), deletes], [0, 1]);
    assert.is((await win.api('GET', '/api/configurations')).configurations.length, 0);
  } finally {
    await context.close();
  }
});

test('axe-core: no serious or critical violation on the list, the form and a routine; narrow and dark screenshots', async () => {
  const { page, context } = await win.open('/routines', { bypassCSP: true });
  try {
    for (const [path, ready] of [
      ['/routines', 'tbody tr'],
      ['/routines/new', '.fire-list time'],
      [`/routines/${routineId}`, '.fire-list time'],
      [`/routines/${routineId}/edit`, '.fire-list time'],
    ]) {
      await page.goto(`${win.shell.line.renderer_origin}${path}`);
      await page.waitForSelector(ready!, { timeout: 15_000 });
      assert.equal(await seriousViolations(page), [], path);
    }
  } finally {
    await context.close();
  }
  const narrow = await win.open(`/routines/${routineId}/edit`, { width: 800, colorScheme: 'dark' });
  try {
    await narrow.page.waitForSelector('.fire-list time');
    await screenshot(narrow.page, 'routine-form-narrow-dark');
    await narrow.page.goto(`${win.shell.line.renderer_origin}/routines`);
    await narrow.page.waitForSelector('tbody tr');
    await screenshot(narrow.page, 'routines-narrow-dark');
  } finally {
    await narrow.context.close();
  }
});

test.run();
