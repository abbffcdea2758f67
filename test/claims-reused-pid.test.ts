/**
 * A reused pid is not taken for the owner (issue 31): every claim, in a row
 * or a file, records who its process is (boot id and start time, on Linux),
 * so a claim whose pid runs now but under another start time is stale and
 * taken over. The pid used is this test's parent's: alive for the whole
 * test and not this process (whose own pid under another runtime id every
 * recovery treats as gone anyway). The same claim with the parent's real
 * start time stands: the identity, not the pid, decides.
 */
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createContext, type Context } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { processIdentity, type ProcessIdentity } from '../src/claims/staleness.js';
import { recoverInterrupted } from '../src/executions/recovery.js';
import { getExecution, insertExecution } from '../src/executions/repo.js';
import { recoverDeliveries } from '../src/delivery/worker.js';
import { interruptOrphanedRuns } from '../src/similarity/recovery.js';
import { startRun } from '../src/similarity/repo.js';
import { takeStagingLock } from '../src/admin/restore/lock.js';
import { stagingDir } from '../src/admin/restore/plan.js';
import { clearAbandonedVaultStaging } from '../src/admin/restore/vault-staging.js';
import { createBackup, backupsDir } from '../src/admin/backup.js';
import { isStale } from '../src/runtime/token.js';
import { lockHolderRunning } from '../src/library/scan.js';
import { tempDirs } from './_setup.js';
import { skippedTests } from './_skip.js';
import type { RunSpec } from '../src/executions/request.js';

const parent = processIdentity(process.ppid);
const test = parent ? uvuTest : skippedTests('no /proc here: a process is known by its pid alone, so a reused pid cannot be told apart (Linux only)');

/** The parent's pid with its real identity, or with a start time it does not have (the pid reused by another process). */
const owner = (reused: boolean): { pid: number } & ProcessIdentity => ({ pid: process.ppid, boot_id: parent!.boot_id, pid_start: parent!.pid_start + (reused ? 1 : 0) });

const spec: RunSpec = {
  type: 'dive', repositories: ['crossref'], query: 'x', keywords: [], dateFrom: null, dateTo: null, maxResults: 10, aiEnabled: false, aiSettings: null,
  requestId: null, savedConfigurationId: null, routineId: null, author: null,
};

