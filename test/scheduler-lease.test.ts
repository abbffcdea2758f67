/**
 * One scheduler per data directory: of two servers (or the daemon and a
 * serve) on one data directory exactly one fires routines; the other is on
 * standby, says who fires them (health, jobs), and takes over when that
 * process goes away.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createLogger, silentLogger } from '../src/log.js';
import { createRoutineScheduler } from '../src/routines/due-fires.js';
import { createScheduler } from '../src/scheduler/scheduler.js';
import { runRoutineNow } from '../src/routines/dispatch.js';
import { getRoutineView } from '../src/routines/service.js';
import { fileLease, LEASE_FILE } from '../src/scheduler/lease.js';
import { processIdentity } from '../src/claims/staleness.js';
import { daemonStatus } from '../src/daemon/status.js';
import { statusText } from '../commands/admin/daemon-format.js';
import { fixture, waitFor } from './_setup.js';
import { fakeClock, manualTimers, newDirs, routineBody, settled, startSvc } from './_scheduler.js';
import { startStub, type Stub } from './_stub.js';

let crossref: Stub;
let slow: Stub;
let slower: Stub;
const sources = () => ({ SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_SOURCE_DBLP_URL: slow.url });

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  slow = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 1200, times: Infinity }]);
  // Long enough that the second process starts, and is asked, while the blocker still holds the only slot.
  slower = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 3000, times: Infinity }]);
});
test.after(async () => {
  await crossref.close();
  await slow.close();
  await slower.close();
});

test('two servers on one data directory: one fires, the other is on standby and says who fires, one run and one delivery per due time', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T05:59:00Z');
  const a = await startSvc(dirs, fake, { env: sources() });
  const b = await startSvc(dirs, fake, { env: sources() });
  try {
    const ha = (await a.request('GET', '/api/health')).json();
    const hb = (await b.request('GET', '/api/health')).json();
    assert.equal([ha.scheduler.state, ha.scheduler.held_by], ['running', null]);
    assert.is(hb.scheduler.state, 'standby');
    assert.equal([hb.scheduler.held_by.runtime_id, hb.scheduler.held_by.pid, hb.scheduler.held_by.port], [a.ctx.runtimeId, process.pid, a.server.port]);
    const jobs = (await b.request('GET', '/api/scheduler/jobs')).json();
    assert.equal([jobs.scheduler.state, jobs.scheduler.in_this_process, jobs.scheduler.held_by.runtime_id], ['standby', false, a.ctx.runtimeId]);
    assert.is(fs.statSync(path.join(dirs.env.SVC_DATA_DIR!, LEASE_FILE)).mode & 0o777, 0o600);

    const { id } = (await b.request('POST', '/api/routines', routineBody())).json();
    const folder = fs.mkdtempSync(path.join(dirs.root, 'reports-'));
    assert.is((await b.request('POST', `/api/routines/${id}/delivery-targets`, { channel: 'folder', target: folder })).status < 300, true);
    fake.set('2026-01-05T06:00:01Z');
    const fired = [...b.scheduler!.tick(), ...a.scheduler!.tick()].filter((o) => o.fired);
    assert.is(fired.length, 1);
    assert.is(await settled(a, fired[0]!.fired!.executionId!), 'completed');
    const delivered = await waitFor(async () => {
      const list = (await b.request('GET', `/api/routines/${id}/deliveries`)).json().deliveries as { state: string }[];
      return list.length && list.every((d) => d.state === 'delivered') ? list : undefined;
    }, 10_000, 'the delivery');
    assert.is(delivered.length, 1);
    assert.is(fs.readdirSync(folder).length, 1, 'one report in the folder, not two');
    assert.is(a.ctx.db.prepare('SELECT count(*) FROM executions WHERE routine_id = ?').pluck().get(id), 1);

    // The scheduling server goes away: the standby takes over at its next look and fires from then on.
    await a.close();
    fake.set('2026-01-06T06:00:02Z');
    assert.equal(b.scheduler!.tick(), [], 'the takeover itself catches up');
    assert.is((await b.request('GET', '/api/health')).json().scheduler.state, 'running');
    assert.is(b.ctx.db.prepare(`SELECT count(*) FROM routine_fires WHERE routine_id = ? AND outcome = 'started'`).pluck().get(id), 2, 'the fire due while it took over ran');
    await waitFor(async () => ((await b.request('GET', '/api/executions/active')).json().executions?.length ?? 0) === 0 || undefined, 10_000, 'runs to settle');
  } finally {
    await a.close();
    await b.close();
    dirs.cleanup();
  }
});

test('a second process starting its scheduler does not drop the fires the first one has queued (they still run, recorded as started)', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T05:59:00Z');
  const env = { ...sources(), SVC_SOURCE_DBLP_URL: slower.url };
  const a = await startSvc(dirs, fake, { env });
  // Only the second process's scheduler (a whole second server in this same test process would take a's runs for its own dead ones: same pid).
  const other = createContext({ env: { ...dirs.env, ...env }, clock: fake.clock, log: silentLogger, tuning: { sourceRateScale: 0, executionStaleMs: 86_400_000 } });
  const second = createRoutineScheduler(other, { timers: manualTimers() });
  try {
    await a.request('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 5 });
    const { id } = (await a.request('POST', '/api/routines', routineBody())).json();
    const blocker = (await a.request('POST', '/api/search/dive', { repository: 'dblp', query: 'test', max_results: 1 })).json().id;
    fake.set('2026-01-05T06:00:00Z');
    assert.is(a.scheduler!.tick()[0]!.fired!.outcome, 'queued');
    assert.is(second.start(), null, 'on standby');
    const fire = () => a.ctx.db.prepare('SELECT outcome, reason FROM routine_fires WHERE routine_id = ? ORDER BY id DESC LIMIT 1').get(id) as { outcome: string; reason: string };
    assert.is(fire().outcome, 'queued', `still queued, not "${fire().reason}"`);
    // The other process sees the scheduler's queue: a manual run there does not start the routine a second time.
    assert.throws(() => runRoutineNow(other, id), (e: any) => e.details?.conflict === 'routine_already_queued' || /waiting for a free slot/.test(e.message));
    assert.is(getRoutineView(other, id).queued_fire_at_utc, '2026-01-05T06:00:00.000Z');
    await settled(a, blocker, 30_000);
    const started = await waitFor(async () => (fire().outcome === 'started' ? fire() : undefined), 10_000, 'the queued fire to start');
    assert.is(started.outcome, 'started');
    const exec = a.ctx.db.prepare('SELECT id FROM executions WHERE routine_id = ?').pluck().get(id) as number;
    await settled(a, exec);
  } finally {
    second.stop();
    await other.close();
    await a.close();
    dirs.cleanup();
  }
});

test('daemon status says when the daemon\'s scheduler is on standby and who fires routines instead', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T05:59:00Z');
  const server = await startSvc(dirs, fake, { env: sources() });
  const daemon = await startSvc(dirs, fake, { env: sources() });
  try {
    // The second one stands for the daemon: its lock names it.
    fs.mkdirSync(daemon.ctx.paths.stateDir, { recursive: true });
    fs.writeFileSync(daemon.ctx.paths.daemonLock, JSON.stringify({ pid: process.pid, port: daemon.server.port, version: 'x', started_at: 'now' }), { mode: 0o600 });
    const status = await daemonStatus(server.ctx);
    assert.is(status.running, true, status.error ?? '');
    assert.equal([status.scheduler!.state, status.scheduler!.held_by!.runtime_id], ['standby', server.ctx.runtimeId]);
    assert.match(statusText(status), new RegExp(`Its scheduler is on standby: routines are fired by the server with pid ${process.pid} on port ${server.server.port}`));
  } finally {
    await daemon.close();
    await server.close();
    dirs.cleanup();
  }
});

test('a lease file that cannot be read or written is logged; the scheduler neither throws nor stops', () => {
  const dirs = newDirs();
  const lines: string[] = [];
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'debug', sink: (l) => lines.push(l) }) });
  try {
    const broken = { acquire: () => { throw new Error('EACCES: permission denied'); }, renew: () => { throw new Error('EIO'); }, holder: () => null, recordPort: () => {}, release: () => {} };
    const scheduler = createRoutineScheduler(ctx, { timers: manualTimers(), lease: broken });
    assert.not.throws(() => scheduler.start());
    assert.is(scheduler.state, 'running');
    assert.not.throws(() => scheduler.tick());
    assert.ok(lines.some((l) => /the scheduler lease cannot be taken/.test(l)));
    scheduler.stop();
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

test('a lease path no process can hold (a link, a folder) is refused and logged, never taken as this process\'s own: the link is not followed', () => {
  const dirs = newDirs();
  const lines: string[] = [];
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'debug', sink: (l) => lines.push(l) }) });
  try {
    const file = path.join(ctx.paths.dataDir, LEASE_FILE);
    fs.mkdirSync(ctx.paths.dataDir, { recursive: true });
    const target = path.join(dirs.root, 'elsewhere.txt');
    fs.writeFileSync(target, 'not a lease');
    fs.symlinkSync(target, file);
    const now = () => new Date().toISOString();
    const lease = fileLease({ dataDir: ctx.paths.dataDir, runtimeId: 'r-one', role: () => 'server', now });
    assert.throws(() => lease.acquire(), /scheduler lease .* cannot be read.*remove it/);
    const scheduler = createScheduler(ctx, { start: () => null, runDue: () => [], nextDueAt: () => null, stop: () => {} }, { timers: manualTimers(), lease });
    scheduler.start();
    assert.ok(lines.some((l) => /the scheduler lease cannot be taken/.test(l)), 'said in the log');
    scheduler.stop();
    assert.is(fs.readFileSync(target, 'utf8'), 'not a lease', 'nothing written through the link');
    fs.rmSync(file);
    fs.mkdirSync(file);
    assert.throws(() => lease.acquire(), /cannot be read/);
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

test('a standby takes over at its next look; a catch-up that fails there is logged, never thrown out of the timer', () => {
  const dirs = newDirs();
  const lines: string[] = [];
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'debug', sink: (l) => lines.push(l) }) });
  try {
    const other = { pid: 1, runtime_id: 'r-other', role: 'daemon', port: 9, since_utc: '' };
    let holder: typeof other | null = other;
    const lease = { acquire: () => holder, renew: () => holder === null, holder: () => holder, recordPort: () => {}, release: () => {} };
    let starts = 0;
    const work = { start: () => { starts++; throw new Error('database is locked'); }, runDue: () => [], nextDueAt: () => null, stop: () => {} };
    const timers = manualTimers();
    const scheduler = createScheduler(ctx, work, { timers, lease });
    assert.is(scheduler.start(), null);
    assert.equal([scheduler.state, scheduler.heldBy?.role, starts], ['standby', 'daemon', 0]);
    assert.equal(timers.pending.map((p) => p.ms), [30_000], 'looks again after the poll');
    holder = null; // the daemon went away
    assert.not.throws(() => timers.pending[0]!.fn());
    assert.equal([scheduler.state, starts], ['running', 1]);
    assert.ok(lines.some((l) => /catching up after the takeover failed/.test(l)));
    scheduler.stop();
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

test('a lease left by a process that is gone (or written before the machine booted) is taken over; a live one is not, however old', () => {
  const dirs = newDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  try {
    const file = path.join(ctx.paths.dataDir, LEASE_FILE);
    fs.mkdirSync(ctx.paths.dataDir, { recursive: true });
    const now = () => new Date().toISOString();
    const first = fileLease({ dataDir: ctx.paths.dataDir, runtimeId: 'r-one', role: () => 'daemon', now });
    const second = fileLease({ dataDir: ctx.paths.dataDir, runtimeId: 'r-two', role: () => 'server', now });
    assert.is(first.acquire(), null);
    assert.is(second.acquire()!.runtime_id, 'r-one', 'a live holder keeps it');
    assert.is(second.holder()!.role, 'daemon');
    // The holder's process went away (a crash leaves the file behind): its lease names a pid that no longer runs.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), pid: gone }) + '\n');
    assert.is(second.acquire(), null);
    assert.is(first.renew(), false, 'the old holder notices it lost the lease');
    assert.is(first.acquire()!.runtime_id, 'r-two');
    // Old but written in this boot (the machine slept): the live holder keeps it.
    const slept = new Date(Date.now() - Math.min(os.uptime() * 1000 - 60_000, 3 * 3600_000));
    fs.utimesSync(file, slept, slept);
    assert.is(first.acquire()!.runtime_id, 'r-two');
    // Written by an older svc (no process identity) before the machine booted: its pid answers, but it is another process now.
    const { boot_id: _b, pid_start: _p, ...older } = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.ok(_b && _p, 'the lease records who its process is');
    fs.writeFileSync(file, JSON.stringify(older) + '\n');
    const beforeBoot = new Date(Date.now() - os.uptime() * 1000 - 60_000);
    fs.utimesSync(file, beforeBoot, beforeBoot);
    assert.is(first.acquire(), null);
    first.release();
    assert.is(fs.existsSync(file), false);
    second.release(); // not the holder: nothing to do
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

/** Run with the wall clock moved by `shiftMs` (Date.now only: what leases and boot times are read from). */
function withClock<T>(shiftMs: number, fn: () => T): T {
  const real = Date.now;
  Date.now = () => real() + shiftMs;
  try {
    return fn();
  } finally {
    Date.now = real;
  }
}

