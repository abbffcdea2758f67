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
const TARGET_MS = 300;
const dist = (p) => import(path.join(root, 'dist', p));
const { findChromium } = await dist('test/_chromium.js');
const { launchShell, exchange, freshCode, windowDirs } = await dist('test/_window.js');
const { createContext } = await dist('src/context.js');
const { createProfile } = await dist('src/profiles/service.js');
const { seedRoutines, ROUTINES } = await import('./_routines-seed.mjs');
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
function seed() {
  const ctx = createContext({ env: { ...process.env, ...dirs.env } });
  const t0 = Date.now();
  const { deliveries } = seedRoutines(ctx);
  for (let i = 0; i < PROFILES; i++) createProfile(ctx, { name: `Researcher ${i} Example`, affiliations: [`Institute ${i % 17}`] });
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