async function withContext(run: (ctx: Context, dataDir: string) => Promise<void> | void): Promise<void> {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  try {
    await run(ctx, dirs.dataDir);
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
}

test('row claims: an execution, a delivery and an embedding run whose owner pid runs under another start time are recovered; under its own they stand', async () => {
  await withContext((ctx) => {
    const now = ctx.nowIso();
    const ids = [true, false].map((reused) => insertExecution(ctx.db, spec, { ...owner(reused), runtimeId: `other-${reused}`, role: 'server' }, now, null, {}));
    ctx.db.prepare("UPDATE executions SET status = 'completed' WHERE id = ?").run(ids[1]); // settled, for the delivery below
    assert.equal(recoverInterrupted(ctx), [ids[0]], 'only the reused pid’s run');
    assert.is(getExecution(ctx.db, ids[0]!)!.interrupted_reason, 'owner_dead', 'known gone, not unknown');

    ctx.db.prepare("INSERT INTO routines (id, name, schedule_cron, parameters_json, created_at_utc, updated_at_utc) VALUES (1, 'r', '@daily', '{}', ?, ?)").run(now, now);
    const target = ctx.db.prepare("INSERT INTO delivery_targets (id, routine_id, channel, target, created_at_utc, updated_at_utc) VALUES (?, 1, 'folder', '/nonexistent', ?, ?)");
    const delivering = ctx.db.prepare(
      `INSERT INTO deliveries (id, routine_id, execution_id, target_id, channel, mode, state, attempts, owner_runtime_id, owner_pid, owner_boot_id, owner_pid_start, claimed_at_utc, created_at_utc, updated_at_utc)
       VALUES (?, 1, ?, ?, 'folder', 'automatic', 'delivering', 1, 'other', ?, ?, ?, ?, ?, ?)`,
    );
    for (const [id, reused] of [[1, true], [2, false]] as const) {
      const o = owner(reused);
      target.run(id, now, now);
      delivering.run(id, ids[1], id, o.pid, o.boot_id, o.pid_start, now, now, now);
      ctx.db.prepare("INSERT INTO delivery_attempts (delivery_id, seq, started_at_utc, owner_runtime_id) VALUES (?, 1, ?, 'other')").run(id, now);
    }
    assert.equal(recoverDeliveries(ctx), [1], 'only the reused pid’s delivery');

    const runs = [true, false].map((reused) => {
      const id = startRun(ctx.db, 'm', 'api', 1, `other-${reused}`, now);
      const o = owner(reused);
      ctx.db.prepare('UPDATE embedding_runs SET owner_pid = ?, owner_boot_id = ?, owner_pid_start = ? WHERE id = ?').run(o.pid, o.boot_id, o.pid_start, id);
      return id;
    });
    assert.equal(interruptOrphanedRuns(ctx).embedding_runs, [runs[0]], 'only the reused pid’s run');
  });
});

test('file claims: the restore staging lock, its vault staging copy, the port file, a backup snapshot and the import lock of a reused pid are stale; of the live process they stand', async () => {
  await withContext(async (ctx, dataDir) => {
    const lock = path.join(dataDir, 'restore-staging.lock');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(lock, JSON.stringify(owner(false)) + '\n', { mode: 0o600 });
    assert.throws(() => takeStagingLock(ctx), /restore is being verified/, 'the live process’s lock stands');
    fs.writeFileSync(lock, JSON.stringify(owner(true)) + '\n', { mode: 0o600 });
    const release = takeStagingLock(ctx);
    assert.equal(JSON.parse(fs.readFileSync(lock, 'utf8')).pid, process.pid, 'taken over');
    release();
    assert.not.ok(fs.existsSync(lock), 'released');

    fs.mkdirSync(stagingDir(ctx), { recursive: true, mode: 0o700 });
    for (const reused of [false, true]) {
      const copy = path.join(fs.realpathSync(dataDir), `.svc-restore-${process.ppid}-${Date.now()}.staging`);
      fs.mkdirSync(copy);
      fs.writeFileSync(path.join(stagingDir(ctx), 'vault-staging.txt'), `${copy}\n${owner(reused).pid_start}\n`, { mode: 0o600 });
      clearAbandonedVaultStaging(ctx);
      assert.is(fs.existsSync(copy), !reused, reused ? 'a reused pid’s vault staging copy is abandoned, removed' : 'the live process’s copy is kept');
      fs.rmSync(copy, { recursive: true, force: true });
    }

    const port = (reused: boolean) => ({ port: 1234, data_dir: dataDir, started_at_utc: ctx.nowIso(), ...owner(reused) });
    assert.not.ok(isStale(port(false)), 'the live server’s port file names it');
    assert.ok(isStale(port(true)), 'a reused pid’s port file names no server');

    assert.is(lockHolderRunning(owner(false)), true);
    assert.is(lockHolderRunning(owner(true)), false, 'the import lock of a reused pid: its holder is gone');

    ctx.db.pragma('user_version'); // the database exists before the backup snapshots it
    const dir = backupsDir(ctx);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const snapshot = (reused: boolean) => path.join(dir, `.snapshot-${process.ppid}-${owner(reused).pid_start}-0123456789ab.db`);
    for (const reused of [true, false]) fs.writeFileSync(snapshot(reused), 'x', { mode: 0o600 });
    await createBackup(ctx, { includeReports: false });
    assert.not.ok(fs.existsSync(snapshot(true)), 'the reused pid’s snapshot is an orphan, removed');
    assert.ok(fs.existsSync(snapshot(false)), 'the live process’s snapshot is kept');
  });
});

test.run();