test('a lease names its process beyond its pid: a pid now run by another process, or another boot\'s lease, is taken over; a live lease survives wall-clock jumps', async () => {
  const dirs = newDirs();
  const ctx = createContext({ env: dirs.env, log: silentLogger });
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  await new Promise((r) => child.once('spawn', r));
  try {
    const file = path.join(ctx.paths.dataDir, LEASE_FILE);
    fs.mkdirSync(ctx.paths.dataDir, { recursive: true });
    const now = () => new Date().toISOString();
    const me = fileLease({ dataDir: ctx.paths.dataDir, runtimeId: 'r-me', role: () => 'server', now });
    const started = processIdentity(child.pid!)!;
    assert.ok(started, 'identity read from /proc');
    const leaseOf = (identity: { boot_id: string; pid_start: number }) =>
      fs.writeFileSync(file, JSON.stringify({ pid: child.pid, runtime_id: 'r-other', role: 'daemon', port: null, since_utc: now(), ...identity }) + '\n', { mode: 0o600 });
    // The child runs under the lease's pid and started when the lease says: it holds the lease.
    leaseOf(started);
    assert.is(me.acquire()?.runtime_id, 'r-other', 'its process runs: not taken over');
    // The same pid, but a process that started at another time (the lease's process died and its pid was reused).
    leaseOf({ ...started, pid_start: started.pid_start + 1 });
    assert.is(me.holder(), null, 'nobody holds it');
    assert.is(me.acquire(), null, 'taken over');
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal([written.runtime_id, written.boot_id, written.pid_start], ['r-me', started.boot_id, processIdentity(process.pid)!.pid_start], 'the new lease records its own identity');
    // Another boot's lease, though its pid and start time match a running process.
    leaseOf({ ...started, boot_id: '00000000-0000-4000-8000-000000000000' });
    assert.is(me.acquire(), null, 'a lease from before a reboot is taken over');
    // A live lease and a clock set forward (a sync after a boot without a real-time clock) or back.
    const other = fileLease({ dataDir: ctx.paths.dataDir, runtimeId: 'r-other', role: () => 'server', now });
    const TEN_YEARS = 10 * 365 * 86_400_000;
    assert.is(withClock(TEN_YEARS, () => other.acquire())?.runtime_id, 'r-me', 'live after a forward jump');
    assert.is(withClock(TEN_YEARS, () => other.holder())?.runtime_id, 'r-me');
    assert.is(withClock(-TEN_YEARS, () => other.acquire())?.runtime_id, 'r-me', 'live after a backward jump');
    assert.is(me.renew(), true, 'still held');
    assert.equal(Object.keys(other.holder()!).sort(), ['pid', 'port', 'role', 'runtime_id', 'since_utc'], 'answers do not show the identity');
    me.release();
  } finally {
    child.kill('SIGKILL');
    void ctx.close();
    dirs.cleanup();
  }
});

test.run();
