/**
 * Upgrade of an installation that kept assistant turn claims in their own
 * table (schema 23-28): migration 29 moves a claim that is live as the
 * upgrade runs into job_claims (assistant_turn:N, with its cancel request)
 * and drops the stale ones and the old table; the server then judges, refuses
 * and cancels through the moved row as through one it wrote (without the
 * process identity 29 adds: such a row is judged by its pid and the clock).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { openDatabase } from '../src/db/open.js';
import { startTestServer, tempDirs } from './_setup.js';
import { SCHEMA_28, buildOldDatabase, fillOldDatabase, putOldTurnClaim } from './_old-schema.js';

const now = () => '2026-11-27T12:00:00.000Z';

const deadPid = () =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.on('exit', () => resolve(child.pid!));
  });

test('a live turn claim of the old table moves to job_claims with its cancel request; stale ones are dropped with the table', async () => {
  const dirs = tempDirs();
  try {
    const file = path.join(dirs.dataDir, 'svc.db');
    const old = buildOldDatabase(file, SCHEMA_28.versions);
    fillOldDatabase(old, SCHEMA_28.versions, dirs.root);
    const ins = old.prepare("INSERT INTO assistant_sessions (id, title, created_at_utc, updated_at_utc) VALUES (?, ?, '2026-11-20T09:00:00.000Z', '2026-11-20T09:00:00.000Z')");
    for (const id of [3, 4]) ins.run(id, `chat ${id}`);
    const at = Date.now();
    const gone = await deadPid();
    // 1: held by a live process (this one, under another runtime id), already asked to stop.
    putOldTurnClaim(old, { session_id: 1, pid: process.pid, runtime_id: 'old-runtime', claimed_at_ms: at, cancel_requested_at_utc: '2026-11-20T09:30:00.000Z' });
    // 2: held by a live process, not asked.
    putOldTurnClaim(old, { session_id: 2, pid: process.pid, runtime_id: 'old-runtime', claimed_at_ms: at });
    // 3: its process is gone; 4: written before this boot.
    putOldTurnClaim(old, { session_id: 3, pid: gone, runtime_id: 'dead-runtime', claimed_at_ms: at });
    putOldTurnClaim(old, { session_id: 4, pid: process.pid, runtime_id: 'old-runtime', claimed_at_ms: 0 });
    old.close();

    const { db, schemaVersion } = openDatabase(file, now);
    try {
      assert.ok(schemaVersion >= 29);
      assert.is(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'assistant_turn_claims'").pluck().get(), 0, 'the old table is gone');
      assert.equal(db.prepare('SELECT job, pid, runtime_id, role, detail, run_id, claimed_at_ms, claimed_at_utc, cancel_requested, boot_id, pid_start FROM job_claims ORDER BY job').all(), [
        { job: 'assistant_turn:1', pid: process.pid, runtime_id: 'old-runtime', role: 'unknown', detail: null, run_id: null, claimed_at_ms: at, claimed_at_utc: new Date(at).toISOString(), cancel_requested: 1, boot_id: null, pid_start: null },
        { job: 'assistant_turn:2', pid: process.pid, runtime_id: 'old-runtime', role: 'unknown', detail: null, run_id: null, claimed_at_ms: at, claimed_at_utc: new Date(at).toISOString(), cancel_requested: 0, boot_id: null, pid_start: null },
      ]);
    } finally {
      db.close();
    }

    const t = await startTestServer({ env: { SVC_DATA_DIR: dirs.dataDir, SVC_STATE_DIR: dirs.stateDir } });
    try {
      const observed = async (id: number) => (await t.request('GET', `/api/assistant/sessions/${id}`)).json().activity_observation.turn_claimed;
      assert.equal([await observed(1), await observed(2), await observed(3), await observed(4)], [true, true, false, false]);
      const cancel = async (id: number) => (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
      assert.equal([(await cancel(1)).outcome, (await cancel(1)).owner], ['already_cancelling', 'other_process'], 'the moved request still stands');
      assert.equal([(await cancel(2)).outcome, (await cancel(2)).outcome], ['cancel_requested', 'already_cancelling']);
      assert.equal([(await cancel(3)).outcome, (await cancel(3)).stale_claim], ['no_active_turn', null], 'a dropped claim is no claim');
      assert.is((await t.request('DELETE', '/api/assistant/sessions/2')).status, 409, 'a moved live claim still holds its conversation');
    } finally {
      await t.close();
    }
  } finally {
    dirs.cleanup();
  }
});

test.run();
