/**
 * Starting, attaching to and stopping the background daemon. A present lock
 * means wait, never spawn: attach waits about 3 s for its health (three
 * probes of 1.5 s at most, ceiling about 4.5 s). Two starts at once both
 * spawn a child, one child wins the lock, and both starters report that one.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { sleep } from '../util/sleep.js';
import { lockHolderAlive, readLock } from './lock.js';
import { daemonStatus } from './status.js';
import type { DaemonStatus } from '../wire/daemon.js';
import { ensureOwnedDir, openOwnedAppend } from '../util/owned-files.js';

/** The launcher the daemon and the service unit run. */
export const SVC_BIN = fileURLToPath(new URL('../../../bin/svc.js', import.meta.url));

export const ATTACH_ATTEMPTS = 3;
export const ATTACH_CEILING_MS = 4500;

export interface DaemonAnswer {
  started: boolean;
  attached: boolean;
  status: DaemonStatus;
  log_file?: string;
}

/** Wait for the daemon a present lock names; null when there is no lock. Never spawns. */
export async function attachDaemon(ctx: Context): Promise<DaemonStatus | null> {
  const deadline = Date.now() + ATTACH_CEILING_MS;
  let status: DaemonStatus | null = null;
  for (let attempt = 0; attempt < ATTACH_ATTEMPTS; attempt++) {
    status = await daemonStatus(ctx, Math.min(1500, Math.max(100, deadline - Date.now())));
    if (!status.lock_present || status.running) return status.lock_present ? status : null;
    if (status.stale_lock) return status; // its process is gone: nothing to wait for
    if (attempt < ATTACH_ATTEMPTS - 1) await sleep(Math.min(1000, Math.max(0, deadline - Date.now())));
  }
  return status;
}

export interface StartDaemonOptions {
  env: Record<string, string | undefined>;
  port?: number;
  /** How long to wait for the spawned daemon to answer. */
  timeoutMs?: number;
}

export async function startDaemon(ctx: Context, options: StartDaemonOptions): Promise<DaemonAnswer> {
  const existing = readLock(ctx.paths);
  if (existing && (existing.pid === 0 || lockHolderAlive(existing))) {
    const status = await attachDaemon(ctx);
    if (status?.running) return { started: false, attached: true, status };
    throw new SvcError(409, 'daemon_not_answering', `A daemon lock is present (pid ${existing.pid || 'unknown'}) but the daemon does not answer: ${status?.error ?? 'no answer'}. Stop it with \`svc daemon stop\`.`);
  }
  const logFile = path.join(ctx.paths.stateDir, 'daemon.log');
  ensureOwnedDir(ctx.paths.stateDir);
  const log = openOwnedAppend(logFile);
  const logStart = fs.fstatSync(log).size;
  const env = { ...options.env };
  delete env.SVC_API_TOKEN; // the daemon mints its own token
  const args = [SVC_BIN, 'serve', '--daemon', '--foreground', ...(options.port === undefined ? [] : ['--port', String(options.port)])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env: env as NodeJS.ProcessEnv });
  fs.closeSync(log);
  let exitCode: number | null = null;
  child.once('exit', (code) => (exitCode = code ?? -1));
  child.unref();
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const lock = readLock(ctx.paths);
    if (lock && lock.port !== null) {
      const status = await daemonStatus(ctx);
      if (status.running) return { started: lock.pid === child.pid, attached: lock.pid !== child.pid, status, log_file: logFile };
    }
    if (exitCode !== null && !(lock && lockHolderAlive(lock))) {
      const why = lastLogLine(logFile, logStart);
      throw new SvcError(500, 'daemon_failed', `The daemon exited (code ${exitCode}) before answering${why ? `: ${why}` : ''}; see ${logFile}.`);
    }
    if (Date.now() > deadline) throw new SvcError(500, 'daemon_failed', `The daemon did not answer within ${(options.timeoutMs ?? 15_000) / 1000} s; see ${logFile}.`);
    await sleep(100);
  }
}

/** The last line a spawned svc wrote to its log from `from` on (its one-line error), without the "svc: " prefix. */
export function lastLogLine(file: string, from: number): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = Math.min(fs.fstatSync(fd).size - from, 64 * 1024);
      if (size <= 0) return '';
      const buf = Buffer.alloc(size);
      fs.readSync(fd, buf, 0, size, from);
      const line = buf.toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean).at(-1) ?? '';
      return line.replace(/^svc: /, '').replace(/\.$/, '').slice(0, 300);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export async function stopDaemon(ctx: Context, timeoutMs = 10_000): Promise<{ stopped: boolean; pid: number | null; message: string }> {
  const lock = readLock(ctx.paths);
  if (!lock || lock.pid === 0) return { stopped: false, pid: null, message: 'No daemon is running.' };
  if (!lockHolderAlive(lock)) {
    fs.rmSync(ctx.paths.daemonLock, { force: true });
    return { stopped: false, pid: lock.pid, message: `No daemon is running; removed the stale lock of process ${lock.pid}.` };
  }
  process.kill(lock.pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (lockHolderAlive(lock)) {
    if (Date.now() > deadline) throw new SvcError(500, 'daemon_stop_failed', `The daemon (pid ${lock.pid}) did not stop within ${timeoutMs / 1000} s.`);
    await sleep(50);
  }
  return { stopped: true, pid: lock.pid, message: `Stopped the daemon (pid ${lock.pid}).` };
}
