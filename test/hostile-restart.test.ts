/**
 * Restarts say what happened, never a guess: a server or daemon stopped on
 * purpose (SIGTERM, SIGINT, `svc daemon stop`) records daemon_restart on its
 * own runs before it exits; a daemon killed with -9 recorded nothing, so the
 * next start says owner_dead; and a daemon killed with -9 whose parent has
 * not reaped it (a zombie) is gone, so a start right after takes its lock.
 * Every run is held in flight by a source that does not answer.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createContext, type Context } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { getExecution } from '../src/executions/repo.js';
import { listEvents } from '../src/executions/events.js';
import { lockHolderAlive, readLock } from '../src/daemon/lock.js';
import { isPidAlive } from '../src/util/pid.js';
import { fixture, rawRequest, ROOT, runCli, tempDirs, waitFor, type TempDirs } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { plantCanary, type Canary } from './_hostile.js';

const SVC = path.join(ROOT, 'bin', 'svc.js');

interface Bench {
  dirs: TempDirs;
  env: Record<string, string>;
  /** A crossref that holds every answer for a minute: a run asking it stays in flight. */
  source: Stub;
  watcher: Context;
  canary: Canary;
  close(): Promise<void>;
}

async function bench(): Promise<Bench> {
  const dirs = tempDirs();
  const canary = plantCanary(dirs.root);
  const source = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), delayMs: 60_000, times: Infinity }]);
  const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: source.url };
  const watcher = createContext({ env, log: silentLogger });
  return {
    dirs,
    env,
    source,
    watcher,
    canary,
    async close() {
      if (readLock(watcher.paths)) await runCli(['daemon', 'stop'], { env });
      await watcher.close();
      await source.close();
      dirs.cleanup();
    },
  };
}

/** Start a dive on the server at `port` and wait until it asks the held source; answers its id. */
async function diveInFlight(b: Bench, port: number): Promise<number> {
  const token = fs.readFileSync(b.watcher.paths.tokenFile(port), 'utf8').trim();
  const asked = b.source.requests.length;
  const r = await rawRequest(port, {
    method: 'POST',
    path: '/api/search/dive',
    headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ repository: 'crossref', query: 'ecology', max_results: 2 }),
  });
  assert.is(r.status, 202, r.text);
  await waitFor(() => b.source.requests.length > asked, 15_000, 'the run to ask the held source');
  const id = r.json().id as number;
  assert.is(getExecution(b.watcher.db, id)!.status, 'running');
  return id;
}

async function startDaemon(b: Bench): Promise<{ pid: number; port: number; started: boolean }> {
  const r = await runCli(['--json', 'daemon', 'start', '--port', '0'], { env: b.env });
  assert.is(r.code, 0, r.stderr);
  const answer = JSON.parse(r.stdout);
  return { pid: answer.status.pid, port: answer.status.port, started: answer.started };
}

function interruption(b: Bench, id: number): { status: string; reason: string | null; said: string } {
  const row = getExecution(b.watcher.db, id)!;
  const said = listEvents(b.watcher, id).filter((e) => e.kind === 'execution_interrupted').map((e) => e.message);
  assert.is(said.length, 1, 'one interruption, said once');
  return { status: row.status, reason: row.interrupted_reason, said: said[0]! };
}

// SIGINT takes the same path (serve.ts listens for both).
test('SIGTERM to svc serve with a run in flight: the run is recorded interrupted (daemon_restart) before the process exits', async () => {
  const b = await bench();
  const child = spawn(process.execPath, [SVC, '--json', 'serve', '--port', '0'], { env: { PATH: process.env.PATH, ...b.env }, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    const { port } = await waitFor(() => (stdout.includes('\n') ? JSON.parse(stdout.split('\n')[0]!) : undefined), 30_000, 'svc serve to start');
    const id = await diveInFlight(b, port);
    child.kill('SIGTERM');
    assert.is(await exited, 0, 'a clean stop');
    const run = interruption(b, id);
    assert.equal([run.status, run.reason], ['interrupted', 'daemon_restart']);
    assert.match(run.said, /^interrupted \(daemon_restart\): svc was stopped during the run/);
    b.canary.check();
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await b.close();
  }
});

test('svc daemon stop with a run in flight: the daemon records it daemon_restart and removes its lock', async () => {
  const b = await bench();
  try {
    const daemon = await startDaemon(b);
    const id = await diveInFlight(b, daemon.port);
    const stop = await runCli(['--json', 'daemon', 'stop'], { env: b.env });
    assert.is(stop.code, 0, stop.stderr);
    assert.is(JSON.parse(stop.stdout).stopped, true);
    const run = interruption(b, id);
    assert.equal([run.status, run.reason], ['interrupted', 'daemon_restart']);
    assert.is(readLock(b.watcher.paths), null, 'lock removed');
    b.canary.check();
  } finally {
    await b.close();
  }
});

test('a daemon killed with -9 during a run, then a new start: the run is owner_dead (the old daemon recorded nothing), not daemon_restart', async () => {
  const b = await bench();
  try {
    const first = await startDaemon(b);
    const id = await diveInFlight(b, first.port);
    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => !isPidAlive(first.pid), 5000, 'the daemon to be gone');
    assert.is(getExecution(b.watcher.db, id)!.status, 'running', 'nobody settled it');
    const second = await startDaemon(b);
    assert.ok(second.started && second.pid !== first.pid, 'a new daemon started');
    const run = interruption(b, id);
    assert.equal([run.status, run.reason], ['interrupted', 'owner_dead']);
    assert.match(run.said, /the process that owned this run is gone and recorded nothing/);
    b.canary.check();
  } finally {
    await b.close();
  }
});

