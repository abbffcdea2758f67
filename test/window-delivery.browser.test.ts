/**
 * A routine's Deliveries page in Chromium against `svc window --no-open
 * --json` (a fallback backend) whose crossref is a loopback stub: a refused
 * destination shows the service's reason beside its field and nothing is
 * stored; a folder, a loopback webhook and two review-mode destinations are
 * added from the page; the webhook's signing secret is shown on request (the
 * shell asks the CLI: no backend answer carries it); a run of the routine
 * writes the folder and reaches the webhook signed as the page says a
 * receiver checks it; the deliveries appear with their state and attempts.
 * axe-core and screenshots (light, dark, 800 px). Review: window-review.browser.test.ts.
 */
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { browserTests } from './_chromium.js';
import { fixture, runCli, waitFor } from './_setup.js';
import { startStub } from './_stub.js';
import { startWebhook, type WebhookPeer } from './_delivery.js';
import { backendRequest, screenshot, seriousViolations, startWindow, windowDirs, type BrowserWindow } from './_window.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: BrowserWindow;
let hook: WebhookPeer;
let routineId = 0;
const dirs = windowDirs();
const folder = path.join(dirs.root, 'reports');
const reviewFolder = path.join(dirs.root, 'held');

test.before(async () => {
  fs.mkdirSync(folder, { recursive: true });
  fs.mkdirSync(reviewFolder, { recursive: true });
  const crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  hook = await startWebhook();
  win = await startWindow(executablePath(), { dirs, env: { SVC_SOURCE_CROSSREF_URL: crossref.url }, closes: [hook, crossref] });
  routineId = (await win.api('POST', '/api/routines', { name: 'ecology watch', schedule_cron: '0 6 * * 1', parameters: { repositories: ['crossref'], query: 'ecology', max_results: 2, window_days: 7 }, is_active: false })).id;
});
test.after(async () => {
  await win?.close();
});

let secretShown = '';

test('destinations added from the page: a refused one shows the reason beside its field; the webhook secret is shown on request and in no backend answer', async () => {
  const { page, context } = await win.open(`/routines/${routineId}/delivery`);
  try {
    await page.getByRole('heading', { name: 'Deliveries of “ecology watch”' }).waitFor();
    await page.getByText('This routine has no destination yet.').waitFor();
    await page.getByText('No report of this routine has been delivered yet.').waitFor();
    await screenshot(page, 'delivery-empty');

    // A relative directory: the service's refusal, beside the field, and nothing stored.
    await page.getByLabel('Channel').selectOption('folder');
    await page.getByLabel('Directory').fill('reports');
    await page.getByRole('button', { name: 'Add the destination' }).click();
    const refusal = page.locator('#target-destination-error');
    await refusal.waitFor();
    assert.is((await refusal.textContent()).trim(), '<target> must be an absolute directory path');
    assert.is(await page.getByLabel('Directory').getAttribute('aria-invalid'), 'true');
    assert.is(await page.getByLabel('Directory').getAttribute('aria-describedby'), 'target-destination-hint target-destination-error');
    assert.equal((await win.api('GET', `/api/routines/${routineId}/delivery-targets`)).targets, [], 'nothing stored for a refused destination');
    await screenshot(page, 'delivery-target-refused');

    const add = async (channel: string, label: string, value: string, review = false) => {
      await page.getByLabel('Channel').selectOption(channel);
      await page.getByLabel(label, { exact: true }).fill(value);
      if (review) await page.getByLabel('Review: held until you deliver it from Review').check();
      else await page.getByLabel('Automatic: sent as each run completes').check();
      const before = await page.locator('.target-card').count();
      await page.getByRole('button', { name: 'Add the destination' }).click();
      await page.locator('.target-card').nth(before).waitFor();
    };
    await add('folder', 'Directory', folder);
    await add('webhook', 'URL', hook.url);
    await add('folder', 'Directory', reviewFolder, true);
    await add('feed', 'Directory', reviewFolder, true);
    const stored = (await win.api('GET', `/api/routines/${routineId}/delivery-targets`)).targets;
    assert.equal(
      stored.map((t: any) => [t.channel, t.mode, t.enabled, t.target]),
      [
        ['folder', 'automatic', true, folder],
        ['webhook', 'automatic', true, hook.url],
        ['folder', 'review', true, reviewFolder],
        ['feed', 'review', true, reviewFolder],
      ],
      'the backend stored what was typed',
    );
    assert.is(await page.locator('.target-card').count(), 4);

    // Disabled and enabled again from its switch (it shows what the backend stored, once stored): the backend follows.
    const feedCard = page.locator(`.target-card[data-target="${stored[3].id}"]`);
    await feedCard.getByLabel('Enabled').click();
    await feedCard.locator('.chip', { hasText: 'disabled' }).waitFor();
    assert.is((await win.api('GET', `/api/routines/${routineId}/delivery-targets`)).targets[3].enabled, false);
    await feedCard.getByLabel('Enabled').click();
    await feedCard.locator('.chip', { hasText: 'enabled' }).waitFor();
    assert.is((await win.api('GET', `/api/routines/${routineId}/delivery-targets`)).targets[3].enabled, true);

    // The webhook's secret: how the receiver checks, the command, and the secret on request.
    const webhookCard = page.locator(`.target-card[data-target="${stored[1].id}"]`);
    await webhookCard.getByText('How the receiver checks the signature').click();
    assert.match(await webhookCard.textContent(), `svc routine target secret ${routineId} ${stored[1].id}`);
    assert.not.ok(/[0-9a-f]{64}/.test(await page.content()), 'no secret in the page before it is asked for');
    await webhookCard.getByRole('button', { name: 'Show the signing secret' }).click();
    const field = webhookCard.getByLabel(`Signing secret of destination ${stored[1].id}`);
    await field.waitFor();
    secretShown = await field.inputValue();
    const cli = await runCli(['--json', 'routine', 'target', 'secret', String(routineId), String(stored[1].id)], { env: dirs.shellEnv });
    assert.is(secretShown, JSON.parse(cli.stdout).secret, 'the secret `svc routine target secret` prints');
    const answers = [await backendRequest(win.session, 'GET', `/api/routines/${routineId}/delivery-targets`), await backendRequest(win.session, 'GET', `/api/routines/${routineId}`)];
    assert.not.ok(answers.some((r) => r.text.includes(secretShown)), 'no backend answer carries the secret');
    await screenshot(page, 'delivery-destinations');
    await webhookCard.getByRole('button', { name: 'Hide' }).click();
    assert.not.ok((await page.content()).includes(secretShown), 'hidden again, it leaves the page');
  } finally {
    await context.close();
  }
});

