#!/usr/bin/env node
// A dive's overhead over the raw time to fetch its fixture pages from a
// loopback server (target: under 10%). The server (a child process) serves the
// recorded Europe PMC page N times with advancing cursors; "raw" fetches those
// N pages one after another and reads the bodies; "dive" runs a real execution
// (politeness scaled to zero, database on disk) that asks, parses, merges,
// records events and writes its report. Median of 3 rounds each.
// Optional argument: simulated server latency in ms (default 0).
// `--against <dir>` (another checkout, built) also runs that build's dive, interleaved with this
// one's and the raw fetch round by round (9 rounds; every round, min and median), for comparisons on a shared,
// loaded machine where runs minutes apart are not comparable.
// Run after `npm run build`.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGES = 40;
const LATENCY_MS = /^\d+$/.test(process.argv[2] ?? '') ? Number(process.argv[2]) : 0;
const against = process.argv.indexOf('--against');
const OTHER = against > 0 ? path.resolve(process.argv[against + 1]) : undefined;

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
  const build = async (dir) => ({
    ...(await import(path.join(dir, 'dist/src/context.js'))),
    ...(await import(path.join(dir, 'dist/src/log.js'))),
    ...(await import(path.join(dir, 'dist/src/executions/manager.js'))),
    ...(await import(path.join(dir, 'dist/src/executions/request.js'))),
  });
  const here = await build(root);

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

  async function dive({ createContext, silentLogger, executionManager, parseDive } = here) {
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
  if (OTHER) {
    const other = await build(OTHER);
    await dive(other);
    const runs = { raw: [], here: [], other: [] };
    for (let i = 0; i < 9; i++) {
      runs.raw.push(await raw());
      runs.other.push(await dive(other));
      runs.here.push(await dive());
    }
    const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const line = (name, xs) => {
      const over = (x, r) => (((x - r) / r) * 100).toFixed(1);
      return `${name.padEnd(40)} min ${Math.min(...xs).toFixed(0).padStart(5)} ms  median ${mid(xs).toFixed(0).padStart(5)} ms${xs === runs.raw ? '' : `   (overhead: min ${over(Math.min(...xs), Math.min(...runs.raw))}%, median ${over(mid(xs), mid(runs.raw))}%)`}`;
    };
    console.log(`${PAGES} pages of 25 records, server latency ${LATENCY_MS} ms, 9 interleaved rounds`);
    console.log(`rounds (ms): ${JSON.stringify(Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.map(Math.round)])))}`);
    console.log(line('raw fetch of the pages', runs.raw));
    console.log(line(`dive, ${OTHER}`, runs.other));
    console.log(line(`dive, ${root}`, runs.here));
    child.kill();
    process.exit(0);
  }
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
