#!/usr/bin/env node
// The window's part-2 pages with a full data directory: 200 routines and
// 10,000 deliveries stored (50 runs of each routine, one delivery each, in
// every state) and 200 people followed. Target: each page shows its content
// within 300 ms of navigation.
//
// "Navigation" in a single-page window is what a person does in it: follow a
// link or the navigation bar, which changes the address through history and
// draws the page without a new document. The target is judged on that: from
// the click on the page's link (a real one: the navigation bar, a routine's
// row on /routines, Edit and Delivery on a routine's page, a person's row on
// /profiles), dispatched inside the page, to the animation frame in which the
// page's content selector matches a new element (that frame draws it),
// checked once a frame with performance.now() in the page. Each round
// first walks in-app to the page the link is on and lets it settle. A new
// document (a reload, a fresh tab: page.goto, the app's load and its session
// exchange included) is timed beside it as a second figure, not judged
// against 300 ms: /admin, which reads little, is its floor.
// Pages that gather per routine ask in parallel and show what has arrived, so
// their figure is the first content, with the complete figure beside it.
// Run after `npm run build`: `node bench/window-part2.mjs [rounds] [paths…]`
// (paths as in PAGES: `/routines/:routine`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] ?? 5);
const TARGET_MS = 300;
const TIMEOUT_MS = 30_000;
const dist = (p) => import(path.join(root, 'dist', p));
const { findChromium } = await dist('test/_chromium.js');
const { launchShell, exchange, freshCode, windowDirs } = await dist('test/_window.js');
const { createContext } = await dist('src/context.js');
const { createProfile } = await dist('src/profiles/service.js');
const { seedRoutines, ROUTINES } = await import('./_routines-seed.mjs');
const PROFILES = 200;
const ROUTINE = 1 + Math.floor(ROUTINES / 2);
const PROFILE = 1 + Math.floor(PROFILES / 2);

const nav = (to) => `nav.nav a[href="${to}"]`;
/**
 * Each page: its path (`:routine`, `:profile`: the ids above), the page its link is on (`from`, a path of
 * PAGES) and that link, what shows its content and what shows everything it gathers.
 */
const PAGES = [
  { path: '/settings', from: '/admin', link: nav('/settings'), content: '.settings-form', complete: '.settings-form' },
  { path: '/admin', from: '/settings', link: nav('/admin'), content: '#backup .facts, #backup .empty', complete: '#backup .facts, #backup .empty' },
  { path: '/routines', from: '/settings', link: nav('/routines'), content: 'tbody tr', complete: 'tbody tr .health-chip' },
  { path: '/routines/:routine', from: '/routines', link: `a[href="/routines/${ROUTINE}"]`, content: 'dl.facts', complete: '.fire-list time' },
  { path: '/routines/:routine/edit', from: '/routines/:routine', link: `a[href="/routines/${ROUTINE}/edit"]`, content: '#name', complete: '.fire-list time' },
  { path: '/routines/new', from: '/routines', link: 'a.button[href="/routines/new"]', content: '#name', complete: '#name' },
  { path: '/routines/:routine/delivery', from: '/routines/:routine', link: `a[href="/routines/${ROUTINE}/delivery"]`, content: '.delivery-table tbody tr', complete: '.delivery-table tbody tr' },
  // Complete: every routine's group has answered (none is still busy).
  { path: '/review', from: '/settings', link: nav('/review'), content: '.held', complete: 'main:not(:has([aria-busy="true"])) .review-group .held' },
  { path: '/profiles', from: '/settings', link: nav('/profiles'), content: '.profile-row', complete: '.profile-row' },
  { path: '/profiles/:profile', from: '/profiles', link: `a[href="/profiles/${PROFILE}"]`, content: 'h1', complete: 'h1' },
  { path: '/sources', from: '/settings', link: nav('/sources'), content: 'li.source-card', complete: 'li.source-card .key-field .chip' },
];
const byPath = new Map(PAGES.map((p) => [p.path, p]));
const address = (p) => p.replace(':routine', String(ROUTINE)).replace(':profile', String(PROFILE));

/**
 * In the page: click `link`, then answer the milliseconds from the click to the animation frame in which
 * `content`, then `complete`, first matched an element that was not there before the click (checked once
 * a frame, before the frame is drawn, so the check itself adds no work between frames).
 */
