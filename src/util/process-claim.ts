/**
 * When a claim written by a process (its pid and the wall-clock time it was
 * taken) still stands: its pid runs, and it was written after this machine
 * booted (before a reboot every process of that time is gone, and its pid
 * may belong to another process now). Age alone never makes a claim stale:
 * after the machine slept every claim is old and its holder alive. Shared by
 * the claims of long jobs and of assistant turns (db/job-claims.ts) and the
 * scheduler lease (scheduler/lease.ts).
 */
import os from 'node:os';
import { isPidAlive, type PidProbe } from './pid.js';

/** Wall-clock time, not a context's clock: it is compared with the machine's boot time. */
export const wallNow = (): number => Date.now();
export const bootMs = (): number => wallNow() - os.uptime() * 1000;

export function claimLive(row: { pid: number; claimed_at_ms: number }, alive: PidProbe = isPidAlive): boolean {
  return alive(row.pid) && row.claimed_at_ms >= bootMs();
}
