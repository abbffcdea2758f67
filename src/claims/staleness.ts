/**
 * When a claim written by a process still stands. Where the system says who a
 * process is (Linux: the boot's id and the process's start time, in clock
 * ticks since boot, from /proc), a claim records both and stands while that
 * same boot runs that same process: a pid reused by another process, a
 * process killed but not yet reaped (a zombie), or a claim from before a
 * reboot, is stale whatever the wall clock says, and a
 * wall-clock jump (a sync after a boot without a real-time clock, a manual
 * change) never makes a live claim look stale.
 *
 * Elsewhere, and for claims written without them (rows and leases of an older
 * svc), the rule is the pid's (util/pid.ts) and the wall clock's: its pid runs, and it
 * was written after this machine booted (before a reboot every process of
 * that time is gone, and its pid may belong to another process now). That
 * rule cannot see a pid reused within one boot, and a forward jump of the
 * clock by more than the claim's distance from boot makes it look stale.
 * Age alone never makes a claim stale: after the machine slept every claim
 * is old and its holder alive. A claim that does not say when it was written
 * (an owner column or a lock file of an older svc) is judged by its pid alone,
 * as it always was. Every owner check of svc asks here: through the row
 * backend (claims/rows.ts: the owner columns of runs and deliveries; the job
 * claims of claims/jobs.ts) or the file backend (claims/file.ts: the daemon
 * lock, the scheduler lease, the restore's staging lock), or, for what names
 * its owner in a file's name or body, through claims/owner.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPidAlive, PROC, procStat, type PidProbe } from '../util/pid.js';

/** Wall-clock time, not a context's clock: it is compared with the machine's boot time. */
export const wallNow = (): number => Date.now();
export const bootMs = (): number => wallNow() - os.uptime() * 1000;

/** Who a process is across pid reuse and reboots. */
export interface ProcessIdentity {
  boot_id: string;
  /** /proc/<pid>/stat field 22: clock ticks from boot to the process's start. */
  pid_start: number;
}

/**
 * What a claim carries: the pid, when it was written where the claim says
 * (absent: judged by the pid alone), and the identity, null or absent where
 * the writer could not read it. A start time without a boot id (a file name
 * has room for one number) stands for the same process while the claim was
 * written after this boot.
 */
export interface ClaimRow {
  pid: number;
  claimed_at_ms?: number | null;
  boot_id?: string | null;
  pid_start?: number | null;
}

export type Staleness = 'process_gone' | 'before_boot';

const bootIds = new Map<string, string | null>();

/** This boot's id (fixed for the process's life, read once), or null without /proc. */
function bootId(proc: string): string | null {
  if (!bootIds.has(proc)) {
    let id: string | null = null;
    try {
      id = fs.readFileSync(path.join(proc, 'sys/kernel/random/boot_id'), 'utf8').trim() || null;
    } catch {
      // not Linux, or /proc not mounted: the wall-clock rule applies
    }
    bootIds.set(proc, id);
  }
  return bootIds.get(proc)!;
}

/** A process's identity, or null where the system does not say. */
export function processIdentity(pid: number, proc = PROC): ProcessIdentity | null {
  const boot = bootId(proc);
  const stat = boot ? procStat(pid, proc) : null;
  return boot && stat ? { boot_id: boot, pid_start: stat.start } : null;
}

let own: ProcessIdentity | null | undefined;
/** This process's identity, for the claims it writes (read once). */
export function ownIdentity(): ProcessIdentity | null {
  if (own === undefined) own = processIdentity(process.pid);
  return own;
}

/** Why a claim no longer stands, or null when it does. */
export function claimStaleness(row: ClaimRow, alive: PidProbe = isPidAlive, proc = PROC): Staleness | null {
  const boot = row.pid_start != null ? bootId(proc) : null;
  if (boot && row.boot_id) {
    if (row.boot_id !== boot) return 'before_boot';
    return sameProcess(row.pid, row.pid_start!, alive, proc) ? null : 'process_gone';
  }
  if (row.claimed_at_ms != null && row.claimed_at_ms < bootMs()) return 'before_boot';
  if (boot) return sameProcess(row.pid, row.pid_start!, alive, proc) ? null : 'process_gone';
  return alive(row.pid) ? null : 'process_gone';
}

/** The pid still runs the process that started at `start` (a zombie has stopped). */
function sameProcess(pid: number, start: number, alive: PidProbe, proc: string): boolean {
  const stat = procStat(pid, proc);
  // No entry: gone, unless /proc hides other users' processes, which the signal probe still sees.
  if (!stat) return alive(pid);
  return stat.start === start && !stat.zombie;
}

export function claimLive(row: ClaimRow, alive: PidProbe = isPidAlive, proc = PROC): boolean {
  return claimStaleness(row, alive, proc) === null;
}
