/**
 * svc window as a real process beside the daemon: it attaches to a running
 * daemon and registers its origin (again after the daemon was restarted from a
 * terminal), waits for a daemon whose lock is present instead of starting a
 * backend of its own, and daemon/start moves a window from its fallback to the
 * daemon.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, runCli, waitFor } from './_setup.js';
import { backendRequest, exchange, freshCode, launchShell, publishedPid, shellRequest, windowDirs, type ShellProcess } from './_window.js';
import { isPidAlive } from '../src/util/pid.js';

const gone = (pid: number) => waitFor(() => !isPidAlive(pid), 15_000, `process ${pid} to stop`);

test('with the daemon running the window attaches to it and registers its origin, again after the daemon was restarted from a terminal; SIGTERM exits 0 and leaves the daemon be', async () => {
  const dirs = windowDirs();
  const started = await runCli(['--json', 'daemon', 'start', '--port', '0'], { env: dirs.shellEnv });
  assert.is(started.code, 0, started.stderr);
  const daemonPort = JSON.parse(started.stdout).status.port as number;
  let shell: ShellProcess | undefined;
  try {
    shell = await launchShell(dirs.shellEnv);
    assert.equal(shell.line.backend, { base_url: `http://127.0.0.1:${daemonPort}`, role: 'daemon' });
    const session = await exchange(shell, shell.code);
    assert.is(session.token, fs.readFileSync(path.join(dirs.stateDir, `api-token-${daemonPort}`), 'utf8').trim());
    // The daemon was started without --renderer-origin: the origin is allowed because the shell registered it.
    const health = await backendRequest(session, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(health.status, 200, health.text);
    assert.is(health.json().role, 'daemon');
    assert.is(health.headers['access-control-allow-origin'], shell.line.renderer_origin);

    // The daemon restarted from a terminal has a new token and knows no origin: the next exchange finds it and registers again.
    assert.is((await runCli(['daemon', 'stop'], { env: dirs.shellEnv })).code, 0);
    const again = await runCli(['--json', 'daemon', 'start', '--port', '0'], { env: dirs.shellEnv });
    assert.is(again.code, 0, again.stderr);
    const code = await freshCode(shell, session);
    const renewed = await exchange(shell, code);
    assert.is(renewed.backend.role, 'daemon');
    assert.is(renewed.backend.base_url, `http://127.0.0.1:${JSON.parse(again.stdout).status.port}`);
    assert.is.not(renewed.token, session.token);
    const afterRestart = await backendRequest(renewed, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(afterRestart.status, 200, afterRestart.text);

    const end = await shell.stop('SIGTERM');
    assert.is(end.code, 0, shell.stderr());
    assert.is((await backendRequest(renewed, 'GET', '/api/health')).status, 200, 'the daemon runs on');
  } finally {
    await shell?.stop();
    await runCli(['daemon', 'stop'], { env: dirs.shellEnv });
    dirs.cleanup();
  }
});

test('daemon/start makes the daemon the backend and registers the origin with it; a new exchange hands its token; the idle fallback stops; backend/restart restarts the daemon on its port and registers again', async () => {
  const dirs = windowDirs();
  const daemonPort = await freePort();
  const shell = await launchShell({ ...dirs.shellEnv, SVC_PORT: String(daemonPort) });
  try {
    const first = await exchange(shell, shell.code);
    const fallbackPid = publishedPid(dirs)!;
    const html = await shellRequest(shell, '/', { origin: null });
    assert.match(String(html.headers['content-security-policy']), new RegExp(`connect-src 'self' ${first.backend.base_url} http://127\\.0\\.0\\.1:${daemonPort};`), 'the daemon\'s origin is allowed ahead');

    const started = await shellRequest(shell, '/shell/daemon/start', { method: 'POST', secret: first.shell_secret });
    assert.is(started.status, 200, started.text);
    assert.equal(started.json().backend.base_url, `http://127.0.0.1:${daemonPort}`);
    assert.is(started.json().backend.role, 'daemon');
    const second = await exchange(shell, await freshCode(shell, first));
    assert.is(second.backend.role, 'daemon');
    assert.is.not(second.token, first.token, 'the daemon minted its own token');
    const health = await backendRequest(second, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(health.status, 200, health.text);
    assert.is(health.json().role, 'daemon');
    assert.is(health.json().scheduler.state, 'running', 'the daemon owns the scheduler');
    const status = (await shellRequest(shell, '/shell/status', { secret: first.shell_secret })).json();
    assert.equal(status.daemon, { running: true, port: daemonPort });
    await gone(fallbackPid);

    // backend/restart (how a staged restore is applied): the daemon stops and starts on its port; the origin is registered again.
    const restarted = await shellRequest(shell, '/shell/backend/restart', { method: 'POST', secret: first.shell_secret });
    assert.is(restarted.status, 200, restarted.text);
    assert.is(restarted.json().backend.base_url, `http://127.0.0.1:${daemonPort}`);
    assert.is.not(restarted.json().backend.runtime_id, second.backend.runtime_id);
    const third = await exchange(shell, await freshCode(shell, first));
    assert.is.not(third.token, second.token);
    const fresh = await backendRequest(third, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(fresh.status, 200, fresh.text);
  } finally {
    await shell.stop();
    await runCli(['daemon', 'stop'], { env: { ...dirs.shellEnv, SVC_PORT: String(daemonPort) } });
    dirs.cleanup();
  }
});

test('a present daemon lock means wait, never start a second backend: a daemon that does not answer in the attach wait is refused (exit 4)', async () => {
  const dirs = windowDirs();
  fs.mkdirSync(dirs.stateDir, { recursive: true });
  // A starting daemon: its process runs (this one stands in) and it has no port yet.
  fs.writeFileSync(path.join(dirs.stateDir, 'daemon.lock'), JSON.stringify({ pid: process.pid, port: null, version: '0.1.0', started_at: new Date().toISOString() }), { mode: 0o600 });
  try {
    const started = Date.now();
    const r = await runCli(['--json', 'window', '--no-open'], { env: dirs.shellEnv });
    const waited = Date.now() - started;
    assert.is(r.code, 4, r.stderr);
    assert.is(JSON.parse(r.stdout).error, 'daemon_not_answering');
    assert.match(r.stderr, /daemon lock is present .*svc daemon stop/);
    assert.ok(waited >= 2000, `it waited for the daemon (${waited} ms)`);
    assert.not.ok(fs.existsSync(path.join(dirs.stateDir, 'fallback.log')), 'no fallback was started');
  } finally {
    dirs.cleanup();
  }
});

test.run();
