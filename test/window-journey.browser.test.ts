/**
 * A researcher's first session with the window, as one journey in Chromium
 * against `svc window --no-open --json` on a fresh data directory (a fallback
 * backend; arXiv a loopback server that holds its answer, a recorded feed,
 * until the test lets it go): Home welcomes a first run and takes the contact
 * e-mail; a dive started from the Search page shows its source being asked on
 * the run's page, then answered and completed; the explorer finds the feed's
 * titles under /explore?q=…; a facet narrows them; a paper opened from the
 * list says which run brought it, is saved to read later and is found on the
 * board. Each step is reached through the page's own links and keys, and
 * checked against what the backend stored. The pages the other window tests
 * cover in depth are checked here only as far as the journey needs them.
 * An address that is no page of the window: its words, its way home, axe-core.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { waitFor } from './_setup.js';
import { startHeldSource, type HeldSource } from './_held-source.js';
import { FEED, FEED_TITLES } from './_window-corpus.js';
import { screenshot, seriousViolations } from './_window.js';
import { startPagesWindow, type PagesWindow } from './_window-pages.js';

/** The page's document, for waits written as functions (see openPage in _window.ts: never as strings). */
declare const document: any;

const { test, executablePath } = browserTests();

const EMAIL = 'researcher@example.org';

let arxiv: HeldSource;
let w: PagesWindow;

test.before(async () => {
  arxiv = await startHeldSource(FEED, 'application/atom+xml');
  w = await startPagesWindow(executablePath(), { SVC_SOURCE_ARXIV_URL: arxiv.url });
});
test.after(async () => {
  await w?.close();
  await arxiv?.close();
});

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
const nav = (page: any, name: string) => page.locator('nav.nav').getByRole('link', { name, exact: true }).click();
const sourceRow = (page: any) => page.locator('tr[data-source="arxiv"]');
const heading = (page: any) => page.locator('#results-heading');
const results = (page: any) => page.locator('.vlist .result-title');
const facet = (page: any, title: string) => page.locator('section.facet', { has: page.locator('h2', { hasText: title }) });
const papersMatch = (n: number) => `${n} ${n === 1 ? 'paper matches' : 'papers match'}`;

