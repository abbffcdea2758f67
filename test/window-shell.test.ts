/**
 * svc window as a real process, with raw HTTP to its renderer server and its
 * backend: which backend it takes (the daemon when one runs, else a fallback
 * with no scheduler and a token that never appears in argv), the one-time
 * exchange and the shell actions behind Origin, Host and the per-launch
 * secret, the CSP, the backend's guard against other origins, a restart of
 * the fallback, and the system opener. Beside the daemon:
 * window-shell-daemon.test.ts; the idle stop: window-shell-idle.test.ts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { freePort, runCli, waitFor } from './_setup.js';
import { backendRequest, exchange, freshCode, launchShell, publishedPid, shellRequest, windowDirs } from './_window.js';
import { isPidAlive } from '../src/util/pid.js';

const FOREIGN = 'http://127.0.0.1:1';
const CSP = (backends: string[]) =>
  `default-src 'none'; script-src 'self'; connect-src 'self' ${backends.join(' ')}; worker-src 'self'; img-src 'self' data: blob:; style-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const gone = (pid: number) => waitFor(() => !isPidAlive(pid), 15_000, `process ${pid} to stop`);
const procText = (pid: number, what: 'cmdline' | 'environ') => fs.readFileSync(`/proc/${pid}/${what}`, 'utf8').split('\0');

test('no daemon: a fallback backend with no scheduler, the token in its environment and never in argv; the JSON line; Ctrl-C exits 130 and the idle fallback stops', async () => {
  const dirs = windowDirs();
  const daemonPort = await freePort();
  const shell = await launchShell({ ...dirs.shellEnv, SVC_PORT: String(daemonPort) });
  try {
    assert.equal(Object.keys(shell.line).sort(), ['backend', 'renderer_origin', 'url']);
    assert.equal(Object.keys(shell.line.backend).sort(), ['base_url', 'role']);
    assert.match(shell.line.url, /^http:\/\/127\.0\.0\.1:\d+\/#launch=[A-Za-z0-9_-]{43}$/);
    assert.is(shell.line.renderer_origin, `http://127.0.0.1:${shell.port}`);
    assert.is(shell.line.backend.role, 'fallback');
    assert.match(shell.line.backend.base_url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.is.not(shell.line.backend.base_url, `http://127.0.0.1:${daemonPort}`, 'a fallback takes a free port, never the daemon\'s');

    const session = await exchange(shell, shell.code);
    assert.equal(Object.keys(session).sort(), ['backend', 'connect_origins', 'shell_secret', 'token']);
    assert.equal(session.connect_origins, [shell.line.backend.base_url, `http://127.0.0.1:${daemonPort}`], 'the same origins as the CSP');
    assert.is(session.backend.base_url, shell.line.backend.base_url);
    assert.is(session.backend.role, 'fallback');
    const health = await backendRequest(session, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(health.status, 200, health.text);
    assert.is(health.json().role, 'fallback');
    assert.is(health.json().scheduler.state, 'disabled', 'a fallback never owns a scheduler');
    assert.is(session.backend.runtime_id, health.json().identity.runtime_id);
    assert.is(health.headers['access-control-allow-origin'], shell.line.renderer_origin, 'the renderer origin is the launch origin of the fallback');

    const pid = publishedPid(dirs)!;
    assert.ok(pid && pid !== shell.proc.pid);
    const argv = procText(pid, 'cmdline');
    assert.ok(argv.includes('--fallback') && argv.includes('serve'), argv.join(' '));
    assert.not.ok(argv.some((a) => a.includes(session.token)), 'the token is not in the fallback\'s argv');
    assert.not.ok(procText(shell.proc.pid!, 'cmdline').some((a) => a.includes(session.token)), 'nor in the shell\'s');
    const environ = procText(pid, 'environ');
    assert.ok(environ.includes('SVC_DISABLE_SCHEDULER=1'));
    assert.ok(environ.includes(`SVC_API_TOKEN=${session.token}`), 'handed down through the environment');

    // The command line of the same data directory finds the window's backend (its port and token files).
    const cli = await runCli(['health'], { env: dirs.shellEnv });
    assert.is(cli.code, 0, cli.stderr);
    assert.ok(cli.stdout.includes(`is running on ${shell.line.backend.base_url} (a window's fallback backend: no scheduler;`), cli.stdout);

    const status = await shellRequest(shell, '/shell/status', { secret: session.shell_secret });
    assert.is(status.status, 200, status.text);
    assert.equal(status.json(), { backend: session.backend, daemon: { running: false, port: null } });

    const end = await shell.stop('SIGINT');
    assert.is(end.code, 130, shell.stderr());
    assert.match(shell.stderr(), /stops as soon as nothing runs in it/);
    await gone(pid);
  } finally {
    await shell.stop();
    dirs.cleanup();
  }
});

test('the exchange: one use per code, only from the window\'s origin and Host; shell actions need the secret; the backend refuses other origins; the CSP is exact', async () => {
  const dirs = windowDirs();
  const shell = await launchShell(dirs.shellEnv);
  try {
    // A foreign or missing Origin, or another Host, is refused and leaves the code unused.
    for (const call of [{ origin: FOREIGN }, { origin: null }, { host: `localhost:${shell.port}` }]) {
      const r = await shellRequest(shell, '/shell/exchange', { ...call, body: { code: shell.code } });
      assert.is(r.status, 403, JSON.stringify(call));
      assert.is(r.json().detail.reason, call.host ? 'host_refused' : 'origin_refused');
      assert.is(r.headers['access-control-allow-origin'], undefined);
    }
    const session = await exchange(shell, shell.code);
    const again = await shellRequest(shell, '/shell/exchange', { body: { code: shell.code } });
    assert.is(again.status, 403);
    assert.is(again.json().detail.reason, 'launch_code_used');
    assert.match(again.json().detail.message, /svc window/);
    const unknown = await shellRequest(shell, '/shell/exchange', { body: { code: 'A'.repeat(43) } });
    assert.is(unknown.json().detail.reason, 'launch_code_invalid');

    // The token works from the window's origin, and from no other.
    const own = await backendRequest(session, 'GET', '/api/health', { origin: shell.line.renderer_origin });
    assert.is(own.status, 200);
    const other = await backendRequest(session, 'GET', '/api/health', { origin: FOREIGN });
    assert.is(other.status, 403);
    assert.is(other.json().detail.reason, 'origin_refused');

    // Shell actions: the window's origin and its secret, both.
    const launch = (call: Parameters<typeof shellRequest>[2]) => shellRequest(shell, '/shell/launch-code', { method: 'POST', ...call });
    assert.is((await launch({})).json().detail.reason, 'shell_secret_missing');
    assert.is((await launch({ secret: 'x'.repeat(43) })).json().detail.reason, 'shell_secret_invalid');
    assert.is((await launch({ secret: session.shell_secret, origin: FOREIGN })).json().detail.reason, 'origin_refused');
    assert.is((await launch({ secret: session.shell_secret, origin: null })).json().detail.reason, 'origin_refused', 'a POST always carries an Origin from a browser');
    const cross = await shellRequest(shell, '/shell/status', { secret: session.shell_secret, origin: null, headers: { 'sec-fetch-site': 'cross-site' } });
    assert.is(cross.json().detail.reason, 'origin_refused');
    const preflight = await shellRequest(shell, '/shell/launch-code', { method: 'OPTIONS', origin: FOREIGN, headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-svc-shell' } });
    assert.is(preflight.status, 403);
    assert.is(preflight.headers['access-control-allow-origin'], undefined);
    const code = await freshCode(shell, session);
    assert.is.not(code, shell.code);
    const second = await exchange(shell, code);
    assert.is(second.token, session.token);
    assert.is(second.shell_secret, session.shell_secret);

    // The HTML of every app route carries the exact CSP; nothing but app routes and /assets/ is answered.
    for (const p of ['/', '/explore?q=soil', '/papers/12']) {
      const page = await shellRequest(shell, p, { origin: null });
      assert.ok(page.status === 200 || page.status === 503, `${p}: ${page.status}`);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.is(page.headers['content-security-policy'], CSP([shell.line.backend.base_url, 'http://127.0.0.1:8742']));
      assert.is(page.headers['x-content-type-options'], 'nosniff');
      assert.is(page.headers['referrer-policy'], 'no-referrer');
      assert.is(page.headers['cache-control'], 'no-store');
      assert.not.match(page.text, /<script(?![^>]*\bsrc=)|\bstyle=|<style/, 'no inline script or style');
    }
    for (const p of ['/favicon.ico', '/assets/../package.json', '/assets/%2e%2e/package.json', '/shell/nothing']) {
      assert.is((await shellRequest(shell, p, { origin: null, secret: session.shell_secret })).status, 404, p);
    }
    assert.is((await shellRequest(shell, '/', { origin: null, host: `evil.example:${shell.port}` })).status, 403, 'a rebound host name is refused');
  } finally {
    await shell.stop();
    dirs.cleanup();
  }
});

test('backend/restart starts the fallback again on its port with a fresh token; the page takes it through the exchange; a fallback that dies is replaced on its port at the next exchange', async () => {
  const dirs = windowDirs();
  const shell = await launchShell(dirs.shellEnv);
  try {
    const first = await exchange(shell, shell.code);
    const restarted = await shellRequest(shell, '/shell/backend/restart', { method: 'POST', secret: first.shell_secret });
    assert.is(restarted.status, 200, restarted.text);
    assert.is(restarted.json().backend.base_url, first.backend.base_url);
    assert.is.not(restarted.json().backend.runtime_id, first.backend.runtime_id);
    assert.is((await backendRequest(first, 'GET', '/api/health', { origin: shell.line.renderer_origin })).status, 401, 'the old token is gone with its process');
    const second = await exchange(shell, await freshCode(shell, first));
    assert.is((await backendRequest(second, 'GET', '/api/health', { origin: shell.line.renderer_origin })).status, 200);

    // A fallback that dies (kill -9) is said on stderr and replaced at the next exchange, on its port.
    const pid = publishedPid(dirs)!;
    process.kill(pid, 'SIGKILL');
    await gone(pid);
    await waitFor(() => /exited \(SIGKILL\); a new one starts when the page asks/.test(shell.stderr()), 5000, 'the shell to notice');
    const third = await exchange(shell, await freshCode(shell, first));
    assert.is(third.backend.base_url, first.backend.base_url, 'on the same port: the page\'s CSP reaches it');
    assert.is.not(third.backend.runtime_id, second.backend.runtime_id);
    assert.is((await backendRequest(third, 'GET', '/api/health', { origin: shell.line.renderer_origin })).status, 200);
    assert.is(shell.proc.exitCode, null, 'the window stays up');
  } finally {
    await shell.stop();
    dirs.cleanup();
  }
});

test('without --no-open the system opener gets the launch link (a stand-in xdg-open on PATH here; tests never open a browser)', async () => {
  if (process.platform !== 'linux') return;
  const dirs = windowDirs();
  const bin = path.join(dirs.root, 'bin');
  fs.mkdirSync(bin);
  const said = path.join(dirs.root, 'opened.txt');
  fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${said}'\n`, { mode: 0o755 });
  const { spawn } = await import('node:child_process');
  const env = { ...dirs.shellEnv, PATH: `${bin}:${dirs.shellEnv.PATH}` };
  const proc = spawn(process.execPath, [path.join(process.cwd(), 'bin', 'svc.js'), 'window'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  try {
    const opened = await waitFor(() => fs.existsSync(said) && fs.readFileSync(said, 'utf8'), 30_000, `the opener (stderr: ${stderr})`);
    assert.match(opened, /^http:\/\/127\.0\.0\.1:\d+\/#launch=[A-Za-z0-9_-]{43}$/);
    assert.is(stdout, '', 'the link is given to the browser, not printed');
    assert.match(stderr, /serving the window on http:\/\/127\.0\.0\.1:\d+; no daemon runs/);
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    dirs.cleanup();
  }
});

test('a window port in use is refused before any backend starts (exit 4); a bad --port is a usage error (exit 2)', async () => {
  const dirs = windowDirs();
  const busy = http.createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  try {
    const port = (busy.address() as AddressInfo).port;
    const r = await runCli(['--json', 'window', '--no-open', '--port', String(port)], { env: dirs.shellEnv });
    assert.is(r.code, 4, r.stderr);
    assert.equal(JSON.parse(r.stdout), { error: 'port_in_use', message: `Port ${port} is in use; choose another --port, or leave --port out for a free one.` });
    assert.not.ok(fs.existsSync(path.join(dirs.stateDir, 'fallback.log')), 'no backend was started');
    const bad = await runCli(['window', '--no-open', '--port', '70000'], { env: dirs.shellEnv });
    assert.is(bad.code, 2);
    assert.match(bad.stderr, /--port must be a whole number from 0 to 65535/);
  } finally {
    await new Promise((r) => busy.close(r));
    dirs.cleanup();
  }
});

test.run();
