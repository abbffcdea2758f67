import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { recoverInterrupted } from '../src/executions/recovery.js';
import { insertExecution, getExecution, getSources, markInterrupted } from '../src/executions/repo.js';
import { listEvents } from '../src/executions/events.js';
import { startServer } from '../server/listen.js';
import { fixture, ROOT, tempDirs, waitFor } from './_setup.js';
import { startStub } from './_stub.js';
import type { RunSpec } from '../src/executions/request.js';

const spec: RunSpec = {
  type: 'dive', repositories: ['crossref'], query: 'x', keywords: [], dateFrom: null, dateTo: null, maxResults: 10, aiEnabled: false, aiSettings: null,
  requestId: null, savedConfigurationId: null, routineId: null, author: null,
};

test('a run whose process was killed becomes interrupted (owner_dead) at the next start, never failed', async () => {
  const dirs = tempDirs();
  const hang = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), delayMs: 60_000 }]);
  const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: hang.url };
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'dive', 'crossref', 'ecology'], { env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
  const watcher = createContext({ env, log: silentLogger });
  try {
    await waitFor(() => hang.requests.length > 0, 15_000, 'the dive to ask crossref');
    const id = watcher.db.prepare('SELECT id FROM executions ORDER BY id DESC LIMIT 1').pluck().get() as number;
    assert.is(getExecution(watcher.db, id)!.owner_pid, child.pid);
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    assert.is(getExecution(watcher.db, id)!.status, 'running', 'nobody settled it');
    const server = await startServer(createContext({ env, log: silentLogger }), { port: 0 });
    try {
      const row = getExecution(watcher.db, id)!;
      assert.is(row.status, 'interrupted');
      assert.is(row.interrupted_reason, 'owner_dead');
      assert.is(getSources(watcher.db, id)[0]!.zero_reason, 'not_recorded');
      const events = listEvents(watcher, id);
      assert.is(events[events.length - 1]!.kind, 'execution_interrupted');
    } finally {
      await server.close();
    }
  } finally {
    child.kill('SIGKILL');
    await watcher.close();
    await hang.close();
    dirs.cleanup();
  }
});

test('reasons are never guessed: owner_dead for a gone owner (a daemon too), unknown without an owner or when a live pid stopped reporting; live owners untouched', async () => {
  const dirs = tempDirs();
  // Stale after 30 s: "fresh" must stay fresh however slowly a loaded machine gets from here to the recovery.
  const ctx = createContext({ env: dirs.env, log: silentLogger, tuning: { executionStaleMs: 30_000 } });
  try {
    const now = ctx.nowIso();
    const old = new Date(Date.now() - 60_000).toISOString();
    const make = (pid: number | null, runtime: string | null, role: string, seen: string) => {
      const id = insertExecution(ctx.db, spec, { pid: 1, runtimeId: 'x', role }, now, null, null);
      ctx.db.prepare('UPDATE executions SET owner_pid = ?, owner_runtime_id = ?, last_seen_at_utc = ? WHERE id = ?').run(pid, runtime, seen, id);
      return id;
    };
    const noOwner = make(null, null, 'cli', old);
    const liveFresh = make(4242, 'other-runtime', 'cli', now);
    const liveStale = make(4243, 'other-runtime', 'cli', old);
    const dead = make(4244, 'other-runtime', 'cli', old);
    const deadDaemon = make(4245, 'other-runtime', 'daemon', old);
    const alive = (pid: number) => pid === 4242 || pid === 4243;
    assert.equal(recoverInterrupted(ctx, alive).sort(), [noOwner, liveStale, dead, deadDaemon].sort());
    const reason = (id: number) => getExecution(ctx.db, id)!.interrupted_reason;
    assert.is(reason(noOwner), 'unknown');
    assert.is(reason(liveStale), 'unknown');
    assert.is(reason(dead), 'owner_dead');
    assert.is(reason(deadDaemon), 'owner_dead', 'a daemon gone without a word is owner_dead, whoever starts next');
    assert.is(getExecution(ctx.db, liveFresh)!.status, 'running');
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('a server shut down during a run records it interrupted (daemon_restart) as it stops and keeps what was found', async () => {
  const dirs = tempDirs();
  const fast = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json') }]);
  const hang = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 60_000 }]);
  const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: fast.url, SVC_SOURCE_DBLP_URL: hang.url };
  const ctx = createContext({ env, log: silentLogger, tuning: { sourceRateScale: 0 } });
  const server = await startServer(ctx, { port: 0 });
  const watcher = createContext({ env, log: silentLogger });
  try {
    const { executionManager } = await import('../src/executions/manager.js');
    const { parseSweep } = await import('../src/executions/request.js');
    const { id } = executionManager(ctx).submit(parseSweep({ repositories: ['crossref', 'dblp'], query: 'ecology', max_results: 2 }));
    await waitFor(() => hang.requests.length > 0 && getSources(watcher.db, id).find((s) => s.source === 'crossref')!.status === 'answered', 10_000, 'crossref answered');
    await server.close();
    const row = getExecution(watcher.db, id)!;
    assert.is(row.status, 'interrupted');
    assert.is(row.interrupted_reason, 'daemon_restart');
    assert.is(row.result_count, 2);
  } finally {
    await watcher.close();
    await fast.close();
    await hang.close();
    dirs.cleanup();
  }
});

test('two processes recovering the same orphaned run at once: it is marked and logged interrupted once', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  try {
    const id = insertExecution(ctx.db, spec, { pid: 999_999, runtimeId: 'gone', role: 'cli' }, ctx.nowIso(), null, { requested: false, used: false });
    // The other process (the daemon, say) settles it between this one's read and its write.
    const alive = () => {
      markInterrupted(ctx.db, id, 'owner_dead', ctx.nowIso());
      return false;
    };
    assert.equal(recoverInterrupted(ctx, alive), [], 'this process marked nothing');
    assert.is(listEvents(ctx, id).filter((e) => e.kind === 'execution_interrupted').length, 0, 'nor logged it a second time');
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test.run();
