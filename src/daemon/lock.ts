/**
 * The daemon lock: `<state dir>/daemon.lock`, owner-only, created with
 * O_EXCL so that of two daemons starting at once exactly one wins. It holds
 * pid, port (null until the server listens), version and started_at, and,
 * where the system says, who the process is (boot id and start time). A lock
 * whose process is gone is stale and may be taken over: by the rule every
 * claim follows (claims/staleness.ts), so a daemon killed with -9 whose
 * parent has not reaped it yet, or whose pid now runs another process, is
 * gone, and a start right after the kill takes its lock over at once.
 */
import fs from 'node:fs';
import type { Paths } from '../paths.js';
import { createOwnedFileExclusive, ensureOwnedDir, readOwnedFile, writeOwnerOnlyFile } from '../util/owned-files.js';
import { svcVersion } from '../version.js';
import path from 'node:path';
import { isPidAlive, type PidProbe } from '../util/pid.js';
import { claimLive, ownIdentity, wallNow, type ProcessIdentity } from '../claims/staleness.js';

export interface DaemonLock extends Partial<ProcessIdentity> {
  pid: number;
  port: number | null;
  version: string;
  started_at: string;
}

/**
 * Whether the process a lock names still runs. A lock without a process
 * identity (an older svc, no /proc) is judged by its pid alone, as before:
 * its started_at is not compared with the boot time.
 */
export function lockHolderAlive(lock: DaemonLock, alive: PidProbe = isPidAlive): boolean {
  if (lock.pid <= 0) return false;
  const identity = typeof lock.boot_id === 'string' && Number.isSafeInteger(lock.pid_start) ? { boot_id: lock.boot_id, pid_start: lock.pid_start } : {};
  return claimLive({ pid: lock.pid, claimed_at_ms: wallNow(), ...identity }, alive);
}


export function readLock(paths: Paths): DaemonLock | null {
  let bytes: Buffer | undefined;
  try {
    bytes = readOwnedFile(paths.daemonLock);
  } catch {
    return null;
  }
  if (!bytes) return null;
  try {
    const lock = JSON.parse(bytes.toString('utf8')) as DaemonLock;
    return Number.isInteger(lock.pid) ? lock : { pid: 0, port: null, version: '', started_at: '' };
  } catch {
    // A lock being written (or damaged) still means "present": wait, do not spawn.
    return { pid: 0, port: null, version: '', started_at: '' };
  }
}


/**
 * Take the lock for this process. Answers null when it was taken, else the
 * live lock of the daemon that holds it. A stale lock (its process gone) is
 * moved aside and taken; if another starter took it meanwhile, theirs stands.
 */
export function acquireLock(paths: Paths, startedAt: string, alive: PidProbe = isPidAlive): DaemonLock | null {
  ensureOwnedDir(path.dirname(paths.daemonLock));
  const mine: DaemonLock = { pid: process.pid, port: null, version: svcVersion(), started_at: startedAt, ...(ownIdentity() ?? {}) };
  const text = JSON.stringify(mine) + '\n';
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createOwnedFileExclusive(paths.daemonLock, text)) return null;
    const held = readLock(paths);
    if (!held) continue; // removed meanwhile: try again
    if (held.pid === 0 || lockHolderAlive(held, alive)) return held;
    const aside = `${paths.daemonLock}.stale-${process.pid}`;
    try {
      fs.renameSync(paths.daemonLock, aside);
    } catch {
      continue;
    }
    // Between reading and moving, another starter may have replaced the stale lock with a live one: put it back.
    const moved = readOwnedFile(aside);
    const movedLock = moved ? (JSON.parse(moved.toString('utf8')) as DaemonLock) : null;
    if (movedLock && movedLock.pid !== held.pid && lockHolderAlive(movedLock, alive)) {
      try {
        fs.linkSync(aside, paths.daemonLock);
      } catch {
        // someone else holds it now
      }
      fs.rmSync(aside, { force: true });
      return readLock(paths) ?? movedLock;
    }
    fs.rmSync(aside, { force: true });
  }
  return readLock(paths);
}

/** Record the port once the daemon listens. */
export function recordPort(paths: Paths, port: number): void {
  const lock = readLock(paths);
  if (!lock || lock.pid !== process.pid) return;
  writeOwnerOnlyFile(paths.daemonLock, JSON.stringify({ ...lock, port }) + '\n');
}

/** Remove the lock if this process holds it. */
export function releaseLock(paths: Paths): void {
  const lock = readLock(paths);
  if (lock && lock.pid === process.pid) fs.rmSync(paths.daemonLock, { force: true });
}
