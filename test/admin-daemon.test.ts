import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SERVICE_HOST_KEY, type ServiceHost } from '../src/daemon/unit.js';
import { acquireLock, lockHolderAlive, readLock, releaseLock } from '../src/daemon/lock.js';
import { processIdentity } from '../src/claims/staleness.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startServer } from '../server/listen.js';
import { runCli, startTestServer, tempDirs, waitFor } from './_setup.js';

function fakeHost(platform: NodeJS.Platform, code = 0): ServiceHost & { calls: string[] } {
  const calls: string[] = [];
  return { platform, uid: 501, calls, run: async (file, args) => (calls.push(`${file} ${args.join(' ')}`), { code, output: code ? 'Failed to connect to bus' : '' }) };
}

test('service unit on Linux: a systemd user unit running the daemon in the foreground; register enables it', async () => {
  const t = await startTestServer();
  const host = fakeHost('linux');
  t.ctx.service(SERVICE_HOST_KEY, () => host);
  try {
    assert.equal((await t.request('GET', '/api/service/status')).json().installed, false);
    const r = await t.request('POST', '/api/service/install', { body: { port: 8799 } });
    assert.is(r.status, 200, r.text);
    const file = r.json().path;
    assert.is(file, path.join(t.dirs.root, '.config', 'systemd', 'user', 'svc.service'));
    const unit = fs.readFileSync(file, 'utf8');
    assert.match(unit, /^\[Unit\]/);
    assert.match(unit, /ExecStart=".*node[^"]*" ".*bin\/svc\.js" "serve" "--daemon" "--foreground" "--port" "8799"/);
    assert.ok(unit.includes(`Environment="SVC_DATA_DIR=${t.dirs.dataDir}"`));
    assert.match(unit, /WantedBy=default\.target/);
    assert.equal(host.calls, [], 'register defaults to false');
    assert.is((await t.request('GET', '/api/service/status')).json().installed, true);
    const reg = (await t.request('POST', '/api/service/install', { body: { port: null, register: true } })).json();
    assert.equal(reg.commands_run, ['systemctl --user daemon-reload', 'systemctl --user enable --now svc.service']);
    assert.not.match(fs.readFileSync(file, 'utf8'), /--port/);
    assert.is((await t.request('POST', '/api/service/install', { body: { port: 70000 } })).status, 422);
    const un = (await t.request('POST', '/api/service/uninstall', { body: { deregister: true } })).json();
    assert.is(un.installed, false);
    assert.equal(un.commands_run, ['systemctl --user disable --now svc.service', 'systemctl --user daemon-reload']);
    assert.not.ok(fs.existsSync(file));
  } finally {
    await t.close();
  }
});

test('service unit on macOS is a launchd agent; Windows is described and refused; a failing manager is 502', async () => {
  const t = await startTestServer();
  const host = fakeHost('darwin');
  t.ctx.service(SERVICE_HOST_KEY, () => host);
  try {
    const r = (await t.request('POST', '/api/service/install', { body: { register: true } })).json();
    assert.is(r.path, path.join(t.dirs.root, 'Library', 'LaunchAgents', 'org.svc.daemon.plist'));
    const plist = fs.readFileSync(r.path, 'utf8');
    assert.match(plist, /<key>Label<\/key><string>org\.svc\.daemon<\/string>/);
    assert.match(plist, /<string>--daemon<\/string>\n\s+<string>--foreground<\/string>/);
    assert.match(plist, /<key>RunAtLoad<\/key><true\/>/);
    assert.equal(host.calls, [`launchctl bootstrap gui/501 ${r.path}`]);
    host.platform = 'win32';
    const status = (await t.request('GET', '/api/service/status')).json();
    assert.is(status.supported, false);
    assert.match(status.note, /scheduled task/);
    const refused = await t.request('POST', '/api/service/install', { body: {} });
    assert.is(refused.status, 501);
    assert.is(refused.json().detail.reason, 'unsupported_platform');
    host.platform = 'linux';
    const failing = fakeHost('linux', 1);
    const t2 = await startTestServer();
    t2.ctx.service(SERVICE_HOST_KEY, () => failing);
    const bad = await t2.request('POST', '/api/service/install', { body: { register: true } });
    assert.is(bad.status, 502);
    assert.is(bad.json().detail.reason, 'service_manager_failed');
    await t2.close();
  } finally {
    await t.close();
  }
});

