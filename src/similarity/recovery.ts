/**
 * Backfills and link scans left "running" by a process that is gone become
 * interrupted; the vectors and links they wrote are kept. Asked when a server
 * starts, before any process starts a run, and on status reads. A run is left
 * alone when this process runs it or when the live holder of its job's claim
 * (claims/jobs.ts) is its owner. Without any claim row for the job (a run
 * of a version before claims) a live owner is enough (claims/rows.ts: the
 * same pid under another runtime id, or now run by another process, is not).
 */
import type { Context } from '../context.js';
import { jobClaimed, jobHolder, type JobName } from '../claims/jobs.js';
import type { PidProbe } from '../util/pid.js';
import { rowOwnerRuns } from '../claims/rows.js';
import { markRunInterrupted, runningOwners, type RunTable } from './repo.js';

const MESSAGE = 'interrupted: the process that ran this went away; what it wrote is kept';

const JOBS: Record<RunTable, JobName> = { embedding_runs: 'embeddings.backfill', link_scans: 'links.scan' };

/** Answers the ids marked, per kind of run. */
export function interruptOrphanedRuns(ctx: Context, alive?: PidProbe): Record<RunTable, number[]> {
  const marked: Record<RunTable, number[]> = { embedding_runs: [], link_scans: [] };
  for (const table of Object.keys(marked) as RunTable[]) {
    const rows = runningOwners(ctx.db, table);
    if (rows.length === 0) continue;
    const holder = jobHolder(ctx, JOBS[table], alive);
    const claimed = holder !== null || jobClaimed(ctx, JOBS[table]);
    for (const row of rows) {
      if (row.owner_runtime_id === ctx.runtimeId) continue;
      if (holder && row.owner_runtime_id === holder.runtime_id) continue;
      const legacyOwnerAlive = !claimed && rowOwnerRuns(row, alive);
      if (legacyOwnerAlive) continue;
      if (markRunInterrupted(ctx.db, table, row.id, MESSAGE, ctx.nowIso())) marked[table].push(row.id);
    }
  }
  return marked;
}
