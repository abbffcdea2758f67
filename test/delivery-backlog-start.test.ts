/**
 * A server starts and answers while deliveries wait: with a long backlog of
 * queued deliveries to a destination that cannot be reached (a closed
 * loopback port), it listens first and its delivery worker drains the backlog
 * in the background, between requests. (A window's fallback backend with
 * ~1,400 queued deliveries did not start within 15 s: the backlog was worked
 * through before the server listened.)
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { insertDelivery, insertTarget } from '../src/delivery/repo.js';
import { insertExecution } from '../src/executions/repo.js';
import { createRoutine } from '../src/routines/service.js';
import { startServer } from '../server/listen.js';
import { rawRequest, tempDirs, waitFor } from './_setup.js';

const BACKLOG = 2000;
const dirs = tempDirs();
test.after(() => dirs.cleanup());

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function seedBacklog(port: number): void {
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  const now = ctx.nowIso();
  ctx.db.transaction(() => {
    const { id } = createRoutine(ctx, { name: 'backlog', schedule_cron: '0 6 * * *', parameters: { repositories: ['arxiv'], query: 'q' } });
    const target = insertTarget(ctx.db, { routineId: id, channel: 'webhook', enabled: true, mode: 'automatic', target: `http://127.0.0.1:${port}/hook`, secret: 'secret' }, now);
    const spec = { type: 'routine', repositories: ['arxiv'], query: 'q', keywords: [], dateFrom: null, dateTo: null, maxResults: 100, aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: id, author: null };
    for (let i = 0; i < BACKLOG; i++) {
      const execution = insertExecution(ctx.db, spec as never, { pid: 1, runtimeId: '00000000-0000-4000-8000-000000000000', role: 'daemon' }, now, null, null);
      ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = ? WHERE id = ?`).run(now, execution);
      insertDelivery(ctx.db, { routineId: id, executionId: execution, targetId: target, origin: 'target', channel: 'webhook', mode: 'automatic', state: 'queued' }, now);
    }
  })();
  ctx.close();
}

test(`a server with ${BACKLOG} queued deliveries to an unreachable loopback target answers /api/health at once, and drains the backlog after`, async () => {
  seedBacklog(await closedPort());
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  const t0 = Date.now();
  const server = await startServer(ctx, { port: 0 });
  try {
    const health = await rawRequest(server.port, { path: '/api/health', headers: { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${server.runtime.token}` } });
    const ms = Date.now() - t0;
    assert.is(health.status, 200);
    // Before: 5 s for 1,400 and 19 s for 3,000 on a loaded 2-core machine; now well under a second there.
    assert.ok(ms < 3000, `answered ${ms} ms after the start began`);
    const attempted = () => ctx.db.prepare('SELECT count(*) FROM deliveries WHERE attempts > 0').pluck().get() as number;
    await waitFor(() => attempted() > 0, 20_000, 'the worker attempts the backlog in the background');
    const t1 = Date.now();
    const again = await rawRequest(server.port, { path: '/api/health', headers: { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${server.runtime.token}` } });
    assert.is(again.status, 200);
    assert.ok(Date.now() - t1 < 3000, `while it drains, answered in ${Date.now() - t1} ms`);
  } finally {
    await server.close();
  }
});

test.run();