test('a run of the routine: the folder is written, the webhook gets a request signed as the page says, each delivery listed with its state and attempts', async () => {
  const run = await win.api('POST', `/api/routines/${routineId}/run`);
  const executionId = run.execution_id as number;
  const settled = await waitFor(
    async () => {
      const list = (await win.api('GET', `/api/executions/${executionId}/deliveries`)).deliveries as any[];
      return list.length === 4 && list.every((d) => ['delivered', 'awaiting_review', 'failed'].includes(d.state)) ? list : undefined;
    },
    30_000,
    'the run and its deliveries',
  );
  assert.equal(settled.map((d) => [d.channel, d.state]), [
    ['folder', 'delivered'],
    ['webhook', 'delivered'],
    ['folder', 'awaiting_review'],
    ['feed', 'awaiting_review'],
  ]);
  assert.ok(fs.readdirSync(folder).length > 0, 'the report was written to the folder');
  assert.is(fs.readdirSync(reviewFolder).length, 0, 'nothing held for review was written');

  // The receiver's check, exactly as the page words it.
  const received = hook.received[0]!;
  const timestamp = String(received.headers['x-svc-timestamp']);
  const mac = crypto.createHmac('sha256', secretShown).update(`${timestamp}.${received.body}`).digest('hex');
  assert.ok(crypto.timingSafeEqual(Buffer.from(`sha256=${mac}`), Buffer.from(String(received.headers['x-svc-signature']))), 'the signature checks with the secret the page showed');
  assert.ok(Math.abs(Date.now() / 1000 - Number(timestamp)) < 300);
  assert.is(JSON.parse(received.body).delivery_id, settled[1].id);

  const { page, context } = await win.open(`/routines/${routineId}/delivery`, { bypassCSP: true });
  try {
    const rows = page.locator('.delivery-table tbody tr');
    await rows.first().waitFor();
    assert.is(await rows.count(), 4);
    const shown = await page.locator('.delivery-table tbody tr').evaluateAll((trs: any[]) =>
      trs.map((tr) => [Number(tr.dataset.delivery), tr.querySelector('.chip').textContent, tr.querySelectorAll('td')[4].textContent]),
    );
    const stored = (await win.api('GET', `/api/routines/${routineId}/deliveries`)).deliveries as any[];
    assert.equal(
      shown,
      stored.map((d) => [d.id, d.state.replace(/_/g, ' '), `${d.attempts} of ${d.max_attempts}`]),
      'each delivery with the state and attempts the backend stored, in its order',
    );
    assert.match(await page.locator('header.page-header').textContent(), '2 reports awaiting review');
    assert.ok(await page.getByRole('button', { name: `Deliver delivery ${settled[2].id}` }).isVisible(), 'a held one can be delivered from here too');
    await screenshot(page, 'delivery-full');
    assert.equal(await seriousViolations(page), [], 'axe: no serious or critical violation');

    // The state filter lives in the address.
    await page.getByLabel('State').selectOption('awaiting_review');
    await page.waitForURL(/\?state=awaiting_review$/);
    await waitFor(async () => (await rows.count()) === 2, 5000, 'the filtered list');

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 800, height: 900 });
    await screenshot(page, 'delivery-narrow-dark');
    assert.equal(await seriousViolations(page), [], 'axe in dark at 800 px');
  } finally {
    await context.close();
  }
});

test.run();
