/**
 * The shell action daemon/stop (the Administration page's "Stop the
 * daemon"): it stops the daemon as `svc daemon stop` does, and a window that
 * was attached to it falls back to a backend of its own, which the next
 * exchange hands over; it needs the shell secret like every action.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort, runCli, waitFor } from './_setup.js';
import { backendRequest, exchange, freshCode, launchShell, shellRequest, windowDirs } from './_window.js';
import { isPidAlive } from '../src/util/pid.js';

test('daemon/stop stops the daemon the window is attached to, and the window falls back to a backend of its own', async () => {
  const dirs = windowDirs();
  const daemonPort = await freePort();
  const env = { ...dirs.shellEnv, SVC_PORT: String(daemonPort) };
  const started = await runCli(['--json', 'daemon', 'start'], { env });
  assert.is(started.code, 0, started.stderr);
  const daemonPid = JSON.parse(started.stdout).status.pid as number;
  const shell = await launchShell(env);
  try {
    assert.is(shell.line.backend.role, 'daemon');
    const first = await exchange(shell, shell.code);

    const unsigned = await shellRequest(shell, '/shell/daemon/stop', { method: 'POST' });
    assert.is(unsigned.status, 403);
    assert.is(unsigned.json().detail.reason, 'shell_secret_missing');
    assert.ok(isPidAlive(daemonPid), 'an unsigned request stops nothing');

    const stopped = await shellRequest(shell, '/shell/daemon/stop', { method: 'POST', secret: first.shell_secret });
    assert.is(stopped.status, 200, stopped.text);
    const answer = stopped.json();
    assert.is(answer.stopped, true);
    assert.is(answer.fell_back, true);
    assert.match(answer.message, new RegExp(`Stopped the daemon \\(pid ${daemonPid}\\)`));
    assert.is(answer.backend.role, 'fallback');
    assert.is.not(answer.backend.base_url, `http://127.0.0.1:${daemonPort}`, 'the daemon\'s port is left for the daemon');
    await waitFor(() => !isPidAlive(daemonPid), 10_000, 'the daemon to exit');
    const status = JSON.parse((await runCli(['--json', 'daemon', 'status'], { env })).stdout);
    assert.is(status.running, false, 'svc daemon status agrees');

    const second = await exchange(shell, await freshCode(shell, first));
    assert.is(second.backend.role, 'fallback');
    assert.is(second.backend.base_url, answer.backend.base_url);
    const health = await backendRequest(second, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(health.status, 200, health.text);
    assert.is(health.json().role, 'fallback');

    // With no daemon running, the action says so and the window keeps its backend.
    const again = await shellRequest(shell, '/shell/daemon/stop', { method: 'POST', secret: first.shell_secret });
    assert.is(again.status, 200, again.text);
    assert.equal({ stopped: again.json().stopped, fell_back: again.json().fell_back, base_url: again.json().backend.base_url }, { stopped: false, fell_back: false, base_url: answer.backend.base_url });
    assert.match(again.json().message, /No daemon is running/);
  } finally {
    await shell.stop();
    await runCli(['daemon', 'stop'], { env });
    dirs.cleanup();
  }
});

test.run();
