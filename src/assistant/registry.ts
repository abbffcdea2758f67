/**
 * The per-session bus: at most one running turn per conversation, in this
 * process and across the processes on one data directory (`svc chat N` and
 * the desktop through the server). A claim is held from admission until the
 * worker finishes, even if the reader went away; cancelling asks the worker
 * to stop and is idempotent, whichever process runs the turn.
 *
 * Across processes the claim is the job `assistant_turn:N` of job_claims
 * (claims/jobs.ts), taken in a write transaction, naming the owner's pid
 * and runtime id (and, on Linux, its boot and start time). A row is stale —
 * and taken over — when its process no longer runs, or when it was written
 * before the machine booted (the pid may belong to another process now;
 * claims/staleness.ts); a process that died mid-turn never locks its
 * conversation for good.
 *
 * A cancel asked of a turn another live process holds stamps that process's
 * claim; while this process runs a turn it looks at its claims every
 * `assistantCancelPollMs` and stops a stamped turn as a local cancel does
 * (same saved reply, same frames). A cancel of a stale claim says so: no
 * process is left to stop, and the next send takes the claim over.
 */
import type { Context } from '../context.js';
import { askJobCancel, cancelRequestedJobs, claimJob, jobHolder, releaseJob, releaseOnClose, TURN_PREFIX, type JobName } from '../claims/jobs.js';
import type { CancelOutcome } from '../wire/assistant.js';

export interface ActiveTurn {
  sessionId: number;
  controller: AbortController;
  cancelRequested: boolean;
  cliPid: number | null;
}


/** What a cancel did: `owner` says which process was asked; `stale` describes a claim left by a process that no longer runs. */
export interface CancelResult {
  outcome: CancelOutcome;
  owner: 'this_process' | 'other_process' | null;
  stale: { pid: number; claimedAtMs: number; reason: 'process_gone' | 'before_boot' } | null;
}

export interface TurnRegistry {
  /** Claim the session's bus, or undefined when a turn holds it. */
  claim(sessionId: number): ActiveTurn | undefined;
  release(turn: ActiveTurn): void;
  observe(sessionId: number): { claimed: boolean; cliPid: number | null };
  cancel(sessionId: number): CancelResult;
  /** Resolves when no turn is running (shutdown, tests). */
  idle(): Promise<void>;
}

/** The claim's job name for a conversation. */
export const turnJob = (sessionId: number): JobName => `${TURN_PREFIX}${sessionId}`;

/** Stamp another live process's claim with a cancel request (this process runs no turn of the conversation). */
function cancelElsewhere(ctx: Context, sessionId: number): CancelResult {
  const { holder, already, stale } = askJobCancel(ctx, turnJob(sessionId));
  if (stale) return { outcome: 'no_active_turn', owner: null, stale: { pid: stale.pid, claimedAtMs: stale.claimed_at_ms, reason: stale.reason } };
  if (!holder) return { outcome: 'no_active_turn', owner: null, stale: null };
  return { outcome: already ? 'already_cancelling' : 'cancel_requested', owner: 'other_process', stale: null };
}

export function turnRegistry(ctx: Context): TurnRegistry {
  return ctx.service('assistant.turns', () => {
    const active = new Map<number, ActiveTurn>();
    let waiters: (() => void)[] = [];
    let poll: NodeJS.Timeout | undefined;
    const stop = (turn: ActiveTurn) => {
      turn.cancelRequested = true;
      turn.controller.abort();
    };
    // Only while a turn runs: a cheap read of this process's stamped claims.
    const lookForRequests = () => {
      try {
        for (const job of cancelRequestedJobs(ctx, TURN_PREFIX)) {
          const turn = active.get(Number(job.slice(TURN_PREFIX.length)));
          if (turn && !turn.cancelRequested) stop(turn);
        }
      } catch (err) {
        ctx.log.warn('assistant cancel requests not read', { error: String(err) });
      }
    };
    const stopPolling = () => {
      if (poll) clearInterval(poll);
      poll = undefined;
    };
    const registry: TurnRegistry = {
      claim(sessionId) {
        if (active.has(sessionId)) return undefined;
        const turn: ActiveTurn = { sessionId, controller: new AbortController(), cancelRequested: false, cliPid: null };
        active.set(sessionId, turn);
        let claimed = false;
        try {
          claimed = claimJob(ctx, turnJob(sessionId), null).holder === null;
        } finally {
          if (!claimed) active.delete(sessionId);
        }
        if (!claimed) return undefined;
        if (!poll) {
          poll = setInterval(lookForRequests, ctx.tuning.assistantCancelPollMs);
          poll.unref();
        }
        return turn;
      },
      release(turn) {
        if (active.get(turn.sessionId) === turn) {
          active.delete(turn.sessionId);
          releaseJob(ctx, turnJob(turn.sessionId));
        }
        if (active.size === 0) {
          stopPolling();
          const w = waiters;
          waiters = [];
          for (const fn of w) fn();
        }
      },
      observe(sessionId) {
        const turn = active.get(sessionId);
        if (turn) return { claimed: true, cliPid: turn.cliPid };
        return { claimed: jobHolder(ctx, turnJob(sessionId)) !== null, cliPid: null };
      },
      cancel(sessionId) {
        const turn = active.get(sessionId);
        if (!turn) return cancelElsewhere(ctx, sessionId);
        if (turn.cancelRequested) return { outcome: 'already_cancelling', owner: 'this_process', stale: null };
        stop(turn);
        return { outcome: 'cancel_requested', owner: 'this_process', stale: null };
      },
      idle() {
        return active.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
      },
    };
    // Registered first so that it runs after the closer below: a worker that did not stop in time
    // must not leave its conversation claimed by a live process, but one that stops in time keeps its claim until then.
    releaseOnClose(ctx);
    ctx.onClose(async () => {
      stopPolling();
      for (const turn of active.values()) turn.controller.abort();
      await Promise.race([registry.idle(), new Promise((r) => setTimeout(r, 3000))]);
    });
    return registry;
  });
}