function clickAndTime({ link, content, complete, timeout }) {
  const before = new Set(document.querySelectorAll(`${content}, ${complete}`));
  const fresh = (selector) => [...document.querySelectorAll(selector)].some((el) => !before.has(el));
  const anchor = document.querySelector(link);
  if (!anchor) return Promise.reject(new Error(`no ${link} on ${location.pathname}`));
  return new Promise((resolve, reject) => {
    const times = {};
    const frame = () => {
      const now = performance.now();
      if (times.content === undefined && fresh(content)) times.content = now - t0;
      if (times.content !== undefined && fresh(complete)) return resolve({ content: times.content, complete: now - t0 });
      if (performance.now() - t0 > timeout) return reject(new Error(`${location.pathname}: ${JSON.stringify(times)} after ${timeout} ms`));
      requestAnimationFrame(frame);
    };
    const t0 = performance.now();
    anchor.click();
    requestAnimationFrame(frame);
  });
}

/** Walk in-app to `p` (from the page its link is on) and wait for everything it gathers; answers the timing of the last click. */
async function reach(page, p) {
  const here = await page.evaluate(() => location.pathname);
  if (here === address(p.path)) return null;
  if (!(await page.$(p.link))) await reach(page, byPath.get(p.from));
  const timing = await page.evaluate(clickAndTime, { link: p.link, content: p.content, complete: p.complete, timeout: TIMEOUT_MS });
  return timing;
}

const settle = (page) => page.evaluate(() => new Promise((resolve) => setTimeout(() => requestAnimationFrame(resolve), 150)));

const dirs = windowDirs();
function seed() {
  const ctx = createContext({ env: { ...process.env, ...dirs.env } });
  const t0 = Date.now();
  const { deliveries } = seedRoutines(ctx);
  for (let i = 0; i < PROFILES; i++) createProfile(ctx, { name: `Researcher ${i} Example`, affiliations: [`Institute ${i % 17}`] });
  ctx.close();
  return { ms: Date.now() - t0, deliveries };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => String(Math.round(x)).padStart(5);

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
  await page.waitForSelector('nav.nav', { timeout: TIMEOUT_MS });
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${ROUTINES} routines, ${seeded.deliveries} deliveries and ${PROFILES} people seeded in ${seeded.ms} ms; backend ${shell.line.backend.role}; Chromium ${browser.version()}; load ${load}; ${ROUNDS} rounds (+1 warm-up)`);
  console.log(`                               in-app: click → drawn (judged)          new document: goto → drawn`);
  console.log(`page                           content (med, max)  complete (med, max)  content (med, max)  complete (med, max)  target ${TARGET_MS} ms`);
  const only = process.argv.slice(3);
  for (const p of only.length ? PAGES.filter((x) => only.includes(x.path)) : PAGES) {
    const inApp = { content: [], complete: [] };
    const fresh = { content: [], complete: [] };
    for (let round = 0; round <= ROUNDS; round++) {
      await reach(page, byPath.get(p.from));
      await settle(page);
      const t = await reach(page, p);
      if (round > 0) inApp.content.push(t.content), inApp.complete.push(t.complete);
    }
    for (let round = 0; round <= ROUNDS; round++) {
      const t0 = Date.now();
      await page.goto(`${shell.line.renderer_origin}${address(p.path)}`, { waitUntil: 'commit' });
      await page.waitForSelector(p.content, { timeout: TIMEOUT_MS });
      const shown = Date.now() - t0;
      await page.waitForSelector(p.complete, { timeout: TIMEOUT_MS });
      if (round > 0) fresh.content.push(shown), fresh.complete.push(Date.now() - t0);
    }
    const verdict = median(inApp.content) <= TARGET_MS ? 'ok' : 'OVER';
    const pair = (xs) => `${ms(median(xs))} ${ms(Math.max(...xs))}`;
    console.log(`${p.path.padEnd(31)}${pair(inApp.content)}         ${pair(inApp.complete)}         ${pair(fresh.content)}         ${pair(fresh.complete)}         ${verdict}`);
    await settle(page);
  }
  await context.close();
} finally {
  await browser.close();
  await shell.stop();
  dirs.cleanup();
  fs.rmSync(path.join(os.tmpdir(), 'svc-bench'), { recursive: true, force: true });
}
