/**
 * The explorer in headless Chromium against `svc window --no-open --json`
 * (test/_window-corpus.ts: the real shell, a dive run on a recorded arXiv
 * feed): loading /explore?q=<the feed's word> shows its titles; a facet
 * click narrows the list, puts the filter in the address (a history entry)
 * and changes the other facets' counts, then a paper opened from the list is
 * saved to the reading queue and marked read — each checked against what the
 * backend stored; the keyboard (/, arrows, Enter); axe-core on each state.
 * Paging, export and refusals: window-explore-paging.browser.test.ts.
 * Screenshots go to test-output/screenshots/.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { waitFor } from './_setup.js';
import { openPage, screenshot, seriousViolations } from './_window.js';
import { FEED_TITLES, startCorpusWindow, type CorpusWindow } from './_window-corpus.js';

/** The page's document, for waits written as functions (see openPage in _window.ts: never as strings). */
declare const document: any;

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: CorpusWindow;

test.before(async () => {
  win = await startCorpusWindow(executablePath());
});
test.after(async () => {
  await win?.close();
});

const rowsShown = (page: any) => page.locator('.vlist .result-title');
const heading = (page: any) => page.locator('#results-heading');
const facetBlock = (page: any, title: string) => page.locator('section.facet', { has: page.locator('h2', { hasText: title }) });
const facetCounts = async (page: any, title: string) => (await facetBlock(page, title).locator('.facet-count').allTextContents()).map((t: string) => Number(t.replace(/\D+/g, '')));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const searchAnswer = (body: Record<string, unknown>) => win.api('POST', '/api/explorer/search', { limit: 500, ...body });
/**
 * The page's own search for `query` answered (its first page: the rows were cleared when it was asked). Asked
 * before the typing and awaited after other waits: a rejection meanwhile is kept for that await, not thrown
 * at the process as an unhandled one (that ended the whole file once under load).
 */
const queryAnswered = (page: any, query: string) => {
  const answered = page.waitForResponse((r: any) => r.url().endsWith('/api/explorer/search') && r.request().method() === 'POST' && r.request().postDataJSON()?.query === query, { timeout: 60_000 });
  answered.catch(() => undefined);
  return answered;
};

test('loading /explore?q=<the feed\'s word> in a tab with a session shows the feed\'s titles, as many as the backend finds', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/explore?q=testing'));
  for (const title of FEED_TITLES) await page.getByRole('link', { name: title }).waitFor({ timeout: 20_000 });
  const stored = await searchAnswer({ query: 'testing' });
  assert.is(stored.papers.length, 10);
  await heading(page).filter({ hasText: '10 papers match' }).waitFor();
  assert.equal((await rowsShown(page).allTextContents()).sort(), stored.papers.map((p: any) => p.title).sort());
  assert.is(await page.inputValue('[data-search-field]'), 'testing');
  await screenshot(page, 'window-explore');
  await context.close();
});

test('a facet click narrows the list, pushes the filter into the address and changes the other counts; a paper opened from the list is queued and marked read', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/explore?q=testing'));
  await heading(page).filter({ hasText: '10 papers match' }).waitFor({ timeout: 20_000 });
  const facets = await win.api('POST', '/api/explorer/facets', { query: 'testing' });
  const category = facets.facets.categories.values.find((v: any) => v.count > 0 && v.count < facets.total);
  assert.ok(category, 'the feed has a category that some of its papers lack');
  assert.is(sum(await facetCounts(page, 'Years')), 10, 'before: the years count every matching paper');

  const entries = await page.evaluate('history.length');
  await facetBlock(page, 'Categories').locator('a.facet-value', { hasText: category.value }).click();
  await page.waitForURL((u: URL) => u.searchParams.getAll('category').includes(category.value) && u.searchParams.get('q') === 'testing');
  assert.is(await page.evaluate('history.length'), entries + 1, 'a facet click pushes a history entry');
  const noun = category.count === 1 ? 'paper matches' : 'papers match';
  await heading(page).filter({ hasText: `${category.count} ${noun}` }).waitFor();
  const narrowed = await searchAnswer({ query: 'testing', categories: [category.value] });
  await page.waitForFunction((n: number) => document.querySelectorAll('.vlist .result-title').length === n, category.count);
  assert.equal((await rowsShown(page).allTextContents()).sort(), narrowed.papers.map((p: any) => p.title).sort());
  // The years facet applies every other filter: its counts now add up to the category's papers.
  await waitFor(async () => sum(await facetCounts(page, 'Years')) === category.count, 10_000, 'the years to count the category\'s papers');
  assert.ok(await facetBlock(page, 'Categories').locator('a.facet-value.selected', { hasText: category.value }).isVisible(), 'the chosen value is marked');
  await screenshot(page, 'window-explore-facet');

  await page.goBack();
  await heading(page).filter({ hasText: '10 papers match' }).waitFor();
  await page.goForward();
  await heading(page).filter({ hasText: `${category.count} ${noun}` }).waitFor();

  const first = rowsShown(page).first();
  const title = await first.textContent();
  await first.click();
  await page.waitForURL(/\/papers\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  assert.is(await page.textContent('h1'), title);
  assert.equal((await win.api('GET', `/api/reading-queue?document_id=${id}`)).entries, [], 'not saved yet');
  await page.getByRole('button', { name: 'Save to read later' }).click();
  await page.getByRole('button', { name: 'Mark read' }).waitFor();
  const saved = (await win.api('GET', `/api/reading-queue?document_id=${id}`)).entries;
  assert.equal(saved.map((e: any) => [e.document_id, e.status, e.paper.title]), [[id, 'unread', title]], 'the backend stored the paper as unread');
  await page.getByRole('button', { name: 'Mark read' }).click();
  await page.getByRole('button', { name: 'Mark unread' }).waitFor();
  assert.is((await win.api('GET', `/api/reading-queue?document_id=${id}`)).entries[0].status, 'read');
  await screenshot(page, 'window-paper-queued');
  await context.close();
});

