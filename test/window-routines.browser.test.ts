/**
 * The Routines pages in Chromium against `svc window --no-open --json` (a
 * real shell; arXiv a loopback server answering a recorded feed): a routine
 * made in the form with a schedule built in the builder — the sentence and the
 * next five fires shown while editing are the shell's preview, and the backend
 * stores what the builder showed; a refused field shows the service's words
 * beside it; Run now opens the run's page and follows it to completion; the
 * list and the routine's page show what the backend says. axe-core on every
 * page; screenshots empty, full, refused, narrow and dark.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { screenshot } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';
import { parseSchedule } from '../src/scheduler/cron.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: PagesWindow;
let routineId = 0;

test.before(async () => {
  win = await startPagesWindow(executablePath());
});
test.after(async () => {
  await win?.close();
});

test('no routine yet: the list says what to do next', async () => {
  const { page, context } = await win.open('/routines');
  try {
    await page.getByText('No routine yet.').waitFor();
    assert.is(await page.locator('.empty a[href="/routines/new"]').count(), 1);
    await screenshot(page, 'routines-empty');
  } finally {
    await context.close();
  }
});

test('the form: a schedule built in the builder, previewed by the shell, stored as shown; a refused field says why beside it', async () => {
  const { page, context } = await win.open('/routines/new');
  try {
    await page.getByLabel('Name').fill('explainable testing');
    await page.getByLabel('Query').fill('testing');
    await page.locator('#source-arxiv').check();
    await page.getByLabel('Days back from each fire').fill('9999');
    // The builder: every week, Monday and Thursday at 07:30, Berlin time.
    await page.getByLabel('How often').selectOption('weekly');
    await page.getByLabel('At', { exact: true }).fill('07:30');
    await page.getByLabel('Thursday').check();
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByText('every Monday and Thursday at 07:30, Europe/Berlin').waitFor();
    assert.is(await page.getByLabel('Cron expression').inputValue(), '30 7 * * 1,4');
    const shown = await page.locator('.fire-list time').evaluateAll((els: any[]) => els.map((e) => e.getAttribute('datetime')));
    const now = new Date();
    assert.equal(shown, parseSchedule('CRON_TZ=Europe/Berlin 30 7 * * 1,4', now).nextRuns(5, now).map((d) => d.toISOString()), "the next five fires are the service's");
    // A schedule typed by hand that the service refuses: its words beside the field, before any submit.
    await page.getByLabel('Cron expression').fill('30 7 * *');
    await page.locator('#schedule-error', { hasText: 'has 4 fields' }).waitFor();
    await page.getByLabel('Cron expression').fill('30 7 * * 1,4');
    await page.locator('#schedule-error').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Create the routine' }).click();
    const refusal = page.locator('#window_days-error');
    await refusal.waitFor();
    assert.match(await refusal.textContent(), '3650');
    assert.is(await page.getByLabel('Days back from each fire').getAttribute('aria-invalid'), 'true');
    assert.is(await page.evaluate('document.activeElement.id'), 'window_days', 'the refused field takes the focus');
    assert.is((await win.api('GET', '/api/routines')).total, 0, 'nothing stored');
    await screenshot(page, 'routine-form-refused');

    await page.getByLabel('Days back from each fire').fill('30');
    await page.getByLabel('Intent').fill('test case prioritisation and test generation');
    await page.getByRole('button', { name: 'Create the routine' }).click();
    await page.waitForURL(/\/routines\/\d+$/);
    routineId = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await win.api('GET', `/api/routines/${routineId}`);
    assert.equal(
      [stored.name, stored.schedule_cron, stored.parameters.repositories, stored.parameters.query, stored.parameters.window_days, stored.intent, stored.is_active, stored.entity],
      ['explainable testing', 'CRON_TZ=Europe/Berlin 30 7 * * 1,4', ['arxiv'], 'testing', 30, 'test case prioritisation and test generation', true, null],
    );
    await page.getByText('every Monday and Thursday at 07:30, Europe/Berlin').waitFor();
    await page.locator('.fire-list time').first().waitFor();
    const fires = await page.locator('.fire-list time').evaluateAll((els: any[]) => els.map((e) => e.getAttribute('datetime')));
    const calendar = (await win.api('GET', `/api/calendar/events?to=${new Date(Date.now() + 60 * 86_400_000).toISOString()}&routine_id=${routineId}`)).events.slice(0, 5).map((e: { start_utc: string }) => e.start_utc);
    assert.equal(fires, calendar, "the saved routine's next fires come from the calendar");
  } finally {
    await context.close();
  }
});

test('Run now opens the run page, which follows the run to completion; the list shows the last run and the schedule in words', async () => {
  const { page, context } = await win.open(`/routines/${routineId}`);
  try {
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/\/runs\/\d+$/);
    const runId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.locator('.run-facts .chip', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    const run = await win.api('GET', `/api/executions/${runId}`);
    assert.equal([run.type, run.routine_id, run.status], ['routine', routineId, 'completed']);
    const startedHere: number[] = await page.evaluate("JSON.parse(sessionStorage.getItem('svc.started-here') ?? '[]')");
    assert.ok(startedHere.includes(runId), 'a run started with Run now is remembered, so its finish is notified like a search started here');

    await page.goto(`${win.shell.line.renderer_origin}/routines`);
    const row = page.locator('tbody tr', { hasText: 'explainable testing' });
    await row.waitFor();
    const cells = (await row.locator('td').allTextContents()).map((t: string) => t.trim());
    assert.is(cells[1], 'every Monday and Thursday at 07:30, Europe/Berlin');
    assert.is(await row.locator(`a[href="/runs/${runId}"]`).count(), 1, 'the last run links to its page');
    await row.locator('.chip', { hasText: 'not judged yet' }).waitFor();
    await screenshot(page, 'routines');
  } finally {
    await context.close();
  }
});

test('the People page\'s follow link, /routines/new?profile=<id>, opens the form with that person chosen to follow', async () => {
  const person = await win.api('POST', '/api/profiles', { name: 'Ada Example' });
  await win.api('POST', '/api/profiles', { name: 'Someone Else' });
  const { page, context } = await win.open(`/routines/new?profile=${person.id}`);
  try {
    await page.locator(`#follow option[value="${person.id}"]`).waitFor({ state: 'attached' });
    assert.is(await page.locator('#follow').inputValue(), String(person.id));
    await page.locator('#follow-mode').waitFor();
  } finally {
    await context.close();
  }
});

test.run();