test('first run → contact e-mail → a dive from Search, watched to its end → explore → a facet → a paper → saved → on the board', async () => {
  const { page, context } = await w.open('/');
  try {
    // Home, on a data directory nothing has used: the welcome card asks for the contact e-mail.
    await page.getByRole('heading', { level: 1, name: 'Welcome to svc' }).waitFor();
    assert.is((await w.api('GET', '/api/executions')).total, 0, 'nothing has run yet');
    await page.getByLabel('Contact e-mail').fill(EMAIL);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Give a contact e-mail (done)').waitFor();
    assert.is((await w.api('GET', '/api/settings/email')).settings.contact_email, EMAIL, 'the backend stored the address typed on Home');
    const step = (await w.api('GET', '/api/onboarding')).steps.find((s: any) => s.id === 'contact_email');
    assert.is(step.done, true, 'and counts the step done');
    await screenshot(page, 'journey-1-home');

    // Search, from the navigation: a dive on arXiv.
    await nav(page, 'Search');
    await page.waitForURL((u: URL) => u.pathname === '/search');
    await page.getByRole('radio', { name: /^Dive/ }).check();
    await page.locator('#source-arxiv').check();
    await page.getByLabel('Query').fill('testing');
    await page.getByLabel('Results per source').fill('10');
    await screenshot(page, 'journey-2-search');
    await page.getByRole('button', { name: 'Start the dive' }).click();
    await page.waitForURL(/\/runs\/\d+$/);
    const runId = Number(new URL(page.url()).pathname.split('/').pop());

    // The run's page while arXiv holds its answer: the source is being asked, the run runs.
    await sourceRow(page).locator('.chip', { hasText: 'asking' }).waitFor({ timeout: 20_000 });
    await waitFor(() => arxiv.held() === 1, 10_000, 'arXiv to be asked');
    const running = await w.api('GET', `/api/executions/${runId}`);
    assert.equal([running.type, running.status, running.repositories, running.parameters.query, running.parameters.max_results], ['dive', 'running', ['arxiv'], 'testing', 10]);
    assert.is(await page.getByRole('button', { name: 'Cancel the run' }).count(), 1, 'a running run can be cancelled');
    await screenshot(page, 'journey-3-run-asking');

    // arXiv answers: the page follows the run to its end without a reload.
    arxiv.release();
    await page.locator('.run-facts .chip', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await sourceRow(page).locator('.chip', { hasText: 'answered' }).waitFor();
    const done = await w.api('GET', `/api/executions/${runId}`);
    assert.is(done.status, 'completed');
    const arxivDone = done.sources.find((s: any) => s.source === 'arxiv');
    assert.equal([arxivDone.status, arxivDone.record_count], ['answered', 10], 'the backend kept the feed\'s ten papers');
    assert.match(await sourceRow(page).textContent(), String(arxivDone.record_count), 'the row says how many papers arXiv gave');
    const stored = (await w.api('GET', `/api/executions/${runId}/documents?limit=500`)).documents.map((d: any) => d.title);
    for (const title of FEED_TITLES) assert.ok(stored.includes(title), `the run stored “${title}”`);
    await screenshot(page, 'journey-4-run-completed');

    // The explorer, from the navigation: `/` and the words; the address carries them.
    await nav(page, 'Explore');
    await page.waitForURL((u: URL) => u.pathname === '/explore');
    await results(page).first().waitFor({ timeout: 20_000 });
    await page.locator('h1').click();
    await page.keyboard.press('/');
    const answered = page.waitForResponse((r: any) => r.url().endsWith('/api/explorer/search') && r.request().method() === 'POST' && r.request().postDataJSON()?.query === 'testing', { timeout: 60_000 });
    answered.catch(() => undefined); // awaited below, after other waits: a rejection meanwhile must not end the process
    await page.keyboard.type('testing');
    await page.waitForURL((u: URL) => u.searchParams.get('q') === 'testing');
    await heading(page).filter({ hasText: papersMatch(10) }).waitFor({ timeout: 20_000 });
    // The corpus is the dive's ten papers: the whole corpus's end line already says all ten are shown. The list
    // is the query's once the page's search for it has answered (asking cleared the rows) and the end line is back.
    await answered;
    await page.locator('.list-end', { hasText: 'All 10 papers shown.' }).waitFor({ timeout: 20_000 });
    const found = await w.api('POST', '/api/explorer/search', { query: 'testing', limit: 500 });
    assert.equal((await results(page).allTextContents()).sort(), found.papers.map((p: any) => p.title).sort(), 'the explorer lists what the backend finds');
    for (const title of FEED_TITLES) assert.ok((await results(page).allTextContents()).includes(title));
    await screenshot(page, 'journey-5-explore');

    // A facet: a category some of the papers have narrows the list to them.
    const facets = await w.api('POST', '/api/explorer/facets', { query: 'testing' });
    const category = facets.facets.categories.values.find((v: any) => v.count > 0 && v.count < facets.total);
    assert.ok(category, 'the feed has a category that only some of its papers have');
    await facet(page, 'Categories').locator('a.facet-value', { hasText: category.value }).click();
    await page.waitForURL((u: URL) => u.searchParams.getAll('category').includes(category.value) && u.searchParams.get('q') === 'testing');
    await heading(page).filter({ hasText: papersMatch(category.count) }).waitFor();
    await page.waitForFunction((n: number) => document.querySelectorAll('.vlist .result-title').length === n, category.count);
    const narrowed = await w.api('POST', '/api/explorer/search', { query: 'testing', categories: [category.value], limit: 500 });
    assert.equal((await results(page).allTextContents()).sort(), narrowed.papers.map((p: any) => p.title).sort(), 'the narrowed list is what the backend finds with that category');
    await screenshot(page, 'journey-6-facet');

    // A paper from the list: its page says which run brought it.
    const title = await results(page).first().textContent();
    await results(page).first().click();
    await page.waitForURL(/\/papers\/\d+$/);
    const paperId = Number(new URL(page.url()).pathname.split('/').pop());
    assert.is(await page.textContent('h1'), title);
    assert.ok(narrowed.papers.some((p: any) => p.id === paperId && p.title === title), 'the page is the paper the list showed');
    const why = await w.api('GET', `/api/documents/${paperId}/why`);
    assert.ok(why.executions.some((e: any) => e.execution_id === runId), 'the backend knows the dive brought it');
    await page.locator('.why-run a', { hasText: `execution ${runId}` }).waitFor();

    // Saved to read later, from its page.
    assert.equal((await w.api('GET', `/api/reading-queue?document_id=${paperId}`)).entries, [], 'not saved yet');
    await page.getByRole('button', { name: 'Save to read later' }).click();
    await page.getByRole('button', { name: 'Mark read' }).waitFor();
    const saved = (await w.api('GET', `/api/reading-queue?document_id=${paperId}`)).entries;
    assert.equal(saved.map((e: any) => [e.document_id, e.status, e.paper.title]), [[paperId, 'unread', title]], 'the backend stored it to read');
    await screenshot(page, 'journey-7-paper-saved');

    // The board, from the navigation: the paper waits under "To read", as the backend counts it.
    await nav(page, 'Reading queue');
    await page.waitForURL((u: URL) => u.pathname === '/queue');
    const toRead = page.locator('.queue-column', { has: page.getByRole('heading', { name: /^To read/ }) });
    await toRead.locator('.queue-card', { hasText: title }).waitFor();
    const counts = (await w.api('GET', '/api/reading-queue?limit=1')).counts;
    assert.equal(counts, { unread: 1, read: 0 });
    assert.is(await page.locator('.queue-card').count(), 1, 'the one paper saved, and nothing else');
    assert.is(await toRead.locator('.queue-card [data-row-link]', { hasText: title }).getAttribute('href'), `/papers/${paperId}`);
    await screenshot(page, 'journey-8-board');
  } finally {
    await context.close();
  }
});

// Every route of web/src/routes.ts has its axe pass in its page's own test file; an address that is no route has it here.
test('an address that is no page of the window says so and leads to the start page; axe-core finds nothing serious there', async () => {
  const { page, context } = await w.open('/papers/12/nowhere', { bypassCSP: true });
  try {
    await page.getByText("There is no such page in svc's window.").waitFor();
    assert.is(await page.title(), 'Not found · svc');
    assert.equal(await seriousViolations(page), []);
    await screenshot(page, 'window-not-found');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.waitForURL((u: URL) => u.pathname === '/');
    await page.locator('main h1').waitFor();
  } finally {
    await context.close();
  }
});

test.run();
/* eslint-enable @typescript-eslint/no-explicit-any */