test('CLI: service status says what to run next (install when there is no unit; daemon status and uninstall when there is)', async () => {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return;
  const dirs = tempDirs();
  try {
    const svc = (args: string[]) => runCli(args, { env: dirs.env });
    const none = await svc(['service', 'status']);
    assert.is(none.code, 0, none.stderr);
    assert.match(none.stdout, /not installed: .*\n {2}Install it with `svc service install --register`/);
    const written = await svc(['service', 'install']);
    assert.match(written.stdout, /Written, not started: `svc service install --register` also enables and starts it/);
    assert.match((await svc(['service', 'status'])).stdout, /installed: .*\n {2}`svc daemon status` says whether the daemon runs; `svc service uninstall --deregister` removes the unit/);
    assert.match((await svc(['service', 'uninstall'])).stdout, /unit removed: /);
  } finally {
    dirs.cleanup();
  }
});

test('daemon status: lock ground truth, probe of the lock port, is_self; a stale lock is reported', async () => {
  const t = await startTestServer();
  try {
    const none = (await t.request('GET', '/api/service/daemon-status')).json();
    assert.equal([none.lock_present, none.running, none.is_self, none.error, none.stale_lock], [false, false, false, null, false]);
    for (const key of ['lock_present', 'running', 'pid', 'port', 'version', 'started_at', 'lock_pid', 'lock_port', 'lock_version', 'error', 'is_self']) assert.ok(key in none, key);
    // This server pretends to be the daemon: the lock names its pid and port.
    fs.writeFileSync(t.ctx.paths.daemonLock, JSON.stringify({ pid: process.pid, port: t.port, version: '0.1.0', started_at: '2026-01-01T00:00:00.000Z' }));
    const self = (await t.request('GET', '/api/service/daemon-status')).json();
    assert.equal([self.lock_present, self.running, self.is_self, self.pid, self.port, self.lock_port], [true, true, true, process.pid, t.port, t.port]);
    fs.writeFileSync(t.ctx.paths.daemonLock, JSON.stringify({ pid: 2147483000, port: t.port, version: '0.1.0', started_at: 'x' }));
    const stale = (await t.request('GET', '/api/service/daemon-status')).json();
    assert.equal([stale.lock_present, stale.running, stale.lock_pid, stale.stale_lock], [true, false, 2147483000, true]);
    assert.match(stale.error, /stale/);
    const said = await runCli(['daemon', 'status'], { env: t.dirs.env });
    assert.is(said.code, 1);
    assert.match(said.stdout, /not answering: .*stale lock\)\. `svc daemon start` takes the stale lock over/);
  } finally {
    await t.close();
  }
});

