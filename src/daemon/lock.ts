/**
 * The daemon lock: `<state dir>/daemon.lock`, owner-only, created with
 * O_EXCL so that of two daemons starting at once exactly one wins. It holds
 * pid, port (null until the server listens), version and started_at, and,
 * where the system says, who the process is (boot id and start time). A lock
 * whose process is gone is stale and may be taken over: by the rule every
 * claim follows (claims/staleness.ts), so a daemon killed with -9 whose
 * parent has not reaped it yet, or whose pid now runs another process, is
 * gone, and a start right after the kill takes its lock over at once. Taken,
 * moved aside when stale, and released through the claims' file backend
 * (claims/file.ts).
 */
import type { Paths } from '../paths.js';
import { ensureOwnedDir, readOwnedFile, writeOwnerOnlyFile } from '../util/owned-files.js';
import { svcVersion } from '../version.js';
import path from 'node:path';
import type { PidProbe } from '../util/pid.js';
import { identityIn, ownerStands, ownOwner, type Owner } from '../claims/owner.js';
import { releaseFileClaim, takeFileClaim, type FileClaimRule } from '../claims/file.js';
import type { ProcessIdentity } from '../claims/staleness.js';

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
export function lockHolderAlive(lock: DaemonLock, alive?: PidProbe): boolean {
  return lock.pid > 0 && ownerStands({ pid: lock.pid, ...identityIn(lock) }, null, alive);
}

/** A lock being written (or damaged) still means "present": wait, do not spawn. */
const PRESENT: DaemonLock = { pid: 0, port: null, version: '', started_at: '' };

function parseLock(bytes: Buffer): DaemonLock {
  try {
    const lock = JSON.parse(bytes.toString('utf8')) as DaemonLock;
    return lock !== null && typeof lock === 'object' && Number.isInteger(lock.pid) ? lock : { ...PRESENT };
  } catch {
    return { ...PRESENT };
  }
}

export function readLock(paths: Paths): DaemonLock | null {
  let bytes: Buffer | undefined;
  try {
    bytes = readOwnedFile(paths.daemonLock);
  } catch {
    return null;
  }
  return bytes ? parseLock(bytes) : null;
}

/** This process's own lock: its pid, and its identity where both say one. */
const isMine = (lock: DaemonLock, me: Owner) =>
  lock.pid === process.pid && (me.pid_start === undefined || identityIn(lock).pid_start === undefined || (lock.boot_id === me.boot_id && lock.pid_start === me.pid_start));

/** How the daemon lock is judged: one being written or damaged stands (wait, do not spawn); an unreadable one is read again. */
const lockRule = (alive?: PidProbe): FileClaimRule => {
  const me = ownOwner();
  return {
    judge(bytes) {
      const lock = parseLock(bytes);
      if (isMine(lock, me)) return 'mine';
      return lock.pid === 0 || lockHolderAlive(lock, alive) ? 'live' : 'stale';
    },
    unreadable: () => 'retry',
  };
};

/**
 * Take the lock for this process. Answers null when it was taken, else the
 * live lock of the daemon that holds it. A stale lock (its process gone) is
 * moved aside and taken; if another starter took it meanwhile, theirs stands.
 */
export function acquireLock(paths: Paths, startedAt: string, alive?: PidProbe): DaemonLock | null {
  ensureOwnedDir(path.dirname(paths.daemonLock));
  const { pid, ...identity } = ownOwner();
  const mine: DaemonLock = { pid, port: null, version: svcVersion(), started_at: startedAt, ...identity };
  const took = takeFileClaim(paths.daemonLock, JSON.stringify(mine) + '\n', lockRule(alive));
  if (took.taken) return null;
  return took.by === 'contended' ? readLock(paths) : parseLock(took.bytes);
}

/** Record the port once the daemon listens. */
export function recordPort(paths: Paths, port: number): void {
  const lock = readLock(paths);
  if (!lock || !isMine(lock, ownOwner())) return;
  writeOwnerOnlyFile(paths.daemonLock, JSON.stringify({ ...lock, port }) + '\n');
}

/** Remove the lock if this process holds it. */
export function releaseLock(paths: Paths): void {
  releaseFileClaim(paths.daemonLock, lockRule());
}