/** The process state letter of a pid from /proc (Linux), or null when it has no entry. */
function procState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

test('a process killed and not yet reaped (a zombie) is gone to every owner check, a lock without a recorded start time included', async () => {
  if (process.platform !== 'linux') return;
  const helper = spawn('/bin/sh', ['-c', 'sleep 600 & echo $!; exec sleep 600'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    let stdout = '';
    helper.stdout!.on('data', (d) => (stdout += d));
    const pid = Number(await waitFor(() => (stdout.includes('\n') ? stdout.split('\n')[0] : undefined), 5000, 'the helper to name its child'));
    assert.ok(isPidAlive(pid));
    process.kill(pid, 'SIGKILL');
    await waitFor(() => procState(pid) === 'Z', 5000, 'the child to be a zombie');
    assert.not.ok(isPidAlive(pid), 'signal 0 still reaches it, yet it is gone');
    assert.not.ok(lockHolderAlive({ pid, port: 1, version: 'x', started_at: 'y' }));
  } finally {
    helper.kill('SIGKILL');
  }
});

/**
 * The daemon in the foreground under a parent that never waits for its children: a shell that
 * starts it in the background and then becomes `sleep`. Answers the helper and the daemon's pid.
 */
async function daemonUnderNonReapingParent(b: Bench): Promise<{ helper: ChildProcess; pid: number }> {
  const script = '"$0" "$@" >/dev/null 2>&1 & echo $!; exec sleep 600';
  const helper = spawn('/bin/sh', ['-c', script, process.execPath, SVC, 'serve', '--daemon', '--foreground', '--port', '0'], {
    env: { PATH: process.env.PATH, ...b.env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  helper.stdout!.on('data', (d) => (stdout += d));
  const pid = Number(await waitFor(() => (stdout.includes('\n') ? stdout.split('\n')[0] : undefined), 5000, 'the helper to name the daemon'));
  await waitFor(() => readLock(b.watcher.paths)?.port, 15_000, 'the daemon to listen');
  assert.is(readLock(b.watcher.paths)!.pid, pid);
  return { helper, pid };
}

test('a daemon killed with -9 and left a zombie (its parent does not reap it): a start right after takes its lock at once; its run is owner_dead', async () => {
  if (process.platform !== 'linux') return; // zombies are recognised through /proc; elsewhere the signal probe answers as before
  const b = await bench();
  let helper: ChildProcess | undefined;
  try {
    const zombie = await daemonUnderNonReapingParent(b);
    helper = zombie.helper;
    const id = await diveInFlight(b, readLock(b.watcher.paths)!.port!);
    process.kill(zombie.pid, 'SIGKILL');
    await waitFor(() => procState(zombie.pid) === 'Z', 5000, 'the killed daemon to be a zombie');
    const started = Date.now();
    const next = await startDaemon(b);
    assert.ok(next.started, 'a new daemon started instead of waiting on the zombie');
    assert.is.not(next.pid, zombie.pid);
    assert.ok(Date.now() - started < 10_000);
    assert.is(procState(zombie.pid), 'Z', 'still unreaped: the zombie itself was recognised as gone');
    const run = interruption(b, id);
    assert.equal([run.status, run.reason], ['interrupted', 'owner_dead']);
    b.canary.check();
  } finally {
    helper?.kill('SIGKILL');
    await b.close();
  }
});

test.run();
