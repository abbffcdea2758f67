/**
 * The per-session bus: at most one running turn per conversation in this
 * process. A claim is held from admission until the worker finishes, even if
 * the reader went away; cancelling asks the worker to stop and is idempotent.
 */
import type { Context } from '../context.js';

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

export function turnRegistry(ctx: Context): TurnRegistry {
  return ctx.service('assistant.turns', () => {
    const active = new Map<number, ActiveTurn>();
    let waiters: (() => void)[] = [];
    const registry: TurnRegistry = {
      claim(sessionId) {
        if (active.has(sessionId)) return undefined;
        const turn: ActiveTurn = { sessionId, controller: new AbortController(), cancelRequested: false, cliPid: null };
        active.set(sessionId, turn);
        return turn;
      },
      release(turn) {
        if (active.get(turn.sessionId) === turn) active.delete(turn.sessionId);
        if (active.size === 0) {
          const w = waiters;
          waiters = [];
          for (const fn of w) fn();
        }
      },
      observe(sessionId) {
        const turn = active.get(sessionId);
        return { claimed: turn !== undefined, cliPid: turn?.cliPid ?? null };
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
    });
    return registry;
  });
}
