/**
 * The owner a claim names, as it is written into a file (a lock's JSON, the
 * port file) or a file's name (a backup's snapshot, a restore's vault
 * staging folder), and the one question asked of it: does that owner still
 * stand (claims/staleness.ts). What a writer could not record (an older svc,
 * no /proc) is absent, and the claim is judged by what it has: its pid, and
 * its time where it says.
 */
import { isPidAlive, type PidProbe } from '../util/pid.js';
import { claimLive, ownIdentity, type ClaimRow, type ProcessIdentity } from './staleness.js';

/** A claim's owner: the pid and, where the system said, who that process is. */
export interface Owner extends Partial<ProcessIdentity> {
  pid: number;
}

/** This process as the owner of a claim it writes. */
export function ownOwner(): Owner {
  return { pid: process.pid, ...(ownIdentity() ?? {}) };
}

/** This process's start time for a name that holds one number beside the pid ('' where the system does not say). */
export function ownStartTag(): string {
  const start = ownIdentity()?.pid_start;
  return start === undefined ? '' : String(start);
}

/** The identity fields of a parsed file, kept only when both are well-formed (a damaged one says nothing). */
export function identityIn(value: { boot_id?: unknown; pid_start?: unknown }): Partial<ProcessIdentity> {
  const { boot_id, pid_start } = value;
  return typeof boot_id === 'string' && boot_id !== '' && typeof pid_start === 'number' && Number.isSafeInteger(pid_start) && pid_start >= 0 ? { boot_id, pid_start } : {};
}

/**
 * Whether the owner a claim names still stands. `claimedAtMs`: when the claim
 * was written, where it says (a name's time, a lease's last write); without
 * it and without an identity, the pid alone decides, as for every claim of an
 * older svc.
 */
export function ownerStands(owner: Owner, claimedAtMs?: number | null, alive: PidProbe = isPidAlive): boolean {
  if (!Number.isSafeInteger(owner.pid) || owner.pid <= 0) return false;
  const row: ClaimRow = { pid: owner.pid, claimed_at_ms: claimedAtMs ?? null, boot_id: owner.boot_id ?? null, pid_start: owner.pid_start ?? null };
  return claimLive(row, alive);
}
