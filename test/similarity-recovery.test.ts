import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { interruptOrphanedRuns } from '../src/similarity/recovery.js';
import { startTestServer, tempDirs } from './_setup.js';

const quiet = () => createLogger({ level: 'warn', sink: () => {} });

/** A pid that certainly belonged to a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

test('a server start marks backfills and link scans of a vanished owner interrupted, leaves a live owner alone, and never shows the pid', async () => {
  const dirs = tempDirs();
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  try {
    const seed = createContext({ env: dirs.env, log: quiet() });
    const now = seed.nowIso();
    const insertRun = seed.db.prepare(`INSERT INTO embedding_runs (model, trigger, state, total, owner_runtime_id, owner_pid, started_at_utc) VALUES ('lexical', 'cli', 'running', 10, ?, ?, ?)`);
    const legacy = Number(insertRun.run('gone-runtime', null, now).lastInsertRowid);
    const dead = Number(insertRun.run('dead-runtime', deadPid(), now).lastInsertRowid);
    const insertScan = seed.db.prepare(`INSERT INTO link_scans (state, total, owner_runtime_id, owner_pid, started_at_utc) VALUES ('running', 5, ?, ?, ?)`);
    const live = Number(insertScan.run('cli-runtime', sleeper.pid, now).lastInsertRowid);
    seed.db.close();

    const t = await startTestServer({ env: dirs.env });
    try {
      const state = (table: string, id: number) => t.ctx.db.prepare(`SELECT state, error FROM ${table} WHERE id = ?`).get(id) as { state: string; error: string | null };
      assert.is(state('embedding_runs', legacy).state, 'interrupted', 'no pid recorded: the owner is unknown and not this process');
      assert.is(state('embedding_runs', dead).state, 'interrupted');
      assert.match(state('embedding_runs', dead).error!, /went away/);
      assert.is(state('link_scans', live).state, 'running', 'a CLI scan still going in another process is not interrupted');
      assert.ok(t.logLines.some((l) => /marked 2 similarity run\(s\) interrupted/.test(l)));

      const status = (await t.request('GET', '/api/embeddings/status')).json();
      assert.is(status.run.state, 'interrupted');
      assert.is(status.run.running_here, false);
      assert.not.ok('owner_pid' in status.run, 'the pid stays inside');
      const links = (await t.request('GET', '/api/links/status')).json();
      assert.is(links.scan.state, 'running');
      assert.not.ok('owner_pid' in links.scan);

      // Once its owner is gone, the next look (a new run, or a start) marks it.
      sleeper.kill('SIGKILL');
      await new Promise((r) => sleeper.once('exit', r));
      assert.equal(interruptOrphanedRuns(t.ctx), { embedding_runs: [], link_scans: [live] });
      assert.equal(interruptOrphanedRuns(t.ctx), { embedding_runs: [], link_scans: [] }, 'a run is marked once');
    } finally {
      await t.close();
    }
  } finally {
    sleeper.kill('SIGKILL');
    dirs.cleanup();
  }
});

test('a run of this process is never marked, and a finished run keeps its own end', () => {
  const dirs = tempDirs();
  try {
    const ctx = createContext({ env: dirs.env, log: quiet() });
    const now = ctx.nowIso();
    const mine = Number(ctx.db.prepare(`INSERT INTO embedding_runs (model, trigger, state, total, owner_runtime_id, owner_pid, started_at_utc) VALUES ('lexical', 'api', 'running', 1, ?, ?, ?)`).run(ctx.runtimeId, process.pid, now).lastInsertRowid);
    const done = Number(ctx.db.prepare(`INSERT INTO embedding_runs (model, trigger, state, total, owner_runtime_id, owner_pid, started_at_utc, finished_at_utc) VALUES ('lexical', 'api', 'completed', 1, 'x', NULL, ?, ?)`).run(now, now).lastInsertRowid);
    assert.equal(interruptOrphanedRuns(ctx, () => false), { embedding_runs: [], link_scans: [] });
    const states = ctx.db.prepare('SELECT id, state FROM embedding_runs ORDER BY id').all();
    assert.equal(states, [{ id: mine, state: 'running' }, { id: done, state: 'completed' }]);
    ctx.db.close();
  } finally {
    dirs.cleanup();
  }
});

test.run();
