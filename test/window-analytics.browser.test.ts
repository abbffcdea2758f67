/**
 * Analytics in Chromium against `svc window` (a fallback backend, arXiv a
 * loopback server answering a recorded feed): before anything is collected
 * each view says what to do; after a routine's two runs on the fixture
 * source, publication volume, source contribution and routine health each
 * draw a chart, hovering a chart shows its numbers, and each table holds the
 * numbers the API answers (the window control: window-analytics-window).
 * axe-core
 * light and dark; screenshots in test-output/screenshots/.
 */
import * as assert from 'uvu/assert';
import { browserTests } from './_chromium.js';
import { routineBody } from './_scheduler.js';
import { screenshot, seriousViolations } from './_window.js';
import { runToEnd, startPagesWindow, type PagesWindow } from './_window-pages.js';

const { test, executablePath } = browserTests();

let w: PagesWindow;
/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects, loaded lazily */

test.before(async () => {
  w = await startPagesWindow(executablePath());
});
test.after(async () => w?.close());

/** A view's table (the first unless told) as text cells, row by row (row headers included). */
const cells = (page: any, view: string, table = 0): Promise<string[][]> =>
  page.locator(`#${view} table`).nth(table).locator('tbody tr').evaluateAll((rows: any[]) => rows.map((r) => [...r.children].map((c: any) => c.textContent.trim())));
const n = (value: number | null) => (value === null ? '—' : value.toLocaleString('en-US'));

test('nothing collected yet: each view says what to do next (axe-core passes it)', async () => {
  const { page, context } = await w.open('/analytics', { bypassCSP: true });
  try {
    await page.getByText('No source was asked in this window.').waitFor();
    await page.getByText('There is no routine yet.').waitFor();
    assert.is(await page.locator('#sources .empty a[href="/search"]').count(), 1);
    await screenshot(page, 'analytics-empty');
    assert.equal(await seriousViolations(page), [], 'axe-core on the empty page');
  } finally {
    await context.close();
  }
});

test('after a routine ran twice: charts with their numbers on hover, and tables holding what the API answers', async () => {
  const routine = await w.api('POST', '/api/routines', routineBody({ name: 'testing watch', parameters: { repositories: ['arxiv'], query: 'testing', max_results: 10 } }));
  for (let i = 0; i < 2; i++) await runToEnd(w, (await w.api('POST', `/api/routines/${routine.id}/run`)).execution_id);
  const sources = await w.api('GET', '/api/analytics/source-contribution');
  const volume = await w.api('GET', '/api/analytics/publication-volume');
  const health = await w.api('GET', '/api/analytics/routine-health');
  const arxiv = sources.sources.find((s: any) => s.source === 'arxiv');
  assert.ok(arxiv.delivered > 0, 'the fixture delivered papers');

  const { page, context } = await w.open('/analytics', { bypassCSP: true });
  try {
    for (const view of ['volume', 'sources', 'health']) await page.locator(`#${view} .chart-canvas canvas`).first().waitFor();

    // Source contribution: the table is the API's numbers.
    const [row] = await cells(page, 'sources');
    assert.equal(row!.slice(0, 7), ['arXiv', n(arxiv.delivered), n(arxiv.first_found), n(arxiv.only_this_source), n(arxiv.in_corpus), n(arxiv.runs_asked), n(arxiv.runs_not_answered)]);
    // Publication volume: one row per month, the months and totals the API answers.
    const months = await cells(page, 'volume');
    assert.equal(
      months.map((m) => m.slice(0, 2)),
      volume.months.map((m: any) => [m.month, n(m.total)]),
    );
    // Routine health: the routine's runs and what each brought.
    const [routineRow] = await cells(page, 'health', 0);
    const figures = health.routines[0];
    assert.equal(routineRow!.slice(0, 4), ['testing watch', n(figures.runs_considered), n(figures.completed_runs), n(figures.failed_runs)]);
    const runs = await cells(page, 'health', 1);
    assert.equal(
      runs.map((r) => [r[0], r[5]]),
      figures.runs.map((r: any) => [`Run ${r.execution_id}`, n(r.new_count)]),
    );

    // Hovering the source chart shows the numbers of the bar under the cursor.
    const canvas = page.locator('#sources .u-over');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = page.locator('#sources .chart-tip');
    await tip.waitFor();
    assert.match(await tip.textContent(), new RegExp(`arXiv.*Delivered: ${n(arxiv.delivered)} papers.*Only this source: ${n(arxiv.only_this_source)} papers`));
    await page.evaluate('window.scrollTo(0, 0)'); // a full-page screenshot from the top keeps the navigation where a reader sees it
    await screenshot(page, 'analytics');
    assert.equal(await seriousViolations(page), [], 'axe-core with charts');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 800, height: 800 });
    await page.locator('#sources .chart-canvas canvas').first().waitFor();
    await screenshot(page, 'analytics-800-dark');
    assert.equal(await seriousViolations(page), [], 'axe-core, dark');
  } finally {
    await context.close();
  }
});

test.run();
