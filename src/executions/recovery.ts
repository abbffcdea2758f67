/**
 * At start-up, an execution left running by a process that is gone becomes
 * interrupted — never failed, and never with a guessed reason. A process that
 * stops on purpose (SIGTERM or SIGINT to a server or the daemon, `svc daemon
 * stop`, a window restarting its backend) records daemon_restart on its own
 * runs as it goes (manager.ts, close); what is left here recorded nothing:
 * owner_dead when its owner is known to be gone (killed with -9, a power cut,
 * a crash; a zombie, or a pid now run by another process where the row
 * records who its owner was, counts as gone: claims/rows.ts), unknown where
 * svc cannot tell — a row naming no owner (written before owners were
 * recorded), or an owner pid that still runs but stopped reporting (a hung
 * owner, or, for a row written before owners' start times were recorded, the
 * pid now belongs to another process: the row does not say which).
 */
import type { Context } from '../context.js';
import { appendEvent } from './events.js';
import { INTERRUPTED_REASON_MEANING } from './interrupted-reasons.js';
import { markInterrupted, runningExecutions, type ExecutionRow, type InterruptedReason } from './repo.js';
import type { PidProbe } from '../util/pid.js';
import { rowOwnerRuns } from '../claims/rows.js';

function reasonFor(ctx: Context, row: ExecutionRow, alive?: PidProbe): InterruptedReason | null {
  const fresh = row.last_seen_at_utc !== null && Date.parse(row.last_seen_at_utc) >= ctx.clock.now().getTime() - ctx.tuning.executionStaleMs;
  if (row.owner_pid === null || row.owner_runtime_id === null) return 'unknown';
  const ownerAlive = rowOwnerRuns(row, alive);
  if (ownerAlive && fresh) return null; // still running in another process
  return ownerAlive ? 'unknown' : 'owner_dead';
}

/**
 * Whether a row marked running is really going: this process runs it, or its owner is alive and
 * reported recently. A row left by a process killed outright is not (the next start marks it interrupted).
 */
export function isLiveRun(ctx: Context, row: ExecutionRow, alive?: PidProbe): boolean {
  if (row.owner_runtime_id !== null && row.owner_runtime_id === ctx.runtimeId) return true;
  return reasonFor(ctx, row, alive) === null;
}

/** Mark every orphaned running execution interrupted; answers the ids marked. */
export function recoverInterrupted(ctx: Context, alive?: PidProbe): number[] {
  const marked: number[] = [];
  for (const row of runningExecutions(ctx.db)) {
    if (row.owner_runtime_id === ctx.runtimeId) continue;
    const reason = reasonFor(ctx, row, alive);
    if (!reason) continue;
    // Another process starting at the same time (the server and the daemon) may have settled it first.
    if (!markInterrupted(ctx.db, row.id, reason, ctx.nowIso())) continue;
    appendEvent(ctx, row.id, 'execution_interrupted', `interrupted (${reason}): ${INTERRUPTED_REASON_MEANING[reason]}; what it found is kept`, {
      level: 'warn',
      data: { status: 'interrupted', interrupted_reason: reason, result_count: row.result_count },
    });
    marked.push(row.id);
  }
  return marked;
}
