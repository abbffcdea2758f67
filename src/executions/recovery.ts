/**
 * At start-up, an execution left running by a process that is gone becomes
 * interrupted — never failed, and never with a guessed reason: owner_dead when
 * the owner process is known to be gone, daemon_restart when the daemon
 * restarted it, unknown when svc cannot tell (no owner recorded, or the pid is
 * alive again but has stopped reporting).
 */
import type { Context } from '../context.js';
import { appendEvent } from './events.js';
import { markInterrupted, runningExecutions, type ExecutionRow, type InterruptedReason } from './repo.js';
import { isPidAlive, type PidProbe } from '../util/pid.js';

function reasonFor(ctx: Context, row: ExecutionRow, role: string, alive: PidProbe): InterruptedReason | null {
  const fresh = row.last_seen_at_utc !== null && Date.parse(row.last_seen_at_utc) >= ctx.clock.now().getTime() - ctx.tuning.executionStaleMs;
  if (row.owner_pid === null || row.owner_runtime_id === null) return 'unknown';
  // The same pid with another runtime id is a new process: the recorded owner is gone.
  const ownerAlive = row.owner_pid !== process.pid && alive(row.owner_pid);
  if (ownerAlive && fresh) return null; // still running in another process
  if (role === 'daemon' && row.owner_role === 'daemon') return 'daemon_restart';
  return ownerAlive ? 'unknown' : 'owner_dead';
}

/**
 * Whether a row marked running is really going: this process runs it, or its owner is alive and
 * reported recently. A row left by a process killed outright is not (the next start marks it interrupted).
 */
export function isLiveRun(ctx: Context, row: ExecutionRow, alive: PidProbe = isPidAlive): boolean {
  if (row.owner_runtime_id !== null && row.owner_runtime_id === ctx.runtimeId) return true;
  return reasonFor(ctx, row, '', alive) === null;
}

/** Mark every orphaned running execution interrupted; answers the ids marked. */
export function recoverInterrupted(ctx: Context, role: string, alive: PidProbe = isPidAlive): number[] {
  const marked: number[] = [];
  for (const row of runningExecutions(ctx.db)) {
    if (row.owner_runtime_id === ctx.runtimeId) continue;
    const reason = reasonFor(ctx, row, role, alive);
    if (!reason) continue;
    // Another process starting at the same time (the server and the daemon) may have settled it first.
    if (!markInterrupted(ctx.db, row.id, reason, ctx.nowIso())) continue;
    appendEvent(ctx, row.id, 'execution_interrupted', `interrupted (${reason}): the process that owned this run went away; what it found is kept`, {
      level: 'warn',
      data: { status: 'interrupted', interrupted_reason: reason, result_count: row.result_count },
    });
    marked.push(row.id);
  }
  return marked;
}
