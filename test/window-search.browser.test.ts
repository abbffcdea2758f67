/**
 * The window's Search and run pages in Chromium, against `svc window --no-open
 * --json` (a fallback backend) whose arXiv is a loopback server answering a
 * recorded feed: a first run sets the
 * contact e-mail on Home, starts a dive from "Start a first dive", watches it
 * to completion and finds the feed's titles and the search record on the run's
 * page — each checked against what the backend stored. axe-core passes every
 * page; each page leaves a screenshot in test-output/screenshots/.
 */
import fs from 'node:fs';
import { browserTests } from './_chromium.js';
import * as assert from 'uvu/assert';
import { FEED_TITLES as TITLES } from './_window-corpus.js';
import { backendRequest, launchShell, openPage, screenshot, seriousViolations, windowDirs } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

const EMAIL = 'researcher@example.org';

let w: PagesWindow;
let runId = 0;

test.before(async () => {
  w = await startPagesWindow(executablePath());
});
test.after(async () => w?.close());

/** A request to the backend with the harness's token, answered whatever its status. */
const backend = (method: string, p: string, body?: unknown) => backendRequest(w.session, method, p, { body });

test('first run: the contact e-mail set on Home, a dive started from "Start a first dive", its progress to completion and the feed\'s titles on its page', async () => {
  const { page, context } = await w.open('/');
  try {
    await page.getByLabel('Contact e-mail').fill(EMAIL);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Give a contact e-mail (done)').waitFor();
    const email = (await backend('GET', '/api/settings/email')).json();
    assert.is(email.settings.contact_email, EMAIL, 'the backend stored the address typed on Home');

    await page.getByRole('link', { name: 'Start a first dive' }).click();
    await page.waitForURL(/\/search\?mode=dive&source=arxiv$/);
    assert.ok(await page.locator('#source-arxiv').isChecked(), 'the link chose the source it named');
    await page.keyboard.press('/');
    assert.is(await page.evaluate('document.activeElement.id'), 'query', '/ focuses the search field');
    await page.keyboard.type('testing');
    await page.getByLabel('Results per source').fill('10');
    await page.getByRole('button', { name: 'Start the dive' }).click();
    await page.waitForURL(/\/runs\/\d+$/);
    runId = Number(new URL(page.url()).pathname.split('/').pop());

    await page.locator('.run-facts .chip', { hasText: 'completed' }).waitFor({ timeout: 20_000 });
    await page.locator('tr[data-source="arxiv"] .chip', { hasText: 'answered' }).waitFor();
    for (const title of TITLES) await page.getByRole('link', { name: title }).waitFor();
    await screenshot(page, 'run-completed');

    const detail = (await backend('GET', `/api/executions/${runId}`)).json();
    assert.equal([detail.type, detail.status, detail.repositories, detail.parameters.query, detail.parameters.max_results], ['dive', 'completed', ['arxiv'], 'testing', 10]);
    assert.ok(detail.parameters.request_id, 'the page sent a request id, so a resubmission answers the same run');
    const docs = (await backend('GET', `/api/executions/${runId}/documents?limit=500`)).json();
    const shown = await page.locator('.paper-title').allTextContents();
    assert.equal(shown, docs.documents.map((d: { title: string }) => d.title), 'the page lists the papers the backend stored, in its order');
    assert.is(await page.locator('.run-facts').first().textContent().then((t: string) => t.includes(`${docs.total} papers`)), true);
    // Each paper opens its own page.
    assert.is(await page.getByRole('link', { name: TITLES[0] }).getAttribute('href'), `/papers/${docs.documents.find((d: { title: string }) => d.title === TITLES[0]).id}`);
    assert.ok(w.arxiv.requests.some((r) => String(r.headers['user-agent']).includes(`mailto:${EMAIL}`)), 'arXiv was asked with the contact address set on Home');

    // References in every format, saved through a Blob URL: the bytes the backend's export route answers.
    for (const [format, label] of [['bibtex', 'BibTeX'], ['ris', 'RIS'], ['csv', 'CSV'], ['json', 'JSON']]) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
      assert.match(download.url(), /^blob:/, 'the token never travels in a download link');
      const saved = fs.readFileSync(await download.path(), 'utf8');
      const exported = await backend('GET', `/api/executions/${runId}/references?format=${format}`);
      assert.is(saved, exported.text, `${format}: the file saved is the backend's export`);
      assert.match(exported.headers['content-disposition'] ?? '', download.suggestedFilename());
    }

    await page.getByRole('tab', { name: 'Search record' }).click();
    await page.waitForURL(/\?tab=record$/);
    const record = (await backend('GET', `/api/executions/${runId}/search-record`)).json();
    const section = page.locator('.record-source', { hasText: 'arXiv' });
    await section.waitFor();
    assert.match(await section.textContent(), `“testing”, up to 10`);
    assert.match(await section.textContent(), record.sources[0].request.base_url);
    assert.match(await section.textContent(), `reported by the source${record.sources[0].counts.total_reported.toLocaleString('en-US')}`);
    await screenshot(page, 'run-search-record');

    await page.getByRole('tab', { name: 'Report' }).click();
    const report = (await backend('GET', `/api/executions/${runId}/report`)).json();
    await page.locator('pre.report').waitFor();
    assert.is(await page.locator('pre.report').textContent(), report.text);
  } finally {
    await context.close();
  }
});

