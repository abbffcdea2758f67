/**
 * The claim rows themselves (claims/jobs.ts, claims/staleness.ts): a
 * release the database refuses is owed and settled later, never thrown into
 * the job's result, so the job does not look held while its process lives;
 * a claim names its process beyond its pid (boot id and start time, where
 * /proc says), so a reused pid or a reboot makes it stale and a wall-clock
 * jump does not.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Sqlite from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { askJobCancel, claimJob, jobCancelPoll, jobHolder, releaseJob, requestJobCancel } from '../src/claims/jobs.js';
import { claimStaleness, processIdentity, type ProcessIdentity } from '../src/claims/staleness.js';
import { ROOT, tempDirs, waitFor } from './_setup.js';

const quiet = () => createLogger({ level: 'error', sink: () => {} });
const claims = (db: Sqlite.Database) => db.prepare('SELECT job FROM job_claims').pluck().all();

test('a release refused by a busy database does not throw into the job, and the claim is gone once the lock is released', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: quiet(), tuning: { claimReleaseRetryMs: 30 } });
  const elsewhere = createContext({ env: dirs.env, log: quiet() }); // how another process sees the claim
  let lock: Sqlite.Database | undefined;
  try {
    ctx.db.pragma('busy_timeout = 50');
    assert.is(claimJob(ctx, 'links.scan').holder, null);
    assert.ok(jobHolder(elsewhere, 'links.scan'), 'held, as another process sees it');
    lock = new Sqlite(ctx.paths.database);
    lock.exec('BEGIN IMMEDIATE'); // another writer, past the busy timeout
    const result = (() => {
      try {
        return 'the job result';
      } finally {
        releaseJob(ctx, 'links.scan');
      }
    })();
    assert.is(result, 'the job result');
    assert.equal(claims(lock), ['links.scan'], 'the row stays while the database refuses');
    await new Promise((r) => setTimeout(r, 120)); // retries meanwhile fail too, quietly
    lock.exec('COMMIT');
    await waitFor(() => claims(elsewhere.db).length === 0, 3000, 'the owed release');
    assert.is(jobHolder(elsewhere, 'links.scan'), null);
    assert.is(claimJob(elsewhere, 'links.scan').holder, null, 'another process can take the job');
  } finally {
    lock?.close();
    await ctx.close();
    await elsewhere.close();
    dirs.cleanup();
  }
});

test('a release still owed when the process exits is settled at exit', async () => {
  const dirs = tempDirs();
  const dist = path.join(ROOT, 'dist', 'src');
  const script = `
    const { createContext } = await import(${JSON.stringify(path.join(dist, 'context.js'))});
    const { createLogger } = await import(${JSON.stringify(path.join(dist, 'log.js'))});
    const { claimJob, releaseJob } = await import(${JSON.stringify(path.join(dist, 'claims', 'jobs.js'))});
    const ctx = createContext({ log: createLogger({ level: 'error', sink: () => {} }), tuning: { claimReleaseRetryMs: 600000 } });
    ctx.db.pragma('busy_timeout = 50');
    claimJob(ctx, 'links.scan');
    console.log('claimed');
    process.stdin.on('data', (d) => {
      const cmd = String(d).trim();
      if (cmd === 'release') { releaseJob(ctx, 'links.scan'); console.log('released'); }
      if (cmd === 'exit') process.exit(0);
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...dirs.env } });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.once('exit', r));
  let lock: Sqlite.Database | undefined;
  try {
    await waitFor(() => out.includes('claimed'), 10_000, `the child's claim: ${out}`);
    lock = new Sqlite(path.join(dirs.dataDir, 'svc.db'));
    lock.exec('BEGIN IMMEDIATE');
    child.stdin.write('release\n');
    await waitFor(() => out.includes('released'), 10_000, `the child's release: ${out}`);
    assert.equal(claims(lock), ['links.scan'], 'refused while locked');
    lock.exec('COMMIT');
    child.stdin.write('exit\n');
    await exited;
    assert.equal(claims(lock), [], 'released at exit (the retry timer was far off)');
  } finally {
    child.kill('SIGKILL');
    lock?.close();
    dirs.cleanup();
  }
});

const sleeper = async (): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  await new Promise((r) => child.once('spawn', r));
  return child;
};
const kill = async (p: ChildProcess) => {
  p.kill('SIGKILL');
  if (p.exitCode === null && p.signalCode === null) await new Promise((r) => p.once('exit', r));
};
const hasProc = fs.existsSync('/proc/self/stat') && fs.existsSync('/proc/sys/kernel/random/boot_id');

/** Run with the wall clock moved by `shiftMs` (Date.now only: what claims and boot times are read from). */
async function withClock<T>(shiftMs: number, fn: () => T | Promise<T>): Promise<T> {
  const real = Date.now;
  Date.now = () => real() + shiftMs;
  try {
    return await fn();
  } finally {
    Date.now = real;
  }
}

