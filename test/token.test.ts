import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, rawRequest, ROOT, tempDirs, waitFor, type TempDirs } from './_setup.js';
import { runCli as runCliInProcess } from '../commands/main.js';
import type { Io } from '../commands/lib/io.js';
import { readConfig } from '../src/config.js';
import { resolvePaths } from '../src/paths.js';

const portFileOf = (dirs: TempDirs) => resolvePaths(readConfig(dirs.env)).portFile;

function serve(dirs: TempDirs, args: string[] = ['--port', '0'], extraEnv: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'serve', ...args], {
    env: { PATH: process.env.PATH, ...dirs.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function portOf(dirs: TempDirs): Promise<number> {
  const file = portFileOf(dirs);
  return Number(await waitFor(() => fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).port, 15_000, 'port file'));
}

const exited = (child: ChildProcess) => new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
const health = (port: number, token: string) => rawRequest(port, { path: '/api/health', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` } });

test('token file is owner-only, removed on SIGTERM, and a restart mints a new token', async () => {
  const dirs = tempDirs();
  try {
    const first = serve(dirs);
    const port = await portOf(dirs);
    const tokenFile = path.join(dirs.stateDir, `api-token-${port}`);
    const stat = fs.statSync(tokenFile);
    assert.is(stat.mode & 0o777, 0o600);
    assert.is(fs.statSync(dirs.stateDir).mode & 0o777, 0o700);
    const token1 = fs.readFileSync(tokenFile, 'utf8');
    assert.match(token1, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
    assert.is((await health(port, token1)).status, 200);
    const done = exited(first);
    first.kill('SIGTERM');
    assert.is(await done, 0);
    assert.not.ok(fs.existsSync(tokenFile), 'token file removed on clean shutdown');
    assert.not.ok(fs.existsSync(portFileOf(dirs)), 'port file removed');

    const second = serve(dirs, ['--port', String(port)]);
    await waitFor(() => fs.existsSync(tokenFile), 15_000, 'token file');
    const token2 = fs.readFileSync(tokenFile, 'utf8');
    assert.is.not(token2, token1);
    assert.is((await health(port, token1)).json().detail.reason, 'token_invalid');
    assert.is((await health(port, token2)).status, 200);
    const done2 = exited(second);
    second.kill('SIGINT');
    assert.is(await done2, 0);
    assert.not.ok(fs.existsSync(tokenFile));
  } finally {
    dirs.cleanup();
  }
});

test('a token file left by a crash never admits anything', async () => {
  const dirs = tempDirs();
  try {
    const crashed = serve(dirs);
    const port = await portOf(dirs);
    const tokenFile = path.join(dirs.stateDir, `api-token-${port}`);
    const stale = fs.readFileSync(tokenFile, 'utf8');
    const gone = exited(crashed);
    crashed.kill('SIGKILL');
    await gone;
    assert.ok(fs.existsSync(tokenFile), 'a crash leaves the file behind');
    const next = serve(dirs, ['--port', String(port)]);
    await waitFor(async () => fs.readFileSync(tokenFile, 'utf8') !== stale && (await health(port, fs.readFileSync(tokenFile, 'utf8')).catch(() => ({ status: 0 }))).status === 200, 15_000, 'new token');
    assert.is((await health(port, stale)).status, 401);
    const done = exited(next);
    next.kill('SIGTERM');
    await done;
  } finally {
    dirs.cleanup();
  }
});

test('SVC_PORT names the port when no flag does; a symlinked token file is replaced, not followed', async () => {
  const dirs = tempDirs();
  try {
    const port = await freePort();
    fs.mkdirSync(dirs.stateDir, { recursive: true, mode: 0o700 });
    const victim = path.join(dirs.root, 'victim.txt');
    fs.writeFileSync(victim, 'keep me');
    fs.symlinkSync(victim, path.join(dirs.stateDir, `api-token-${port}`));
    const child = serve(dirs, [], { SVC_PORT: String(port) });
    assert.is(await portOf(dirs), port);
    assert.is(fs.readFileSync(victim, 'utf8'), 'keep me');
    assert.ok(fs.lstatSync(path.join(dirs.stateDir, `api-token-${port}`)).isFile());
    const done = exited(child);
    child.kill('SIGTERM');
    await done;
  } finally {
    dirs.cleanup();
  }
});

test('a handed-down SVC_API_TOKEN is used and deleted from the environment', async () => {
  const dirs = tempDirs();
  const handed = 'handed-down-token-' + 'x'.repeat(30);
  const env: Record<string, string | undefined> = { ...dirs.env, SVC_API_TOKEN: handed };
  const err: string[] = [];
  const io: Io = { out: () => {}, write: () => {}, err: (s) => err.push(s), readStdin: async () => '', stdoutIsTTY: false, stdinIsTTY: false, env, json: false };
  try {
    const running = runCliInProcess(['serve', '--port', '0'], io);
    const port = await portOf(dirs);
    assert.is(env.SVC_API_TOKEN, undefined, 'removed from the environment');
    assert.is(fs.readFileSync(path.join(dirs.stateDir, `api-token-${port}`), 'utf8'), handed);
    assert.is((await health(port, handed)).status, 200);
    assert.not.ok(err.join('\n').includes(handed), 'never printed');
    process.emit('SIGTERM' as never);
    assert.is(await running, 0);
  } finally {
    dirs.cleanup();
  }
});

test('a handed-down token that is too short is refused at start', async () => {
  const dirs = tempDirs();
  try {
    const child = serve(dirs, ['--port', '0'], { SVC_API_TOKEN: 'short' });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    assert.is(await exited(child), 2);
    assert.match(stderr, /SVC_API_TOKEN must be/);
    assert.not.match(stderr, /short/);
  } finally {
    dirs.cleanup();
  }
});

test('serve stopped the moment its "listening on" log line appears still shuts down cleanly', async () => {
  // A supervisor reading stderr (or the port file) may stop the server at once: the handlers must already be there.
  for (let i = 0; i < 4; i++) {
    const dirs = tempDirs();
    try {
      const child = serve(dirs);
      let stderr = '';
      let stopped = false;
      child.stderr!.on('data', (d) => {
        stderr += d;
        // Once: a second SIGTERM during shutdown is meant to end it at once.
        if (!stopped && stderr.includes('listening on')) (stopped = true), child.kill('SIGTERM');
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited(child);
      clearTimeout(timer);
      assert.is(code, 0, `run ${i}: exit code (null: killed by the signal)`);
      assert.not.ok(fs.existsSync(portFileOf(dirs)), 'port file withdrawn');
      assert.equal(fs.readdirSync(dirs.stateDir).filter((f) => f.startsWith('api-token-')), [], 'token file withdrawn');
    } finally {
      dirs.cleanup();
    }
  }
});

test.run();