test('Runs lists the run with its status, kind, query, source and count; ↓ reaches it from the newest, Enter opens it', async () => {
  const { page, context } = await w.open('/runs');
  try {
    const row = page.locator('tbody tr', { hasText: `Run ${runId}` });
    await row.waitFor();
    const listed = (await backend('GET', '/api/executions')).json().executions.find((e: { id: number }) => e.id === runId);
    const cells = (await row.locator('td').allTextContents()).map((t: string) => t.trim());
    assert.equal(cells.slice(0, 5), [`Run ${runId}`, listed.status, listed.type, listed.query, listed.repositories.join(', ')]);
    assert.ok(cells[6]!.startsWith(String(listed.result_count)));
    await screenshot(page, 'runs');
    // A second run, newer, comes first: ↓ moves from it to this one, Enter opens it.
    const newer = (await backend('POST', `/api/executions/${runId}/restart`)).json().id;
    await page.reload();
    await page.getByRole('link', { name: `Run ${newer}` }).focus();
    await page.keyboard.press('ArrowDown');
    assert.is(await page.evaluate('document.activeElement.textContent'), `Run ${runId}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/runs/${runId}$`));
  } finally {
    await context.close();
  }
});

test('a fresh data directory: Runs says there is none yet and points to Search', async () => {
  const dirs = windowDirs();
  const empty = await launchShell(dirs.shellEnv);
  const { page, context } = await openPage(w.browser, `${empty.line.renderer_origin}/runs#launch=${empty.code}`);
  try {
    await page.getByText('No run yet.').waitFor();
    assert.is(await page.locator('.empty a[href="/search"]').count(), 1);
    await screenshot(page, 'runs-empty');
  } finally {
    await context.close();
    await empty.stop();
    dirs.cleanup();
  }
});

test('axe-core: no serious or critical violation on Search, Runs and a run (each tab)', async () => {
  const { page, context } = await w.open('/search?mode=sweep&source=arxiv', { bypassCSP: true });
  try {
    const pages: [string, string][] = [
      ['/search?mode=sweep&source=arxiv', 'h1'],
      ['/runs', 'tbody tr'],
      [`/runs/${runId}`, '.paper-title'],
      [`/runs/${runId}?tab=record`, '.record-source'],
      [`/runs/${runId}?tab=report`, 'pre.report'],
      [`/runs/${runId}?tab=log`, '.run-log'],
      [`/runs/${runId}?tab=deliveries`, '.empty'],
    ];
    const found: string[] = [];
    for (const [path, ready] of pages) {
      await page.evaluate(`history.pushState(null, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);
      await page.locator(ready).first().waitFor();
      for (const v of await seriousViolations(page)) found.push(`${path}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(' | ')}`);
    }
    assert.equal(found, []);
  } finally {
    await context.close();
  }
});

test.run();
