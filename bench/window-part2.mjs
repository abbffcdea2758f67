#!/usr/bin/env node
// The window's part-2 pages with a full data directory: 200 routines and
// 10,000 deliveries stored (50 runs of each routine, one delivery each, in
// every state). For each page, from navigation (a new document in the
// session's tab) to its content on screen; target: under 300 ms. Pages that
// gather per routine ask in parallel and show what has arrived, so their
// figure is the first content, with the complete figure beside it.
// Part-2 engineers add their pages to PAGES. Run after `npm run build`:
// `node bench/window-part2.mjs [rounds]`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] ?? 5);
const ROUTINES = 200;
const RUNS_PER_ROUTINE = 50;
const TARGET_MS = 300;
const dist = (p) => import(path.join(root, 'dist', p));
const { findChromium } = await dist('test/_chromium.js');
const { launchShell, exchange, freshCode, windowDirs } = await dist('test/_window.js');
const { createContext } = await dist('src/context.js');
const { createRoutine } = await dist('src/routines/service.js');
const { insertExecution } = await dist('src/executions/repo.js');
const { insertTarget, insertDelivery } = await dist('src/delivery/repo.js');
const { createProfile } = await dist('src/profiles/service.js');
const PROFILES = 200;

/** Each page: a path (`:routine` is a routine's id) and what shows its content; `complete`: what shows everything gathered. */
const PAGES = [
  { path: '/routines', content: 'tbody tr', complete: 'tbody tr .health-chip' },
  { path: '/routines/:routine', content: 'dl.facts', complete: '.fire-list time' },
  { path: '/routines/:routine/edit', content: '#name', complete: '.fire-list time' },
  { path: '/profiles', content: '.profile-row', complete: '.profile-row' },
  { path: '/sources', content: 'li.source-card', complete: 'li.source-card .key-field .chip' },
  { path: '/settings', content: '.settings-form', complete: '.settings-form' },
  { path: '/routines/:routine/delivery', content: '.delivery-table tbody tr', complete: '.delivery-table tbody tr' },
  { path: '/review', content: '.held', complete: '.review-group:last-of-type .held' },
  { path: '/admin', content: '#backup .facts, #backup .empty', complete: '#backup .facts, #backup .empty' },
];

const dirs = windowDirs();
// Settled states and reports awaiting review: queued ones would be delivered at the backend's start, which is not what this measures.
const STATES = ['delivered', 'delivered', 'delivered', 'failed', 'awaiting_review', 'skipped', 'delivered'];
function seed() {
  const ctx = createContext({ env: { ...process.env, ...dirs.env } });
  const t0 = Date.now();
  const now = new Date().toISOString();
  ctx.db.transaction(() => {
    for (let r = 0; r < ROUTINES; r++) {
      const { id } = createRoutine(ctx, { name: `routine ${r}`, schedule_cron: ['0 6 * * *', 'CRON_TZ=Europe/Berlin 0 8 * * 1', '*/30 * * * *', '0 9 1 * *'][r % 4], parameters: { repositories: ['arxiv', 'crossref'], query: `topic ${r}`, window_days: 7 }, intent: `papers about topic ${r}` });
      const target = insertTarget(ctx.db, { routineId: id, channel: 'folder', enabled: true, mode: r % 3 === 0 ? 'review' : 'automatic', target: `/tmp/svc-bench/${r}`, secret: null }, now);
      for (let n = 0; n < RUNS_PER_ROUTINE; n++) {
        const started = new Date(Date.now() - (RUNS_PER_ROUTINE - n) * 86_400_000).toISOString();
        const spec = { type: 'routine', repositories: ['arxiv', 'crossref'], query: `topic ${r}`, keywords: [], dateFrom: null, dateTo: null, maxResults: 100, aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: id, author: null };
        const exec = insertExecution(ctx.db, spec, { pid: 1, runtimeId: '00000000-0000-4000-8000-000000000000', role: 'daemon' }, started, null, null);
        ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = ?, result_count = ?, new_count = ? WHERE id = ?`).run(started, 20 + (n % 7), n % 5, exec);
        insertDelivery(ctx.db, { routineId: id, executionId: exec, targetId: target, origin: 'target', channel: 'folder', mode: 'automatic', state: STATES[(r + n) % STATES.length] }, started);
      }
    }
  })();
  for (let i = 0; i < PROFILES; i++) createProfile(ctx, { name: `Researcher ${i} Example`, affiliations: [`Institute ${i % 17}`] });
  const deliveries = ctx.db.prepare('SELECT count(*) AS n FROM deliveries').get().n;
  ctx.close();
  return { ms: Date.now() - t0, deliveries };
}

const seeded = seed();
const chromiumPath = findChromium().path ?? '/usr/bin/chromium';
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const shell = await launchShell(dirs.shellEnv);
try {
  const harness = await exchange(shell, shell.code);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${shell.line.renderer_origin}/#launch=${await freshCode(shell, harness)}`);
  await page.waitForSelector('nav.nav', { timeout: 30_000 });
  const routineId = 1 + Math.floor(ROUTINES / 2);
  const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ');
  console.log(`${ROUTINES} routines and ${seeded.deliveries} deliveries seeded in ${seeded.ms} ms; backend ${shell.line.backend.role}; Chromium ${browser.version()}; load ${load}; ${ROUNDS} rounds (+1 warm-up)`);
  console.log(`page                              content ms (median, max)   complete ms (median, max)   target ${TARGET_MS} ms`);
  // `node bench/window-part2.mjs 5 /profiles /sources` times only the paths named.
  const only = process.argv.slice(3);
  for (const p of only.length ? PAGES.filter((x) => only.includes(x.path)) : PAGES) {
    const url = `${shell.line.renderer_origin}${p.path.replace(':routine', String(routineId))}`;
    const content = [];
    const complete = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const t0 = Date.now();
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForSelector(p.content, { timeout: 30_000 });
      const shown = Date.now() - t0;
      await page.waitForSelector(p.complete, { timeout: 30_000 });
      const done = Date.now() - t0;
      if (round > 0) content.push(shown), complete.push(done);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const verdict = median(content) <= TARGET_MS ? 'ok' : 'OVER';
    console.log(`${p.path.padEnd(34)}${String(median(content)).padStart(6)} ${String(Math.max(...content)).padStart(6)}              ${String(median(complete)).padStart(6)} ${String(Math.max(...complete)).padStart(6)}      ${verdict}`);
  }
  await context.close();
} finally {
  await browser.close();
  await shell.stop();
  dirs.cleanup();
  fs.rmSync(path.join(os.tmpdir(), 'svc-bench'), { recursive: true, force: true });
}
