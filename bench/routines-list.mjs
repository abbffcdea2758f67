#!/usr/bin/env node
// GET /api/routines with a full store (200 routines, 10,000 deliveries: see
// _routines-seed.mjs): the routine list the window's /routines and /review
// pages and the review badge wait for. Timed in-process (listRoutineViews, the
// route's whole service call, less sensitive to a loaded machine) and over
// HTTP through a real server on a loopback port; p50 and p95 of each.
// Run after `npm run build`: `node bench/routines-list.mjs [rounds]`.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.argv[2] ?? 30);
const dist = (p) => import(path.join(root, 'dist', p));
const { createContext } = await dist('src/context.js');
const { silentLogger } = await dist('src/log.js');
const { listRoutineViews } = await dist('src/routines/service.js');
const { startServer } = await dist('server/listen.js');
const { seedRoutines, ROUTINES } = await import('./_routines-seed.mjs');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
const env = { SVC_DATA_DIR: path.join(dir, 'data'), SVC_STATE_DIR: path.join(dir, 'state'), SVC_DISABLE_SCHEDULER: '1', HOME: dir };
const ctx = createContext({ env, log: silentLogger });

function get(port, token) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/routines', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

async function time(fn) {
  await fn(); // warm-up
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  return `p50 ${at(0.5).padStart(7)} ms   p95 ${at(0.95).padStart(7)} ms`;
}

try {
  const seeded = seedRoutines(ctx);
  const load = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${ROUTINES} routines and ${seeded.deliveries} deliveries seeded in ${seeded.ms} ms; load ${load}; ${ROUNDS} rounds (+1 warm-up)`);
  const total = listRoutineViews(ctx, false).total;
  console.log(`in-process  listRoutineViews (${total} views)   ${await time(() => listRoutineViews(ctx, false))}`);
  const server = await startServer(ctx, { port: 0 });
  try {
    const bytes = await get(server.port, server.runtime.token);
    console.log(`over HTTP   GET /api/routines (${bytes} bytes)   ${await time(() => get(server.port, server.runtime.token))}`);
  } finally {
    await server.close(); // closes ctx too
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
