#!/usr/bin/env node
// From spawning `svc window --no-open --json` (with the daemon of the data
// directory already running) to the first contentful paint of `/` in an
// already running headless Chromium (target: under 1.5 s). Each round starts
// a new shell and a fresh browser context; the figures are the JSON line (the
// shell attached and serving) and the paint, from the spawn. Beside them, in
// the same run, two floors that say how loaded the machine is: `svc --help`
// from spawn to exit (no svc command starts faster) and the first paint of a
// static page from a bare node:http server.
// Run after `npm run build`; `node bench/window-start.mjs [rounds]`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
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
const floors = [];
/** First contentful paint of `url` in a fresh context, in ms since the epoch. */
async function paintAt(url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    return await page.evaluate(
      () =>
        new Promise((resolve) => {
          const seen = (entry) => resolve(performance.timeOrigin + entry.startTime);
          const done = performance.getEntriesByName('first-contentful-paint')[0];
          if (done) return seen(done);
          new PerformanceObserver((list) => seen(list.getEntriesByName('first-contentful-paint')[0])).observe({ type: 'paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}
const bare = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bare</title><p>A static page.</p>'));
await new Promise((r) => bare.listen(0, '127.0.0.1', r));
try {
  const daemon = JSON.parse(svc('--json', 'daemon', 'start', '--port', '0'));
  console.log(`daemon on port ${daemon.status.port}; Chromium ${browser.version()}; ${ROUNDS} rounds (+1 warm-up)`);
  for (let round = 0; round <= ROUNDS; round++) {
    const t0 = Date.now();
    const shell = spawn(process.execPath, [BIN, 'window', '--no-open', '--json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = JSON.parse(await new Promise((resolve) => readline.createInterface({ input: shell.stdout }).once('line', resolve)));
      const tLine = Date.now();
      if (line.backend.role !== 'daemon') throw new Error(`attached to a ${line.backend.role}, not the daemon`);
      const fcpAt = await paintAt(line.url);
      if (round > 0) rows.push({ line: tLine - t0, fcp: fcpAt - t0 });
    } finally {
      shell.kill('SIGTERM');
      await new Promise((r) => shell.once('exit', r));
    }
    const h0 = Date.now();
    execFileSync(process.execPath, [BIN, '--help'], { env, stdio: 'ignore' });
    const help = Date.now() - h0;
    const b0 = Date.now();
    const bareFcp = (await paintAt(`http://127.0.0.1:${bare.address().port}/`)) - b0;
    if (round > 0) floors.push({ help, bareFcp });
  }
} finally {
  bare.close();
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
console.log(`floors, median: svc --help ${median(floors.map((f) => f.help))} ms spawn to exit; a static page's first paint ${Math.round(median(floors.map((f) => f.bareFcp)))} ms from goto (load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores)`);
console.log(`median: JSON line ${median(rows.map((r) => r.line))} ms, first contentful paint of / ${Math.round(fcp)} ms from the spawn (target < 1500 ms: ${fcp < 1500 ? 'met' : 'NOT met'})`);