test('keyboard: / focuses the search field, typing replaces the address, ArrowDown walks the results and Enter opens one', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/explore'));
  await rowsShown(page).first().waitFor({ timeout: 20_000 });
  const entries = await page.evaluate('history.length');
  await page.keyboard.press('/');
  assert.is(await page.evaluate("document.activeElement.hasAttribute('data-search-field')"), true);
  const answered = queryAnswered(page, 'testing');
  await page.keyboard.type('testing');
  await page.waitForURL((u: URL) => u.searchParams.get('q') === 'testing');
  assert.is(await page.evaluate('history.length'), entries, 'typing replaces the entry instead of adding one per pause');
  await heading(page).filter({ hasText: '10 papers match' }).waitFor();
  // The whole corpus is these ten papers: its count and its end line are already there before the query's
  // answer. The list is the query's once that answer is in (its read cleared the rows) and the end line is back.
  await answered;
  await page.locator('.list-end', { hasText: 'All 10 papers shown.' }).waitFor();
  const titles = await rowsShown(page).allTextContents();
  const focused = (title: string) => page.waitForFunction((t: string) => document.activeElement?.textContent === t, title, { timeout: 5000 });
  await page.keyboard.press('ArrowDown');
  await focused(titles[0]);
  await page.keyboard.press('ArrowDown');
  await focused(titles[1]);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  const href = await page.evaluate("document.activeElement.getAttribute('href')");
  await page.keyboard.press('Enter');
  await page.waitForURL((u: URL) => u.pathname === href);
  assert.is(await page.textContent('h1'), titles[1]);
  await context.close();
});

test('keys pressed faster than the list redraws land on the row they move to, whichever render comes last', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/explore?q=testing'));
  await page.locator('.list-end', { hasText: 'All 10 papers shown.' }).waitFor({ timeout: 20_000 });
  const titles = await rowsShown(page).allTextContents();
  await rowsShown(page).nth(1).focus();
  // ArrowUp, a redraw whose effects wait for the next frame, then ArrowDown before that frame: the first
  // redraw's effect must not pull the focus back to the row it drew for, nor may ArrowDown move from a stale row.
  const landed = await page.evaluate(async () => {
    const w = globalThis as any;
    const key = (name: string) => document.activeElement!.dispatchEvent(new w.KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
    key('ArrowUp');
    await Promise.resolve();
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowUp');
    for (let i = 0; i < 3; i++) await new Promise((resolve) => w.requestAnimationFrame(() => setTimeout(resolve, 20)));
    return document.activeElement?.textContent;
  });
  assert.is(landed, titles[1]);
  await context.close();
});

test('axe-core finds no serious or critical violation in the explorer with results, a facet chosen, nothing found, or a refusal', async () => {
  for (const [name, address] of [
    ['results', '/explore?q=testing'],
    ['facet', '/explore?q=testing&category=cs.SE'],
    ['empty', '/explore?q=zzqxv'],
    ['refused', '/explore?from=2025-01-01&to=2020-01-01'],
  ]) {
    const { page, context } = await openPage(win.browser, await win.url(address!), { bypassCSP: true });
    await page.locator('#results-heading').waitFor({ timeout: 20_000 });
    await page.waitForFunction(() => !document.querySelector('.busy'));
    assert.equal(await seriousViolations(page), [], name);
    await context.close();
  }
});

test.run();
/* eslint-enable @typescript-eslint/no-explicit-any */
