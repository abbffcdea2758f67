#!/usr/bin/env node
// A dive's overhead over the raw time to fetch its fixture pages from a
// loopback server (target: under 10%). The server (a child process) serves the
// recorded Europe PMC page N times with advancing cursors; "raw" fetches those
// N pages one after another and reads the bodies; "dive" runs a real execution
// (politeness scaled to zero, database on disk) that asks, parses, merges,
// records events and writes its report. Median of 3 rounds each.
// Optional argument: simulated server latency in ms (default 0).
// Run after `npm run build`.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = 40;
const LATENCY_MS = Number(process.argv[2] ?? 0);

if (process.argv[2] === '--server') {
  const latency = Number(process.argv[3]);
  const page = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/europepmc/search-cancer-lite.json'), 'utf8'));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const cursor = url.searchParams.get('cursorMark') ?? '*';
    const n = cursor === '*' ? 0 : Number(cursor.slice(1));
    // Each page holds other works: ids, DOIs and titles made distinct per page.
    const results = page.resultList.result.map((r) => ({
      ...r,
      id: `${r.id}-${n}`,
      pmid: r.pmid ? String(Number(r.pmid) + n * 100_000_000) : undefined,
      pmcid: undefined,
      doi: r.doi ? `${r.doi}.p${n}` : undefined,
      title: `${r.title} (page ${n})`,
    }));
    const body = JSON.stringify({ ...page, resultList: { result: results }, nextCursorMark: n + 1 < PAGES ? `c${n + 1}` : cursor });
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), latency);
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  const child = fork(fileURLToPath(import.meta.url), ['--server', String(LATENCY_MS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((r) => child.once('message', r));
  const base = `http://127.0.0.1:${port}`;
  const { createContext } = await import(path.join(root, 'dist/src/context.js'));
  const { silentLogger } = await import(path.join(root, 'dist/src/log.js'));
  const { executionManager } = await import(path.join(root, 'dist/src/executions/manager.js'));
  const { parseDive } = await import(path.join(root, 'dist/src/executions/request.js'));

  async function raw() {
    const start = performance.now();
    let cursor = '*';
    for (let i = 0; i < PAGES; i++) {
      const res = await fetch(`${base}/search?query=cancer&format=json&resultType=core&pageSize=25&cursorMark=${encodeURIComponent(cursor)}`);
      const body = JSON.parse(await res.text());
      cursor = body.nextCursorMark;
    }
    return performance.now() - start;
  }

  async function dive() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dive-bench-'));
    const ctx = createContext({ env: { SVC_DATA_DIR: dir, SVC_STATE_DIR: dir, SVC_SOURCE_EUROPEPMC_URL: base }, log: silentLogger, tuning: { sourceRateScale: 0 } });
    void ctx.schemaVersion; // open and migrate outside the timing, as a running server has
    const manager = executionManager(ctx);
    const start = performance.now();
    const { id } = manager.submit(parseDive({ repository: 'europepmc', query: 'cancer', max_results: PAGES * 25 }));
    const status = await manager.wait(id);
    const ms = performance.now() - start;
    const count = ctx.db.prepare('SELECT result_count FROM executions WHERE id = ?').pluck().get(id);
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (status !== 'completed' || count !== PAGES * 25) throw new Error(`dive ended ${status} with ${count} results`);
    return ms;
  }

  await raw(); // warm up the connection pool and the JIT
  await dive();
  const raws = [];
  const dives = [];
  for (let i = 0; i < 3; i++) {
    raws.push(await raw());
    dives.push(await dive());
  }
  const median = (xs) => xs.sort((a, b) => a - b)[1];
  const r = median(raws);
  const d = median(dives);
  console.log(`${PAGES} pages of 25 records, server latency ${LATENCY_MS} ms`);
  console.log(`raw fetch of the pages  ${r.toFixed(0)} ms`);
  console.log(`dive end to end         ${d.toFixed(0)} ms   (overhead ${(((d - r) / r) * 100).toFixed(1)}%; target < 10%)`);
  child.kill();
}