const put = (db: Sqlite.Database, job: string, row: { pid: number; claimed_at_ms: number; boot_id?: string | null; pid_start?: number | null }) =>
  db
    .prepare(`INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, claimed_at_ms, claimed_at_utc, boot_id, pid_start) VALUES (?, ?, 'cli-runtime', 'cli', ?, ?, ?, ?)`)
    .run(job, row.pid, row.claimed_at_ms, new Date(row.claimed_at_ms).toISOString(), row.boot_id ?? null, row.pid_start ?? null);

test('a claim names its process beyond its pid: once that process is gone its pid run by another process holds nothing', async () => {
  assert.ok(hasProc, 'these tests run where /proc says who a process is');
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: quiet() });
  const first = await sleeper();
  await new Promise((r) => setTimeout(r, 50)); // start times count clock ticks (10 ms): the second starts ticks later
  const second = await sleeper();
  try {
    const was = processIdentity(first.pid!) as ProcessIdentity;
    assert.ok(was && was.pid_start > 0, 'identity read from /proc');
    const now = Date.now();
    assert.is(claimStaleness({ pid: first.pid!, claimed_at_ms: now, ...was }), null, 'its process runs');
    await kill(first);
    assert.is(claimStaleness({ pid: first.pid!, claimed_at_ms: now, ...was }), 'process_gone');
    // The dead claim's pid now belongs to another live process (a reused pid): the pid runs, after boot,
    // so the pid-and-clock rule alone would call it live; the recorded start time says it is not that process.
    assert.is.not(processIdentity(second.pid!)!.pid_start, was.pid_start);
    const reused = { pid: second.pid!, claimed_at_ms: now, boot_id: was.boot_id, pid_start: was.pid_start };
    assert.is(claimStaleness({ pid: reused.pid, claimed_at_ms: now }), null, 'the rule without the identity is fooled');
    assert.is(claimStaleness(reused), 'process_gone');
    put(ctx.db, 'links.scan', reused);
    assert.is(jobHolder(ctx, 'links.scan'), null, 'nobody holds the scan');
    assert.equal(askJobCancel(ctx, 'links.scan').stale, { pid: second.pid, claimed_at_ms: now, reason: 'process_gone' });
    put(ctx.db, 'links.scan', { ...reused, pid_start: processIdentity(second.pid!)!.pid_start });
    assert.is(jobHolder(ctx, 'links.scan')?.pid, second.pid, 'the live process with that start time holds it');
    assert.is(claimJob(ctx, 'links.scan').holder?.pid, second.pid, 'and keeps it');
    put(ctx.db, 'links.scan', reused);
    assert.is(claimJob(ctx, 'links.scan').holder, null, 'the reused pid\'s claim is taken over');
    const mine = ctx.db.prepare("SELECT pid, boot_id, pid_start FROM job_claims WHERE job = 'links.scan'").get();
    assert.equal(mine, { pid: process.pid, ...processIdentity(process.pid) }, 'a claim records its own identity');
  } finally {
    await kill(first);
    await kill(second);
    await ctx.close();
    dirs.cleanup();
  }
});

test('a claim from another boot is stale even when its pid and start time match and the clock says after boot', () => {
  const me = processIdentity(process.pid)!;
  assert.is(claimStaleness({ pid: process.pid, claimed_at_ms: Date.now(), ...me }), null);
  assert.is(claimStaleness({ pid: process.pid, claimed_at_ms: Date.now(), ...me, boot_id: '00000000-0000-4000-8000-000000000000' }), 'before_boot');
});

