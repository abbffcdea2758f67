/**
 * The per-session bus: at most one running turn per conversation, in this
 * process and across the processes on one data directory (`svc chat N` and
 * the desktop through the server). A claim is held from admission until the
 * worker finishes, even if the reader went away; cancelling asks the worker
 * to stop and is idempotent (it reaches this process's turns only).
 *
 * Across processes the claim is a row taken in a write transaction, naming
 * the owner's pid and runtime id. A row is stale — and taken over — when its
 * pid no longer runs, or when it was written before the machine booted (the
 * pid may belong to another process now); a process that died mid-turn never
 * locks its conversation for good.
 */
import type { Context } from '../context.js';
import { isPidAlive, type PidProbe } from '../util/pid.js';
import { claimLive, wallNow } from '../util/process-claim.js';
import * as repo from './repo.js';

export interface ActiveTurn {
  sessionId: number;
  controller: AbortController;
  cancelRequested: boolean;
  cliPid: number | null;
}

export type CancelOutcome = 'cancel_requested' | 'already_cancelling' | 'no_active_turn';

export interface TurnRegistry {
  /** Claim the session's bus, or undefined when a turn holds it. */
  claim(sessionId: number): ActiveTurn | undefined;
  release(turn: ActiveTurn): void;
  observe(sessionId: number): { claimed: boolean; cliPid: number | null };
  cancel(sessionId: number): CancelOutcome;
  /** Resolves when no turn is running (shutdown, tests). */
  idle(): Promise<void>;
}

/** Held by another live process (not this context, not stale). */
function heldElsewhere(ctx: Context, row: repo.TurnClaimRow | undefined, alive: PidProbe): boolean {
  if (!row || row.runtime_id === ctx.runtimeId) return false;
  return claimLive(row, alive);
}

/** Take the conversation's row unless another live process holds it. */
function claimRow(ctx: Context, sessionId: number, alive: PidProbe): boolean {
  return ctx.db
    .transaction(() => {
      if (heldElsewhere(ctx, repo.getTurnClaim(ctx.db, sessionId), alive)) return false;
      repo.putTurnClaim(ctx.db, { session_id: sessionId, pid: process.pid, runtime_id: ctx.runtimeId, claimed_at_ms: wallNow() });
      return true;
    })
    .immediate();
}

export function turnRegistry(ctx: Context): TurnRegistry {
  const alive = isPidAlive;
  return ctx.service('assistant.turns', () => {
    const active = new Map<number, ActiveTurn>();
    let waiters: (() => void)[] = [];
    const registry: TurnRegistry = {
      claim(sessionId) {
        if (active.has(sessionId)) return undefined;
        const turn: ActiveTurn = { sessionId, controller: new AbortController(), cancelRequested: false, cliPid: null };
        active.set(sessionId, turn);
        let claimed = false;
        try {
          claimed = claimRow(ctx, sessionId, alive);
        } finally {
          if (!claimed) active.delete(sessionId);
        }
        return claimed ? turn : undefined;
      },
      release(turn) {
        if (active.get(turn.sessionId) === turn) {
          active.delete(turn.sessionId);
          repo.deleteTurnClaim(ctx.db, turn.sessionId, ctx.runtimeId);
        }
        if (active.size === 0) {
          const w = waiters;
          waiters = [];
          for (const fn of w) fn();
        }
      },
      observe(sessionId) {
        const turn = active.get(sessionId);
        if (turn) return { claimed: true, cliPid: turn.cliPid };
        return { claimed: heldElsewhere(ctx, repo.getTurnClaim(ctx.db, sessionId), alive), cliPid: null };
      },
      cancel(sessionId) {
        const turn = active.get(sessionId);
        if (!turn) return 'no_active_turn';
        if (turn.cancelRequested) return 'already_cancelling';
        turn.cancelRequested = true;
        turn.controller.abort();
        return 'cancel_requested';
      },
      idle() {
        return active.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
      },
    };
    ctx.onClose(async () => {
      for (const turn of active.values()) turn.controller.abort();
      await Promise.race([registry.idle(), new Promise((r) => setTimeout(r, 3000))]);
      // A worker that did not stop in time must not leave its conversation claimed by a live process.
      repo.deleteTurnClaimsOf(ctx.db, ctx.runtimeId);
    });
    return registry;
  });
}
