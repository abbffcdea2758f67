#!/usr/bin/env node
// `svc serve` from start to serving: the time until it says "listening", in a
// fresh data folder (the first start creates the database) and again in the
// same folder, median of N each (target: under 2 s, offline). Nothing is
// fetched: the server needs no network to start. Run after `npm run build`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 5);

function untilListening(home) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const env = { PATH: process.env.PATH, HOME: home, SVC_DATA_DIR: path.join(home, 'data'), SVC_STATE_DIR: path.join(home, 'state') };
    const child = spawn(process.execPath, [path.join(root, 'bin', 'svc.js'), 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let said = '';
    const look = (d) => {
      said += d;
      if (!/listening on/.test(said)) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      child.kill('SIGTERM');
      child.on('close', () => resolve(ms));
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('error', reject);
    child.on('exit', (code) => !/listening on/.test(said) && reject(new Error(`svc serve exited ${code}: ${said}`)));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first = [];
const again = [];
for (let i = 0; i < RUNS; i++) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-serve-'));
  try {
    first.push(await untilListening(home));
    again.push(await untilListening(home));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
console.log(`svc serve, fresh data folder   median ${median(first).toFixed(0)} ms   (target < 2000 ms)`);
console.log(`svc serve, existing database   median ${median(again).toFixed(0)} ms`);
console.log(`(load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
