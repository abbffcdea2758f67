import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { attemptClaimed } from '../src/delivery/attempt.js';
import { claim } from '../src/delivery/repo.js';
import { recoverDeliveries } from '../src/delivery/worker.js';
import { tempDirs } from './_setup.js';

test("an attempt's outcome and its delivery's state are stored together: a refused state change leaves no attempt recorded delivered, so recovery records it interrupted", async () => {
  const dirs = tempDirs();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-atomic-'));
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => {} }) });
  try {
    const db = ctx.db;
    const now = ctx.nowIso();
    db.prepare("INSERT INTO routines (id, name, schedule_cron, parameters_json, created_at_utc, updated_at_utc) VALUES (1, 'r', '@daily', '{}', ?, ?)").run(now, now);
    db.prepare("INSERT INTO executions (id, type, status, routine_id, query, repositories_json, parameters_json, started_at_utc) VALUES (1, 'routine', 'completed', 1, 'q', '[]', ?, ?)").run(JSON.stringify({ query: 'q', keywords: [], repositories: [], maxResults: 5 }), now);
    db.prepare("INSERT INTO delivery_targets (id, routine_id, channel, target, created_at_utc, updated_at_utc) VALUES (1, 1, 'folder', ?, ?, ?)").run(folder, now, now);
    db.prepare("INSERT INTO deliveries (id, routine_id, execution_id, target_id, channel, mode, state, next_attempt_at_utc, created_at_utc, updated_at_utc) VALUES (1, 1, 1, 1, 'folder', 'automatic', 'queued', ?, ?, ?)").run(now, now, now);
    const claimed = claim(db, 1, now, { runtimeId: ctx.runtimeId, pid: process.pid })!;
    assert.ok(claimed, 'claimed');

    db.exec("CREATE TEMP TRIGGER refuse_delivered BEFORE UPDATE ON deliveries WHEN NEW.state = 'delivered' BEGIN SELECT RAISE(ABORT, 'state refused'); END");
    try {
      await attemptClaimed(ctx, claimed).then(
        () => assert.unreachable('the refused state change should throw'),
        (err: Error) => assert.match(err.message, /state refused/),
      );
    } finally {
      db.exec('DROP TRIGGER temp.refuse_delivered');
    }
    assert.ok(fs.readdirSync(folder).length > 0, 'the bundle was written: the send itself succeeded');
    const outcomes = () => (db.prepare('SELECT outcome FROM delivery_attempts WHERE delivery_id = 1 ORDER BY seq').all() as { outcome: string | null }[]).map((a) => a.outcome);
    assert.equal(outcomes(), [null], 'no attempt recorded delivered on a delivery still delivering');
    assert.is((db.prepare('SELECT state FROM deliveries WHERE id = 1').get() as { state: string }).state, 'delivering');

    // The process goes away: recovery records the cut-short attempt, not a delivered one followed by a second send.
    db.prepare("UPDATE deliveries SET owner_runtime_id = 'gone', owner_pid = 999999 WHERE id = 1").run();
    assert.equal(recoverDeliveries(ctx, () => false), [1]);
    assert.equal(outcomes(), ['interrupted']);
    assert.is((db.prepare('SELECT state FROM deliveries WHERE id = 1').get() as { state: string }).state, 'queued');
  } finally {
    await ctx.close();
    fs.rmSync(folder, { recursive: true, force: true });
    dirs.cleanup();
  }
});

test.run();