test('lock: exclusive; a stale lock is taken over; only the holder releases it', () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  try {
    assert.is(acquireLock(ctx.paths, 'a'), null);
    const held = acquireLock(ctx.paths, 'b');
    assert.is(held?.pid, process.pid, 'second acquire in a live holder fails');
    fs.writeFileSync(ctx.paths.daemonLock, JSON.stringify({ pid: 2147483000, port: 1, version: 'x', started_at: 'y' }));
    assert.is(acquireLock(ctx.paths, 'c'), null, 'stale lock taken over');
    assert.is(readLock(ctx.paths)?.started_at, 'c');
    releaseLock(ctx.paths);
    assert.not.ok(fs.existsSync(ctx.paths.daemonLock));
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

test('lock: it names its process beyond its pid; a lock whose pid now runs another process is stale and taken over', () => {
  if (!processIdentity(process.pid)) return; // no /proc: the lock records no identity and its pid alone decides
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  try {
    assert.is(acquireLock(ctx.paths, 'a'), null);
    const mine = readLock(ctx.paths)!;
    assert.equal([mine.boot_id, mine.pid_start], [processIdentity(process.pid)!.boot_id, processIdentity(process.pid)!.pid_start], 'the lock records who its process is');
    assert.ok(lockHolderAlive(mine));
    // The daemon that wrote this lock died and its pid (ours, here) went to another process: the start time differs.
    fs.writeFileSync(ctx.paths.daemonLock, JSON.stringify({ ...mine, pid_start: mine.pid_start! - 1, started_at: 'old' }));
    assert.not.ok(lockHolderAlive(readLock(ctx.paths)!));
    assert.is(acquireLock(ctx.paths, 'b'), null, 'taken over');
    assert.is(readLock(ctx.paths)?.started_at, 'b');
    // A lock of an older svc (no identity) naming a running pid still stands.
    fs.writeFileSync(ctx.paths.daemonLock, JSON.stringify({ pid: process.pid, port: 1, version: 'x', started_at: 'y' }));
    assert.is(acquireLock(ctx.paths, 'c')?.started_at, 'y');
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

test('a restarted daemon marks the runs the previous daemon left running owner_dead: it recorded nothing, so nothing is guessed', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => {} }) });
  const now = new Date().toISOString();
  ctx.db
    .prepare(
      `INSERT INTO executions (type, status, query, repositories_json, parameters_json, started_at_utc, owner_pid, owner_runtime_id, owner_role, last_seen_at_utc)
       VALUES ('dive', 'running', 'q', '["crossref"]', '{}', ?, 2147483000, 'old-runtime', 'daemon', ?)`,
    )
    .run(now, now);
  const server = await startServer(ctx, { port: 0, role: 'daemon' });
  try {
    const row = ctx.db.prepare('SELECT status, interrupted_reason FROM executions').get() as { status: string; interrupted_reason: string };
    assert.equal(row, { status: 'interrupted', interrupted_reason: 'owner_dead' });
  } finally {
    await server.close();
    dirs.cleanup();
  }
});

test('CLI: two daemon starts at once: one starts, one attaches; status, health, stop', async () => {
  const dirs = tempDirs();
  try {
    const [a, b] = await Promise.all([runCli(['--json', 'daemon', 'start', '--port', '0'], { env: dirs.env }), runCli(['--json', 'daemon', 'start', '--port', '0'], { env: dirs.env })]);
    assert.is(a.code, 0, a.stderr);
    assert.is(b.code, 0, b.stderr);
    const ja = JSON.parse(a.stdout);
    const jb = JSON.parse(b.stdout);
    assert.equal([ja.started, jb.started].sort(), [false, true]);
    assert.equal([ja.attached, jb.attached].sort(), [false, true]);
    assert.is(ja.status.pid, jb.status.pid);
    const status = await runCli(['--json', 'daemon', 'status'], { env: dirs.env });
    assert.is(status.code, 0);
    assert.is(JSON.parse(status.stdout).pid, ja.status.pid);
    assert.is((await runCli(['health'], { env: dirs.env })).code, 0, 'clients find the daemon');
    const attach = await runCli(['--json', 'daemon', 'attach'], { env: dirs.env });
    assert.is(JSON.parse(attach.stdout).running, true);
    const stop = await runCli(['--json', 'daemon', 'stop'], { env: dirs.env });
    assert.is(JSON.parse(stop.stdout).stopped, true);
    await waitFor(() => !fs.existsSync(path.join(dirs.stateDir, 'daemon.lock')), 5000, 'lock removed');
    const after = await runCli(['daemon', 'status'], { env: dirs.env });
    assert.is(after.code, 1);
    assert.match(after.stdout, /^No daemon is running \(no lock\); `svc daemon start` starts one\.$/m);
  } finally {
    await runCli(['daemon', 'stop'], { env: dirs.env });
    dirs.cleanup();
  }
});

test('CLI: a daemon that cannot start says why (its last log line), not only where the log is', async () => {
  const dirs = tempDirs();
  const busy = net.createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  try {
    const port = (busy.address() as net.AddressInfo).port;
    const r = await runCli(['daemon', 'start', '--port', String(port)], { env: dirs.env });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`exited \\(code \\d+\\) before answering: Port ${port} is in use; .*; see .*daemon\\.log\\.`));
  } finally {
    await new Promise((r) => busy.close(r));
    await runCli(['daemon', 'stop'], { env: dirs.env });
    dirs.cleanup();
  }
});

test.run();
