#!/usr/bin/env node
// From spawning `svc window --no-open --json` (with the daemon of the data
// directory already running) to the first contentful paint of `/` in an
// already running headless Chromium (target: under 1.5 s). Each round starts
// a new shell and a fresh browser context; the figures are the JSON line (the
// shell attached and serving), the navigation, and the paint, from the spawn.
// Run after `npm run build`; `node bench/window-start.mjs [rounds]`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] ?? 7);
const BIN = path.join(root, 'bin', 'svc.js');
const { findChromium } = await import(path.join(root, 'dist/test/_chromium.js')).catch(() => ({}));
const chromiumPath = findChromium?.().path ?? '/usr/bin/chromium';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-window-'));
const env = { PATH: process.env.PATH, HOME: tmp, SVC_DATA_DIR: path.join(tmp, 'data'), SVC_STATE_DIR: path.join(tmp, 'state') };
const svc = (...args) => execFileSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const rows = [];
try {
  const daemon = JSON.parse(svc('--json', 'daemon', 'start', '--port', '0'));
  console.log(`daemon on port ${daemon.status.port}; Chromium ${browser.version()}; ${ROUNDS} rounds (+1 warm-up)`);
  for (let round = 0; round <= ROUNDS; round++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const t0 = Date.now();
    const shell = spawn(process.execPath, [BIN, 'window', '--no-open', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = JSON.parse(await new Promise((resolve) => readline.createInterface({ input: shell.stdout }).once('line', resolve)));
      const tLine = Date.now();
      if (line.backend.role !== 'daemon') throw new Error(`attached to a ${line.backend.role}, not the daemon`);
      await page.goto(line.url, { waitUntil: 'commit' });
      const fcpAt = await page.evaluate(
        () =>
          new Promise((resolve) => {
            const seen = (entry) => resolve(performance.timeOrigin + entry.startTime);
            const done = performance.getEntriesByName('first-contentful-paint')[0];
            if (done) return seen(done);
            new PerformanceObserver((list) => seen(list.getEntriesByName('first-contentful-paint')[0])).observe({ type: 'paint', buffered: true });
          }),
      );
      if (round > 0) rows.push({ line: tLine - t0, fcp: fcpAt - t0 });
    } finally {
      shell.kill('SIGTERM');
      await new Promise((r) => shell.once('exit', r));
      await context.close();
    }
  }
} finally {
  await browser.close();
  try {
    svc('daemon', 'stop');
  } catch {
    // stopped already
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [i, r] of rows.entries()) console.log(`round ${i + 1}: JSON line ${r.line} ms, first contentful paint ${Math.round(r.fcp)} ms`);
const fcp = median(rows.map((r) => r.fcp));
console.log(`median: JSON line ${median(rows.map((r) => r.line))} ms, first contentful paint of / ${Math.round(fcp)} ms from the spawn (target < 1500 ms: ${fcp < 1500 ? 'met' : 'NOT met'})`);
