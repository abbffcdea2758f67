/**
 * The row backend of claims: the owner columns of the rows a process owns
 * while it works on them — a running execution, a delivery being sent, a
 * running embedding run or link scan. A claim writes owner_runtime_id,
 * owner_pid and, where the system says, owner_boot_id and owner_pid_start
 * (the same process identity as every claim: claims/staleness.ts); the
 * repository of each room writes them with its own claim (an insert, or a
 * conditional update that only one process wins) and clears them with its
 * release. Recovery asks here whether the owner still runs. Rows written
 * before the identity was recorded are judged by their pid alone, as they
 * always were. The long jobs' claims (claims/jobs.ts) are rows too, with
 * their own table.
 */
import type { PidProbe } from '../util/pid.js';
import { identityIn, ownerStands, ownOwner } from './owner.js';

/** The owner columns a claim writes for this process. */
export interface OwnerColumns {
  owner_pid: number;
  owner_boot_id: string | null;
  owner_pid_start: number | null;
}

export function ownerColumns(): OwnerColumns {
  const me = ownOwner();
  return { owner_pid: me.pid, owner_boot_id: me.boot_id ?? null, owner_pid_start: me.pid_start ?? null };
}

/** A row's owner columns as read; the identity columns are absent in a select that does not name them. */
export interface OwnedRow {
  owner_runtime_id: string | null;
  owner_pid: number | null;
  owner_boot_id?: string | null;
  owner_pid_start?: number | null;
}

/**
 * Whether the process a row names as its owner still runs. Asked of rows of
 * another runtime than the asking process's (its own rows it knows): the same
 * pid under another runtime id is a process before this one that had this
 * pid, so that owner is gone.
 */
export function rowOwnerRuns(row: OwnedRow, alive?: PidProbe): boolean {
  if (row.owner_pid === null || row.owner_pid === process.pid) return false;
  return ownerStands({ pid: row.owner_pid, ...identityIn({ boot_id: row.owner_boot_id, pid_start: row.owner_pid_start }) }, null, alive);
}

/** A row as answers show it: which process owns it stays inside (answers name a running job's process through its claim). */
export function withoutOwnerProcess<T extends Partial<OwnedRow>>(row: T): Omit<T, 'owner_pid' | 'owner_boot_id' | 'owner_pid_start'> {
  const { owner_pid: _pid, owner_boot_id: _boot, owner_pid_start: _start, ...shown } = row;
  return shown;
}
