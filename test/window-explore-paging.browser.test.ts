/**
 * The explorer with more papers than a page (450 generated, and a dive run on
 * a recorded arXiv feed through `svc window --no-open --json`, as in
 * window-explore.browser.test.ts): the list pages by the service's cursor to
 * the last paper while drawing only the rows in view; every matching paper is
 * exported through a Blob in the format chosen; a refusal is shown beside the
 * field its loc names, in the service's words.
 */
import fs from 'node:fs';
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { backendRequest, openPage, screenshot } from './_window.js';
import { soilPapers, startCorpusWindow, type CorpusWindow } from './_window-corpus.js';

const { test, executablePath } = browserTests();

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */
let win: CorpusWindow;
const SEEDED = 450;

test.before(async () => {
  win = await startCorpusWindow(executablePath(), { records: soilPapers(SEEDED) });
});
test.after(async () => {
  await win?.close();
});

const rowsShown = (page: any) => page.locator('.vlist .result-title');
const heading = (page: any) => page.locator('#results-heading');
const searchAnswer = (body: Record<string, unknown>) => win.api('POST', '/api/explorer/search', { limit: 500, ...body });

test('the list pages by the service\'s cursor to the last matching paper, drawing only the rows in view', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/explore?category=Soil%20science'));
  await heading(page).filter({ hasText: `${SEEDED} papers match` }).waitFor({ timeout: 20_000 });
  const all = await searchAnswer({ categories: ['Soil science'] });
  assert.is(all.papers.length, SEEDED);
  assert.ok((await rowsShown(page).count()) < 60, 'only the rows near the viewport are drawn');
  const last = page.locator(`[data-index="${SEEDED - 1}"] .result-title`);
  // Scrolling down asks for the next pages as the reader nears the end of the rows loaded.
  for (let i = 0; i < 200 && (await last.count()) === 0; i++) {
    await page.mouse.wheel(0, 3000);
    await page.waitForTimeout(50);
  }
  assert.is(await page.textContent('.list-end'), `All ${SEEDED} papers shown.`);
  assert.is(await last.textContent(), all.papers[SEEDED - 1].title, 'the last row is the last paper in corpus order');
  await context.close();
});


test('export saves every matching paper (not only the rows loaded) through a Blob, in the format chosen', async () => {
  const { page, context } = await openPage(win.browser, await win.url('/explore?category=Soil%20science'));
  await heading(page).filter({ hasText: `${SEEDED} papers match` }).waitFor({ timeout: 20_000 });
  await page.selectOption('#export-format', 'ris');
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Export all ${SEEDED}` }).click()]);
  assert.match(file.url(), /^blob:/, 'the token never travels in a URL');
  assert.match(file.suggestedFilename(), /\.ris$/);
  const text = fs.readFileSync(await file.path(), 'utf8');
  assert.is(text.match(/^TY {2}- /gm)?.length, SEEDED);
  await page.getByText(/^Saved .+\.ris$/).waitFor();
  await context.close();
});


test('a refusal is shown beside the field its loc names, in the service\'s words', async () => {
  const body = { date_from: '2025-01-01', date_to: '2020-01-01' };
  const refused = await backendRequest(win.session, 'POST', '/api/explorer/search', { body });
  assert.is(refused.status, 422);
  const message = refused.json().detail.find((d: any) => d.loc.join('.') === 'body.date_to').msg;
  const { page, context } = await openPage(win.browser, await win.url('/explore?from=2025-01-01&to=2020-01-01'));
  const beside = page.locator('#explore-to-error');
  await beside.waitFor({ timeout: 20_000 });
  assert.is((await beside.textContent()).replace(/\.$/, ''), message.replace(/\.$/, ''));
  assert.is(await page.getAttribute('#explore-to', 'aria-invalid'), 'true');
  assert.is(await page.getAttribute('#explore-to', 'aria-describedby'), 'explore-to-error');
  assert.not.match(await page.textContent('main'), /\{|"loc"/, 'no raw JSON');
  await screenshot(page, 'window-explore-refused');
  await context.close();
});


test.run();
/* eslint-enable @typescript-eslint/no-explicit-any */
