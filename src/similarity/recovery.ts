/**
 * Backfills and link scans left "running" by a process that is gone become
 * interrupted; the vectors and links they wrote are kept. Asked when a server
 * starts and before any process starts a run. A run whose owner is another
 * live svc process (a CLI backfill while a server starts) is left alone; the
 * same pid under another runtime id is a new process, so that owner is gone.
 */
import type { Context } from '../context.js';
import { isPidAlive, type PidProbe } from '../util/pid.js';
import { markRunInterrupted, runningOwners, type RunTable } from './repo.js';

const MESSAGE = 'interrupted: the process that ran this went away; what it wrote is kept';

/** Answers the ids marked, per kind of run. */
export function interruptOrphanedRuns(ctx: Context, alive: PidProbe = isPidAlive): Record<RunTable, number[]> {
  const marked: Record<RunTable, number[]> = { embedding_runs: [], link_scans: [] };
  for (const table of Object.keys(marked) as RunTable[]) {
    for (const row of runningOwners(ctx.db, table)) {
      if (row.owner_runtime_id === ctx.runtimeId) continue;
      const ownerAlive = row.owner_pid !== null && row.owner_pid !== process.pid && alive(row.owner_pid);
      if (ownerAlive) continue;
      if (markRunInterrupted(ctx.db, table, row.id, MESSAGE, ctx.nowIso())) marked[table].push(row.id);
    }
  }
  return marked;
}

/** A run row as answers show it: the owner's pid stays inside. */
export function withoutPid<T extends { owner_pid?: number | null }>(row: T): Omit<T, 'owner_pid'> {
  const { owner_pid: _pid, ...shown } = row;
  return shown;
}
