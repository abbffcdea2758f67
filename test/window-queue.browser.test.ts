/**
 * The reading queue board in Chromium against `svc window` (a fallback
 * backend, arXiv a loopback server answering a recorded feed): empty, it says
 * how to save a paper; with papers saved through the API it has a column per
 * status the service counts, finds a paper through its filter (`/`), moves it
 * with a button, moves across columns with the arrow keys and opens a paper
 * with Enter; Remove takes a paper off and Undo puts it back — each checked
 * against what the backend stored. axe-core on the board, empty and full;
 * screenshots in test-output/screenshots/.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { waitFor } from './_setup.js';
import { screenshot, seriousViolations } from './_window.js';
import { diveToEnd, startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

let w: PagesWindow;
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let papers: { id: number; title: string }[] = [];

test.before(async () => {
  w = await startPagesWindow(executablePath());
});
test.after(async () => w?.close());

const column = (page: any, name: string) => page.locator('.queue-column', { has: page.getByRole('heading', { name: new RegExp(`^${name}`) }) });
const savedIds = async (status: string) => (await w.api('GET', `/api/reading-queue?status=${status}&limit=500`)).entries.map((e: any) => e.document_id).sort();

test('an empty queue says how to save a paper, with the way to the explorer (axe-core passes it)', async () => {
  const { page, context } = await w.open('/queue', { bypassCSP: true });
  try {
    await page.getByText('Your reading queue is empty.').waitFor();
    assert.match(await page.locator('.empty').textContent(), /from a paper's page/);
    assert.is(await page.locator('.empty a[href="/explore"]').count(), 1);
    await screenshot(page, 'queue-empty');
    assert.equal(await seriousViolations(page), [], 'axe-core on the empty board');
  } finally {
    await context.close();
  }
});

test('the board: a column per status the service counts; the filter finds a saved paper, a button moves it, and the backend has it read', async () => {
  const run = await diveToEnd(w);
  papers = (await w.api('GET', `/api/executions/${run}/documents?limit=500`)).documents.slice(0, 4).map((d: any) => ({ id: d.id, title: d.title }));
  for (const p of papers) await w.api('POST', '/api/reading-queue', { document_id: p.id });
  await w.api('PUT', `/api/reading-queue/${papers[3]!.id}`, { status: 'read' });
  const counts = (await w.api('GET', '/api/reading-queue?limit=1')).counts;

  const { page, context } = await w.open('/queue');
  try {
    await page.locator('.queue-card').first().waitFor();
    const headings = await page.locator('.queue-column h2').allTextContents();
    assert.equal(headings.map((h: string) => h.replace(/\s+\d+$/, '')), ['To read', 'Read'], 'one column per status, in the order the service counts them');
    assert.equal(Object.keys(counts), ['unread', 'read']);
    assert.equal(headings.map((h: string) => Number(/(\d+)$/.exec(h)?.[1])), [counts.unread, counts.read], 'each column says how many it holds');
    await screenshot(page, 'queue-board');

    // `/` goes to the filter; words of one title leave that paper alone on the board.
    const target = papers[1]!;
    await page.locator('h1').click();
    await page.keyboard.press('/');
    assert.is(await page.evaluate('document.activeElement.id'), 'queue-q');
    const words = target.title.split(/\s+/).slice(0, 3).join(' ');
    await page.keyboard.type(words);
    await page.waitForURL((url: URL) => url.searchParams.get('q') === words);
    const matching = (await w.api('GET', `/api/reading-queue?q=${encodeURIComponent(words)}`)).total;
    await waitFor(async () => (await page.locator('.queue-card').count()) === matching, 10_000, `${matching} card(s) on the board`);
    const card = page.locator('.queue-card', { hasText: target.title });
    assert.is(await card.count(), 1);

    await card.getByRole('button', { name: 'Mark read' }).click();
    await column(page, 'Read').locator('.queue-card', { hasText: target.title }).waitFor();
    assert.match(await page.locator('.status-line').textContent(), `Moved “${target.title}” to Read.`);
    assert.ok((await savedIds('read')).includes(target.id), 'the backend has it read');
    const entry = (await w.api('GET', '/api/reading-queue?status=read&limit=500')).entries.find((e: any) => e.document_id === target.id);
    assert.ok(entry.read_at_utc, 'with the time it was read');
  } finally {
    await context.close();
  }
});

test('keyboard: ↓ within a column, → to the column beside, Enter opens the paper', async () => {
  const { page, context } = await w.open('/queue');
  try {
    await page.locator('.queue-card').first().waitFor();
    const unread = (await w.api('GET', '/api/reading-queue?status=unread')).entries.map((e: any) => e.document_id);
    const read = (await w.api('GET', '/api/reading-queue?status=read')).entries.map((e: any) => e.document_id);
    await column(page, 'To read').locator('[data-row-link]').first().focus();
    await page.keyboard.press('ArrowDown');
    assert.is(await page.evaluate('document.activeElement.getAttribute("href")'), `/papers/${unread[1]}`, '↓ goes to the next paper to read');
    await page.keyboard.press('ArrowRight');
    assert.is(await page.evaluate('document.activeElement.getAttribute("href")'), `/papers/${read[Math.min(1, read.length - 1)]}`, '→ goes to the paper at that height in Read');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/papers/${read[Math.min(1, read.length - 1)]}$`));
  } finally {
    await context.close();
  }
});

test('Remove takes a paper off the queue (the paper stays in the corpus); Undo saves it again with its status', async () => {
  const { page, context } = await w.open('/queue');
  try {
    const target = papers[3]!; // read since the start
    const card = column(page, 'Read').locator('.queue-card', { hasText: target.title });
    await card.getByRole('button', { name: 'Remove' }).click();
    await page.locator('.status-line', { hasText: 'Removed' }).waitFor();
    await card.waitFor({ state: 'detached' });
    assert.not.ok((await savedIds('all')).includes(target.id), 'the backend took it off the queue');
    assert.ok(await w.api('GET', `/api/documents/${target.id}/why`), 'the paper is still in the corpus');
    assert.ok(await page.evaluate('document.activeElement?.closest(".queue-column")?.dataset.column'), 'the keyboard stays on the board');

    await page.getByRole('button', { name: 'Undo' }).click();
    await card.waitFor();
    assert.ok((await savedIds('read')).includes(target.id), 'saved again, and read as it was');
  } finally {
    await context.close();
  }
});

test('a filter the service refuses shows its words beside the field', async () => {
  const long = 'x'.repeat(201);
  const refusal = await w.api('GET', `/api/reading-queue?q=${long}`).catch((err: Error) => err.message);
  const { page, context } = await w.open(`/queue?q=${long}`);
  try {
    const message = JSON.parse(refusal.slice(refusal.indexOf('{'))).detail[0].msg;
    await page.locator('#queue-q-error').waitFor();
    assert.is(await page.locator('#queue-q-error').textContent(), message);
    assert.is(await page.getByLabel('Filter saved papers').getAttribute('aria-invalid'), 'true');
  } finally {
    await context.close();
  }
});

test('axe-core: no serious or critical violation on the board', async () => {
  const { page, context } = await w.open('/queue', { bypassCSP: true });
  try {
    await page.locator('.queue-card').first().waitFor();
    assert.equal(await seriousViolations(page), []);
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await seriousViolations(page), [], 'dark too');
    await page.setViewportSize({ width: 800, height: 800 });
    await screenshot(page, 'queue-board-800-dark');
  } finally {
    await context.close();
  }
});

test.run();
