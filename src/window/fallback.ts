/**
 * The fallback backend: `svc serve --fallback` started by the window when no
 * daemon runs. It gets SVC_DISABLE_SCHEDULER=1 (a fallback never owns a
 * scheduler) and the token the shell minted, through its environment only;
 * it says where it listens in one JSON line on stdout. It runs in its own
 * process group, so a Ctrl-C in the shell's terminal reaches the shell alone,
 * which then lets it go (closes its stdin): it stops as soon as nothing runs
 * in it (server/fallback-idle.ts). Its log goes to <state dir>/fallback.log.
 */
import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { lastLogLine, SVC_BIN } from '../daemon/control.js';
import { ensureOwnedDir, openOwnedAppend } from '../util/owned-files.js';
import type { Backend } from './backend.js';

export const FALLBACK_START_TIMEOUT_MS = 15_000;

export interface FallbackExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** It stopped by its own idle rule (it said so on stdout). */
  idle: boolean;
}

export interface FallbackChild {
  backend: Backend;
  pid: number;
  logFile: string;
  /** Settles when the process has exited. */
  exited: Promise<FallbackExit>;
  /** Whether the process still runs. */
  running(): boolean;
  /** Let it go: it stops as soon as nothing runs in it. */
  release(): void;
  /** Stop it now (SIGTERM: its runs in flight are recorded interrupted) and wait for its exit. */
  terminate(): Promise<FallbackExit>;
}

export interface SpawnFallbackOptions {
  env: Record<string, string | undefined>;
  rendererOrigin: string;
  /** 0 for a free port; the previous port on a restart. */
  port: number;
  spawn?: typeof nodeSpawn;
  timeoutMs?: number;
}

export async function spawnFallback(ctx: Context, o: SpawnFallbackOptions): Promise<FallbackChild> {
  const token = ctx.random.bytes(32).toString('base64url');
  const logFile = path.join(ctx.paths.stateDir, 'fallback.log');
  ensureOwnedDir(ctx.paths.stateDir);
  const log = openOwnedAppend(logFile);
  const logStart = fs.fstatSync(log).size;
  // The token goes down in the environment, never argv (spec 1: token custody).
  const env = { ...o.env, SVC_DISABLE_SCHEDULER: '1', SVC_API_TOKEN: token };
  const args = [SVC_BIN, '--json', 'serve', '--fallback', '--port', String(o.port), '--renderer-origin', o.rendererOrigin];
  let child: ChildProcess;
  try {
    child = (o.spawn ?? nodeSpawn)(process.execPath, args, { detached: true, windowsHide: true, stdio: ['pipe', 'pipe', log], env: env as NodeJS.ProcessEnv });
  } finally {
    fs.closeSync(log);
  }
  let idle = false;
  child.stdin!.on('error', () => undefined); // it may have gone already when we let it go
  const lines = readline.createInterface({ input: child.stdout! });
  // Its last line may arrive after its exit: settled once both are in (or soon after the exit).
  const exited = new Promise<FallbackExit>((resolve) => {
    let exit: Omit<FallbackExit, 'idle'> | undefined;
    let linesDone = false;
    const settle = () => exit && linesDone && resolve({ ...exit, idle });
    lines.once('close', () => ((linesDone = true), settle()));
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      settle();
      setTimeout(() => ((linesDone = true), settle()), 2000).unref();
    });
  });
  const listening = new Promise<{ port: number; runtime_id: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SvcError(500, 'fallback_failed', `The window's backend did not start within ${(o.timeoutMs ?? FALLBACK_START_TIMEOUT_MS) / 1000} s; see ${logFile}.`)), o.timeoutMs ?? FALLBACK_START_TIMEOUT_MS);
    lines.on('line', (line) => {
      const said = parseLine(line);
      if (said?.stopped === 'idle') idle = true;
      if (typeof said?.port === 'number' && typeof said.runtime_id === 'string') {
        clearTimeout(timer);
        resolve({ port: said.port, runtime_id: said.runtime_id });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      const why = lastLogLine(logFile, logStart);
      reject(new SvcError(500, 'fallback_failed', `The window's backend exited (${signal ?? `code ${code}`}) before it listened${why ? `: ${why}` : ''}; see ${logFile}.`));
    });
  });
  let started: { port: number; runtime_id: string };
  try {
    started = await listening;
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const running = () => child.exitCode === null && child.signalCode === null;
  const terminate = async () => {
    if (running()) child.kill('SIGTERM');
    return exited;
  };
  return {
    backend: { role: 'fallback', port: started.port, baseUrl: `http://127.0.0.1:${started.port}`, token, runtimeId: started.runtime_id },
    pid: child.pid!,
    logFile,
    exited,
    running,
    release: () => void child.stdin!.end(),
    terminate,
  };
}

function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
