#!/usr/bin/env node
// The pages of the window's part 2 with 200 routines and 10,000 deliveries
// stored (issue 34 item 9): from navigation to the page's content, in an
// already running headless Chromium, against `svc window --no-open --json`
// (target: under 300 ms). Each page adds its case to PAGES: a path and the
// selector of its content. Pages that gather per routine (Review) must do so
// in parallel and show what has arrived: the bench also times the first
// routine's group and the last one's.
// Run after `npm run build`; `node bench/window-part2.mjs [rounds]` (KEEP=1 keeps the data folder).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const load = (p) => import(path.join(root, 'dist', p));
const ROUNDS = Number(process.argv[2] ?? 5);
const ROUTINES = 200;
const RUNS_PER_ROUTINE = 25; // two destinations each: 200 × 25 × 2 = 10,000 deliveries
const HELD_ROUTINES = 40; // routines whose review destination holds their last run's report

const { findChromium } = await load('test/_chromium.js').catch(() => ({}));
const chromiumPath = findChromium?.().path ?? '/usr/bin/chromium';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-window2-'));
const env = { PATH: process.env.PATH, HOME: tmp, SVC_DATA_DIR: path.join(tmp, 'data'), SVC_STATE_DIR: path.join(tmp, 'state'), NO_COLOR: '1' };
const reports = path.join(tmp, 'reports');
fs.mkdirSync(reports, { recursive: true });

// ── the store: routines and their destinations through the service, runs and deliveries in bulk ──
const { createContext } = await load('src/context.js');
const { createRoutine } = await load('src/routines/service.js');
const { createTarget } = await load('src/delivery/targets.js');
const { silentLogger } = await load('src/log.js');
const ctx = createContext({ env, log: silentLogger });
const seedStart = Date.now();
const insertRun = ctx.db.prepare(
  `INSERT INTO executions (type, status, routine_id, query, repositories_json, parameters_json, started_at_utc, finished_at_utc, result_count, new_count)
   VALUES ('routine', 'completed', ?, ?, '["crossref"]', ?, ?, ?, 25, 3)`,
);
const insertDelivery = ctx.db.prepare(
  `INSERT INTO deliveries (routine_id, execution_id, target_id, origin, channel, mode, state, attempts, last_error, created_at_utc, updated_at_utc, delivered_at_utc)
   VALUES (?, ?, ?, 'target', ?, ?, ?, ?, ?, ?, ?, ?)`,
);
for (let r = 0; r < ROUTINES; r++) {
  const { id } = createRoutine(ctx, { name: `routine ${r + 1}`, schedule_cron: `${r % 60} ${r % 24} * * *`, parameters: { repositories: ['crossref'], query: `topic ${r}`, max_results: 25, window_days: 7 }, is_active: r % 2 === 0 });
  const folder = createTarget(ctx, id, { channel: 'folder', target: reports });
  const review = createTarget(ctx, id, { channel: 'feed', target: reports, mode: 'review' });
  ctx.db.transaction(() => {
    for (let n = 0; n < RUNS_PER_ROUTINE; n++) {
      const at = new Date(Date.UTC(2025, 0, 1) + (r * RUNS_PER_ROUTINE + n) * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const run = Number(insertRun.run(id, `topic ${r}`, JSON.stringify({ query: `topic ${r}` }), at, at).lastInsertRowid);
      const failed = n % 7 === 3;
      insertDelivery.run(id, run, folder.id, 'folder', 'automatic', failed ? 'failed' : 'delivered', failed ? 5 : 1, failed ? 'Folder <target> is not writable.' : null, at, at, failed ? null : at);
      const held = r < HELD_ROUTINES && n === RUNS_PER_ROUTINE - 1;
      insertDelivery.run(id, run, review.id, 'feed', 'review', held ? 'awaiting_review' : 'skipped', 0, null, at, at, null);
    }
  })();
}
const deliveryCount = ctx.db.prepare('SELECT count(*) AS n FROM deliveries').get().n;
await ctx.close();
console.log(`stored ${ROUTINES} routines and ${deliveryCount} deliveries in ${Date.now() - seedStart} ms`);

// ── the window and the browser ──
const shell = spawn(process.execPath, [path.join(root, 'bin', 'svc.js'), 'window', '--no-open', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const line = JSON.parse(await new Promise((resolve) => readline.createInterface({ input: shell.stdout }).once('line', resolve)));
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });

/** Each page of part 2: its path and what shows that its content is there. Other pages add theirs. */
const PAGES = [
  { name: 'deliveries of a routine', path: '/routines/1/delivery', content: '.delivery-table tbody tr' },
  { name: 'review (first routine group)', path: '/review', content: '.held' },
  { name: 'review (all 40 groups)', path: '/review', content: `.review-group:nth-of-type(${HELD_ROUTINES}) .held`, all: true },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(line.url);
  await page.waitForSelector('nav.nav', { timeout: 30_000 });
  const results = [];
  for (const p of PAGES) {
    const times = [];
    for (let round = 0; round <= ROUNDS; round++) {
      await page.evaluate(() => history.pushState(null, '', '/'));
      await page.evaluate(() => dispatchEvent(new PopStateEvent('popstate')));
      await page.waitForSelector('main h1');
      // In-app navigation, as a click on a link of the navigation does it.
      const started = await page.evaluate((to) => {
        const t0 = performance.now();
        history.pushState(null, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
        return t0;
      }, p.path);
      const seen = p.all
        ? await page.waitForFunction(() => document.querySelectorAll('.review-group .held').length > 0 && !document.querySelector('.review-group[aria-busy="true"]') && performance.now(), null, { timeout: 30_000 }).then((h) => h.jsonValue())
        : await page.waitForSelector(p.content, { timeout: 30_000 }).then(() => page.evaluate(() => performance.now()));
      if (round > 0) times.push(seen - started); // round 0 warms the page's module
    }
    results.push({ page: p.name, median_ms: Math.round(median(times)), max_ms: Math.round(Math.max(...times)) });
  }
  const groups = await page.locator('.review-group').count();
  console.table(results);
  console.log(`review showed ${groups} routine groups; target: content within 300 ms of navigation`);
  await context.close();
} finally {
  await browser.close();
  shell.kill('SIGTERM');
  await new Promise((r) => shell.once('exit', r));
  if (!process.env.KEEP) fs.rmSync(tmp, { recursive: true, force: true }); else console.log(tmp);
}
