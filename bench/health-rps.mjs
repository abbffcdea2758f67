#!/usr/bin/env node
// GET /api/health requests per second through the whole guard (Host, Origin,
// token) against a bare node:http server answering the same JSON, in the same
// run (target: at least 75% of bare). Servers run in child processes; the load
// comes from this process over keep-alive connections. Run after `npm run build`.
import { fork } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 16);
const ROUNDS = 5;

if (process.argv[2] === '--child-svc') {
  const { createContext } = await import(path.join(root, 'dist/src/context.js'));
  const { startServer } = await import(path.join(root, 'dist/server/listen.js'));
  const { silentLogger } = await import(path.join(root, 'dist/src/log.js'));
  const ctx = createContext({ env: { SVC_DATA_DIR: process.argv[3], SVC_STATE_DIR: process.argv[4], SVC_DISABLE_SCHEDULER: '1' }, log: silentLogger });
  const server = await startServer(ctx, { port: 0 });
  process.send({ port: server.port, token: server.runtime.token });
} else if (process.argv[2] === '--child-bare') {
  const body = process.argv[3];
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(body);
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  await main();
}

function startChild(args) {
  const child = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.once('message', (m) => resolve({ child, ...m })));
}

async function load(port, headers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let done = 0;
  let failed = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const one = () =>
    new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/api/health', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) done++;
          else failed++;
          resolve();
        });
      });
      req.on('error', () => {
        failed++;
        resolve();
      });
      req.end();
    });
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < deadline) await one();
  }));
  agent.destroy();
  return { rps: done / SECONDS, failed };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const svc = await startChild(['--child-svc', path.join(dir, 'data'), path.join(dir, 'state')]);
  const headers = { host: `127.0.0.1:${svc.port}`, authorization: `Bearer ${svc.token}` };
  const sample = await new Promise((resolve) => http.get({ host: '127.0.0.1', port: svc.port, path: '/api/health', headers }, (res) => {
    let text = '';
    res.on('data', (d) => (text += d));
    res.on('end', () => resolve(text));
  }));
  const bare = await startChild(['--child-bare', sample]);
  await load(svc.port, headers); // warm up both
  await load(bare.port, {});
  // Interleave rounds so a busy moment of the machine hurts both sides alike; report medians.
  const svcRounds = [];
  const bareRounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so warm-up or a busy moment does not favour one side.
    if (round % 2 === 0) {
      bareRounds.push(await load(bare.port, {}));
      svcRounds.push(await load(svc.port, headers));
    } else {
      svcRounds.push(await load(svc.port, headers));
      bareRounds.push(await load(bare.port, {}));
    }
  }
  const median = (rounds) => rounds.map((r) => r.rps).sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
  const bareRps = median(bareRounds);
  const svcRps = median(svcRounds);
  console.log(`bare node:http     ${bareRps.toFixed(0)} req/s  (median of ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections)`);
  console.log(`svc through guard  ${svcRps.toFixed(0)} req/s  (${((svcRps / bareRps) * 100).toFixed(1)}% of bare; target ≥ 75%)`);
  const failed = [...svcRounds, ...bareRounds].reduce((n, r) => n + r.failed, 0);
  if (failed) console.log(`failed requests: ${failed}`);
  svc.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 500);
}
