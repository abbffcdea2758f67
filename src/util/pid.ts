/**
 * Whether the process behind a pid still runs: the one question every owner
 * check asks (daemon lock, executions, deliveries, claims, leases). A process
 * killed outright but not yet reaped by its parent (a zombie) still answers
 * signal 0, yet it is gone for good and will record nothing more: on Linux
 * its /proc state says so. Without /proc (other systems), or where /proc
 * hides the pid from this user, signal 0's answer stands.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Whether a process id belongs to a running process (ours or another user's). */
export type PidProbe = (pid: number) => boolean;

export const PROC = '/proc';

/** What /proc says of a pid: its start time (field 22, clock ticks from boot) and whether it is a zombie. */
export interface ProcStat {
  start: number;
  zombie: boolean;
}

/** The pid's /proc/<pid>/stat, or null when it has no entry (gone, hidden from this user, or no /proc). */
export function procStat(pid: number, proc = PROC): ProcStat | null {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  let text: string;
  try {
    text = fs.readFileSync(path.join(proc, String(pid), 'stat'), 'utf8');
  } catch {
    return null;
  }
  // Field 2 (the command) is in parentheses and may hold spaces or parentheses: count from the last ')'.
  // A file not in that shape says nothing (never a start time of 0 read from an empty field).
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const rest = text.slice(close + 2).split(' ');
  const field = rest[19] ?? '';
  const start = /^\d{1,18}$/.test(field) ? Number(field) : NaN;
  const state = rest[0] ?? '';
  return Number.isSafeInteger(start) && /^[A-Za-z]$/.test(state) ? { start, zombie: state === 'Z' } : null;
}

/** Signal 0 probes without signalling; EPERM means it runs under another user. */
export const isPidAlive: PidProbe = (pid) => {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return procStat(pid)?.zombie !== true;
};
