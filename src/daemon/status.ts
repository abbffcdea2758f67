/**
 * GET /api/service/daemon-status: the lock is the ground truth; the lock's
 * port is probed on its health route with a 1.5 s timeout. `is_self` says
 * whether the process that answered the probe is the one answering this read.
 */
import type { Context } from '../context.js';
import { readPublishedToken } from '../runtime/token.js';
import { lockHolderAlive, readLock } from './lock.js';
import type { DaemonStatus, LeaseHolder } from '../wire/daemon.js';

export const DAEMON_PROBE_TIMEOUT_MS = 1500;

export async function daemonStatus(ctx: Context, timeoutMs = DAEMON_PROBE_TIMEOUT_MS): Promise<DaemonStatus> {
  const lock = readLock(ctx.paths);
  const base: DaemonStatus = {
    lock_present: lock !== null,
    running: false,
    pid: null,
    port: null,
    version: null,
    started_at: null,
    lock_pid: lock && lock.pid > 0 ? lock.pid : null,
    lock_port: lock?.port ?? null,
    lock_version: lock?.version || null,
    error: null,
    stale_lock: false,
    is_self: false,
    scheduler: null,
  };
  if (!lock) return base;
  if (lock.pid > 0 && !lockHolderAlive(lock)) return { ...base, stale_lock: true, error: `the lock names process ${lock.pid}, which is gone (a stale lock)` };
  if (lock.port === null) return { ...base, error: 'the daemon is starting (no port in the lock yet)' };
  const token = readPublishedToken(ctx.paths, lock.port);
  if (!token) return { ...base, error: `the daemon published no token file for port ${lock.port}` };
  try {
    const res = await ctx.fetch(`http://127.0.0.1:${lock.port}/api/health`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return { ...base, error: `the health route answered ${res.status}` };
    const health = (await res.json()) as { version: string; started_at_utc: string; identity: { runtime_id: string }; scheduler?: { state: string; held_by?: LeaseHolder | null } };
    const scheduler = health.scheduler ? { state: health.scheduler.state, held_by: health.scheduler.held_by ?? null } : null;
    return { ...base, running: true, pid: lock.pid, port: lock.port, version: health.version, started_at: health.started_at_utc, is_self: health.identity.runtime_id === ctx.runtimeId, scheduler };
  } catch (err) {
    const name = (err as Error).name;
    return { ...base, error: name === 'TimeoutError' || name === 'AbortError' ? `no answer from port ${lock.port} within ${timeoutMs / 1000} s` : `nothing answers on port ${lock.port}` };
  }
}
