/**
 * The Search and run pages where a run does not simply succeed, in Chromium
 * against `svc window --no-open --json` (a fallback backend): a sweep whose dblp is held by its loopback server is
 * cancelled from its page while it runs, then restarted into a new run; a date
 * range the service refuses shows the service's words beside the field and
 * starts nothing; a source that needs dates is offered only once dates are
 * typed, in the service's words. What the page shows is checked against what
 * the backend stored.
 */
import { browserTests } from './_chromium.js';
import * as assert from 'uvu/assert';
import { fixture } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { startHeldSource, type HeldSource } from './_held-source.js';
import { backendRequest, screenshot } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

let crossref: Stub;
let dblp: HeldSource;
let w: PagesWindow;

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  dblp = await startHeldSource(fixture('dblp/publ-search-test-h1-f1.json'));
  w = await startPagesWindow(executablePath(), { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_SOURCE_DBLP_URL: dblp.url });
});
test.after(async () => {
  await w?.close();
  await crossref?.close();
  await dblp?.close();
});

/** A request to the backend with the harness's token, answered whatever its status. */
const backend = (method: string, p: string, body?: unknown) => backendRequest(w.session, method, p, { body });
const runsStored = async () => (await backend('GET', '/api/executions')).json().total as number;

test('a running sweep is cancelled from its page: live progress per source, then cancelled with what was found kept; restart opens the new run', async () => {
  const { page, context } = await w.open('/search?mode=sweep&source=crossref&source=dblp');
  try {
    await page.getByLabel('Query').fill('ecology');
    await page.getByLabel('Results per source').fill('2');
    await page.getByRole('button', { name: 'Start the sweep of 2 sources' }).click();
    await page.waitForURL(/\/runs\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    // Live: crossref has answered while dblp is still held (asked, not answered).
    await page.locator('tr[data-source="crossref"] .chip', { hasText: 'answered' }).waitFor({ timeout: 15_000 });
    await page.locator('tr[data-source="dblp"] .chip', { hasText: 'asking' }).waitFor();
    assert.is(dblp.held(), 1, 'dblp is being asked');
    assert.is((await backend('GET', `/api/executions/${id}`)).json().status, 'running');
    await screenshot(page, 'run-live');

    // While it runs with one slot, a new search is refused with the service's sentence (429), and nothing starts.
    assert.is((await backend('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 20 })).status, 200);
    await page.goto(`${w.shell.line.renderer_origin}/search?mode=dive&source=crossref`);
    await page.getByLabel('Query').fill('soil');
    await page.getByRole('button', { name: 'Start the dive' }).click();
    const full = page.locator('.note-error', { hasText: 'No run can start right now.' });
    await full.waitFor();
    const direct = await backend('POST', '/api/search/dive', { repository: 'crossref', query: 'soil' });
    assert.is(direct.status, 429);
    assert.match(await full.textContent(), direct.json().detail);
    assert.is(await runsStored(), 1, 'the refused search started nothing');
    await screenshot(page, 'search-no-free-slot');
    await page.goBack();
    await page.waitForURL(new RegExp(`/runs/${id}$`));
    await backend('PUT', '/api/settings/execution', { max_concurrent_executions: 3, routine_fire_queue_limit: 20 });

    await page.getByRole('button', { name: 'Cancel the run' }).click();
    await page.locator('.run-facts .chip', { hasText: 'cancelled' }).waitFor({ timeout: 15_000 });
    const detail = (await backend('GET', `/api/executions/${id}`)).json();
    assert.is(detail.status, 'cancelled');
    assert.ok(detail.cancel_requested_at_utc, 'the backend recorded the cancel the page asked for');
    const bySource = Object.fromEntries(detail.sources.map((s: { source: string; status: string; record_count: number }) => [s.source, s]));
    assert.equal([bySource.crossref.status, bySource.crossref.record_count, bySource.dblp.status], ['answered', 2, 'cancelled']);
    await page.locator('tr[data-source="dblp"] .chip', { hasText: 'cancelled' }).waitFor();
    assert.is(await page.locator('.paper-title').count(), 2, 'what crossref found is kept and shown');
    assert.is(await page.getByRole('button', { name: 'Cancel the run' }).count(), 0);
    await screenshot(page, 'run-cancelled');

    await page.getByRole('button', { name: 'Run it again' }).click();
    await page.waitForURL((url: URL) => /\/runs\/\d+$/.test(url.pathname) && url.pathname !== `/runs/${id}`);
    const next = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('link', { name: `run ${id}` }).waitFor();
    const restarted = (await backend('GET', `/api/executions/${next}`)).json();
    assert.equal([restarted.restarted_from, restarted.repositories, restarted.parameters.query], [id, ['crossref', 'dblp'], 'ecology']);
    dblp.release();
    await page.locator('.run-facts .chip', { hasText: 'completed' }).waitFor({ timeout: 15_000 });
    assert.is((await backend('GET', `/api/executions/${next}`)).json().status, 'completed');
  } finally {
    await context.close();
  }
});

test('a date range the service refuses shows its words beside "To", focused, and starts nothing', async () => {
  const { page, context } = await w.open('/search?mode=dive&source=crossref');
  try {
    const before = await runsStored();
    await page.getByLabel('Query').fill('ecology');
    await page.getByLabel('From').fill('2024-05-01');
    await page.getByLabel('To').fill('2023-01-01');
    await page.getByRole('button', { name: 'Start the dive' }).click();
    const said = page.locator('#date_to-error');
    await said.waitFor();
    const refusal = await backend('POST', '/api/search/dive', { repository: 'crossref', query: 'ecology', date_from: '2024-05-01', date_to: '2023-01-01' });
    assert.is(refusal.status, 422);
    assert.is(await said.textContent(), refusal.json().detail[0].msg, "the service's own words");
    assert.is(await page.getByLabel('To').getAttribute('aria-invalid'), 'true');
    assert.is(await page.evaluate('document.activeElement.id'), 'date_to');
    assert.is(await page.locator('#date_from-error').count(), 0, 'only the field the refusal names');
    assert.is(await runsStored(), before, 'no run was started');
    assert.ok(page.url().endsWith('/search?mode=dive&source=crossref'));
    await screenshot(page, 'search-refused');
    await page.getByLabel('To').fill('2024-12-31');
    assert.is(await page.locator('#date_to-error').count(), 0, 'the words go once the field is changed');
  } finally {
    await context.close();
  }
});

test('a source that answers only for a date interval is disabled with the service\'s sentence until dates are typed', async () => {
  const { page, context } = await w.open('/search?mode=sweep');
  try {
    const offered = (await backend('GET', '/api/search/repositories?window=none')).json();
    const biorxiv = offered.repositories.find((r: { id: string }) => r.id === 'biorxiv');
    const option = page.locator('#source-biorxiv');
    await option.waitFor({ state: 'attached' });
    assert.ok(await option.isDisabled());
    await page.getByText('sources cannot be asked now').click();
    assert.is(await page.locator('#source-biorxiv-why').textContent(), biorxiv.message);
    await page.getByLabel('From').fill('2024-01-01');
    await page.locator('#source-biorxiv:not([disabled])').waitFor({ state: 'attached' });
    await page.locator('#source-biorxiv').check();
    assert.match(await page.getByRole('button', { name: /Start the sweep/ }).textContent(), 'of 1 source');
    await screenshot(page, 'search-sweep');
  } finally {
    await context.close();
  }
});

test.run();