test('wall-clock jumps forward or back do not make a live claim look stale, nor a claim of another boot live', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: quiet() });
  const elsewhere = createContext({ env: dirs.env, log: quiet() });
  try {
    assert.is(claimJob(ctx, 'links.scan').holder, null);
    const TEN_YEARS = 10 * 365 * 86_400_000;
    // Forward: the boot time read from the clock moves past the claim (a sync after a boot without a real-time clock).
    assert.is((await withClock(TEN_YEARS, () => jobHolder(elsewhere, 'links.scan')))?.pid, process.pid, 'live after a forward jump');
    assert.is((await withClock(TEN_YEARS, () => claimJob(elsewhere, 'links.scan'))).holder?.pid, process.pid, 'not taken over');
    assert.is((await withClock(-TEN_YEARS, () => jobHolder(elsewhere, 'links.scan')))?.pid, process.pid, 'live after a backward jump');
    const me = processIdentity(process.pid)!;
    put(ctx.db, 'embeddings.backfill', { pid: process.pid, claimed_at_ms: Date.now() - 1000, ...me, boot_id: 'another-boot' });
    assert.is(await withClock(-TEN_YEARS, () => jobHolder(elsewhere, 'embeddings.backfill')), null, 'another boot\'s claim stays stale with the clock set back');
  } finally {
    await ctx.close();
    await elsewhere.close();
    dirs.cleanup();
  }
});

test('without /proc, and for rows written without an identity, the pid and the wall clock judge as before', async () => {
  const none = path.join(tempDirs().root, 'no-proc');
  const me = processIdentity(process.pid)!;
  assert.is(processIdentity(process.pid, none), null);
  const gone = await sleeper();
  await kill(gone);
  for (const identity of [me, { boot_id: null, pid_start: null }]) {
    const proc = identity === me ? none : undefined;
    assert.is(claimStaleness({ pid: process.pid, claimed_at_ms: Date.now(), ...identity }, undefined, proc), null, 'its pid runs, written after boot');
    assert.is(claimStaleness({ pid: process.pid, claimed_at_ms: 0, ...identity }, undefined, proc), 'before_boot');
    assert.is(claimStaleness({ pid: gone.pid!, claimed_at_ms: Date.now(), ...identity }, undefined, proc), 'process_gone');
  }
});

test('a job\'s cancel poll keeps reading its claim when the wall clock is set back', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: quiet() });
  const elsewhere = createContext({ env: dirs.env, log: quiet() });
  try {
    claimJob(ctx, 'links.scan');
    const cancelled = jobCancelPoll(ctx, 'links.scan', 20);
    assert.is(cancelled(), false);
    await withClock(-3_600_000, async () => {
      assert.ok(requestJobCancel(elsewhere, 'links.scan'));
      await waitFor(() => cancelled(), 2000, 'the cancel seen within the poll interval');
    });
  } finally {
    await ctx.close();
    await elsewhere.close();
    dirs.cleanup();
  }
});

test('a garbled or truncated /proc stat file makes no claim stale by itself: the pid probe judges, nothing throws', () => {
  // A /proc of our own making: this boot's id, and a stat file for this process that is not what the kernel writes.
  const proc = path.join(tempDirs().root, 'garbled-proc');
  fs.mkdirSync(path.join(proc, 'sys/kernel/random'), { recursive: true });
  fs.writeFileSync(path.join(proc, 'sys/kernel/random/boot_id'), 'boot-a\n');
  fs.mkdirSync(path.join(proc, String(process.pid)));
  const claim = { pid: process.pid, claimed_at_ms: Date.now(), boot_id: 'boot-a', pid_start: 4242 };
  const alive = () => true;
  for (const text of [
    `${process.pid} (node) S${' 0'.repeat(18)} `, // cut short after field 21: field 22 is empty
    `${process.pid} (node) S${' 0'.repeat(18)}  4242`, // a doubled space shifts the fields
    `${process.pid} node S${' 7'.repeat(30)}`, // no parentheses
    '',
    '\u0000\u0000garbage)',
    `${process.pid} (node) S${' x'.repeat(30)}`,
  ]) {
    fs.writeFileSync(path.join(proc, String(process.pid), 'stat'), text);
    assert.is(claimStaleness(claim, alive, proc), null, JSON.stringify(text));
    assert.is(claimStaleness(claim, () => false, proc), 'process_gone', 'a pid the probe does not see is gone');
    assert.is(processIdentity(process.pid, proc), null, `no identity read from ${JSON.stringify(text)}`);
  }
  fs.writeFileSync(path.join(proc, String(process.pid), 'stat'), `${process.pid} (a) b) S${' 0'.repeat(18)} 4242 0`);
  assert.equal(processIdentity(process.pid, proc), { boot_id: 'boot-a', pid_start: 4242 }, 'a well-formed file is read (command with a parenthesis)');
  assert.is(claimStaleness(claim, () => false, proc), null, 'its start time matches');
});

test.run();
