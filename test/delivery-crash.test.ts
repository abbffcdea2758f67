import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startServer } from '../server/listen.js';
import { fixture, rawRequest, ROOT, tempDirs, waitFor } from './_setup.js';
import { startStub } from './_stub.js';
import { startWebhook } from './_delivery.js';

test('kill -9 of the server while a delivery is delivering: the next start records the attempt interrupted and delivers it once more, with a record', async () => {
  const dirs = tempDirs();
  const crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  const hook = await startWebhook();
  hook.status = 'hang';
  const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url };
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), '--json', 'serve', '--port', '0'], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    const { port } = await waitFor(() => (stdout.includes('\n') ? JSON.parse(stdout.split('\n')[0]!) : undefined), 15_000, 'svc serve to start');
    const token = fs.readFileSync(path.join(dirs.stateDir, `api-token-${port}`), 'utf8').trim();
    const call = async (method: string, p: string, body?: unknown) => {
      const r = await rawRequest(port, { method, path: p, headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return r.json();
    };
    const routine = await call('POST', '/api/routines', { name: 'crash', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'ecology', max_results: 2 }, is_active: false });
    await call('POST', `/api/routines/${routine.id}/delivery-targets`, { channel: 'webhook', target: hook.url });
    const run = await call('POST', `/api/routines/${routine.id}/run`);
    const [delivering] = await waitFor(async () => {
      const list = (await call('GET', `/api/executions/${run.execution_id}/deliveries`)).deliveries as any[];
      return list.length && list[0].state === 'delivering' && hook.received.length === 1 ? list : undefined;
    }, 15_000, 'a delivery in flight');
    child.kill('SIGKILL');
    await exited;

    hook.status = 200;
    const ctx = createContext({ env, log: createLogger({ level: 'warn', sink: () => {} }) });
    const server = await startServer(ctx, { port: 0 });
    try {
      const after = await waitFor(() => {
        const row = ctx.db.prepare('SELECT * FROM deliveries WHERE id = ?').get(delivering.id) as any;
        return row.state === 'delivered' ? row : undefined;
      }, 15_000, 'the recovered delivery');
      assert.is(after.attempts, 2);
      assert.is(after.last_error, null);
      const log = ctx.db.prepare('SELECT outcome, error FROM delivery_attempts WHERE delivery_id = ? ORDER BY seq').all(delivering.id) as any[];
      assert.equal(log.map((a) => a.outcome), ['interrupted', 'delivered']);
      assert.match(log[0].error, /^Interrupted: /);
      assert.is(hook.received.length, 2);
      assert.equal(hook.received.map((r) => r.headers['x-svc-delivery']), [String(delivering.id), String(delivering.id)]);
      assert.equal(hook.received.map((r) => r.headers['x-svc-attempt']), ['1', '2']);
    } finally {
      await server.close();
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await hook.close();
    await crossref.close();
    dirs.cleanup();
  }
});

test('a delivery left delivering whose attempts are used up is failed with the reason, not left stuck', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => {} }) });
  try {
    const now = ctx.nowIso();
    const db = ctx.db;
    db.prepare("INSERT INTO routines (id, name, schedule_cron, parameters_json, created_at_utc, updated_at_utc) VALUES (1, 'r', '@daily', '{}', ?, ?)").run(now, now);
    db.prepare("INSERT INTO executions (id, type, status, routine_id, query, repositories_json, parameters_json, started_at_utc) VALUES (1, 'routine', 'completed', 1, 'q', '[]', '{}', ?)").run(now);
    db.prepare("INSERT INTO delivery_targets (id, routine_id, channel, target, created_at_utc, updated_at_utc) VALUES (1, 1, 'folder', '/nonexistent', ?, ?)").run(now, now);
    db.prepare("INSERT INTO deliveries (id, routine_id, execution_id, target_id, channel, mode, state, attempts, owner_runtime_id, owner_pid, claimed_at_utc, created_at_utc, updated_at_utc) VALUES (1, 1, 1, 1, 'folder', 'automatic', 'delivering', 5, 'gone', 999999, ?, ?, ?)").run(now, now, now);
    db.prepare("INSERT INTO delivery_attempts (delivery_id, seq, started_at_utc, owner_runtime_id) VALUES (1, 5, ?, 'gone')").run(now);
    const { recoverDeliveries } = await import('../src/delivery/worker.js');
    assert.equal(recoverDeliveries(ctx, () => false), [1]);
    const row = db.prepare('SELECT state, last_error FROM deliveries WHERE id = 1').get() as any;
    assert.is(row.state, 'failed');
    assert.match(row.last_error, /^Interrupted/);
    // an owner that is alive and fresh is left alone
    db.prepare("UPDATE deliveries SET state = 'delivering', attempts = 1, owner_pid = 999999, owner_runtime_id = 'other', claimed_at_utc = ? WHERE id = 1").run(ctx.nowIso());
    assert.equal(recoverDeliveries(ctx, () => true), []);
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test.run();
