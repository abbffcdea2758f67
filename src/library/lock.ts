/**
 * The import lock: a file created exclusively in the vault folder for the
 * length of one import, so two processes never import into one vault at once.
 * A lock that outlives its process (a crash, a kill) blocks imports until a
 * person removes it: svc cannot tell a slow import from a dead one for sure.
 */
import fs from 'node:fs';
import { closeQuietly, codeOf, createFileAt, ioError, lstatAt, openFileAt, readBounded, unlinkAt, writeAll } from './fs-safe.js';
import { blockedLock } from './reasons.js';
import { lockHolderRunning } from './scan.js';
import { ownOwner } from '../claims/owner.js';
import { LOCK_NAME, type OpenVault } from './vault.js';

export interface HeldLock {
  release(): void;
}

function holderOf(ov: OpenVault): boolean | null {
  let fd: number | undefined;
  try {
    fd = openFileAt(ov.rootFd, LOCK_NAME, LOCK_NAME).fd;
    const content = JSON.parse(readBounded(fd, 4096).toString('utf8')) as { pid?: unknown } | null;
    return content === null || typeof content !== 'object' ? null : lockHolderRunning(content);
  } catch {
    return null;
  } finally {
    closeQuietly(fd);
  }
}

export function takeLock(ov: OpenVault, owner: { runtimeId: string; now: string }): HeldLock {
  let fd: number;
  try {
    fd = createFileAt(ov.rootFd, LOCK_NAME, 0o600);
  } catch (err) {
    if (codeOf(err) === 'EEXIST') throw blockedLock(holderOf(ov));
    throw ioError(err, 'Creating the import lock');
  }
  try {
    // Not synced: a kill leaves the lock anyway, and after a power loss the
    // orphan scan still finds whatever the interrupted import published.
    const { pid, ...identity } = ownOwner();
    writeAll(fd, Buffer.from(JSON.stringify({ pid, runtime_id: owner.runtimeId, started_at_utc: owner.now, ...identity }) + '\n'));
  } catch (err) {
    closeQuietly(fd);
    unlinkAt(ov.rootFd, LOCK_NAME);
    throw ioError(err, 'Writing the import lock');
  }
  const mine = fs.fstatSync(fd);
  closeQuietly(fd);
  return {
    release() {
      // Remove the lock only if it is still the one this import created.
      const current = lstatAt(ov.rootFd, LOCK_NAME);
      if (current && current.ino === mine.ino && current.dev === mine.dev) unlinkAt(ov.rootFd, LOCK_NAME);
    },
  };
}
