/**
 * The delivery worker of a serving process: it attempts due deliveries one at
 * a time, wakes when asked (a run finished, a release, a retry) and on a
 * timer, and recovers deliveries left `delivering` by a process that went
 * away: the cut-short attempt is recorded as interrupted and the delivery is
 * queued again (or failed when its attempts are used up) — never stuck, never
 * sent again without a record. Any number of processes may run one: a claim is
 * one conditional UPDATE, so only one of them attempts a delivery.
 */
import type { Context } from '../context.js';
import { attemptClaimed, settleFailure } from './attempt.js';
import * as repo from './repo.js';
import { deliveryTuning } from './tuning.js';
import type { PidProbe } from '../util/pid.js';
import { rowOwnerRuns } from '../claims/rows.js';
import { ownOwner } from '../claims/owner.js';
import { setImmediate } from 'node:timers/promises';

export const INTERRUPTED_ERROR = 'Interrupted: the process delivering this stopped mid-attempt; whether that attempt arrived is unknown (the delivery id identifies a repeat).';

const ownerOf = (ctx: Context): repo.DeliveryOwner => ({ runtimeId: ctx.runtimeId, ...ownOwner() });

/**
 * Recover deliveries whose delivering process is gone (or silent past the stale limit): the owner
 * the row names no longer runs by the rule of every claim (claims/rows.ts), so a pid now run by
 * another process is gone too. Answers their ids.
 */
export function recoverDeliveries(ctx: Context, alive?: PidProbe): number[] {
  const staleBefore = ctx.clock.now().getTime() - deliveryTuning(ctx).claimStaleMs;
  const recovered: number[] = [];
  for (const row of repo.deliveringRows(ctx.db)) {
    if (row.owner_runtime_id === ctx.runtimeId) continue;
    const fresh = row.claimed_at_utc !== null && Date.parse(row.claimed_at_utc) >= staleBefore;
    const ownerAlive = rowOwnerRuns(row, alive);
    if (ownerAlive && fresh) continue;
    ctx.db.transaction(() => {
      repo.finishAttempt(ctx.db, row.id, 'interrupted', INTERRUPTED_ERROR, ctx.nowIso());
      settleFailure(ctx, row, INTERRUPTED_ERROR, true, true);
    })();
    recovered.push(row.id);
  }
  if (recovered.length) ctx.log.warn(`recovered ${recovered.length} interrupted deliver${recovered.length === 1 ? 'y' : 'ies'}: ${recovered.join(', ')}`);
  return recovered;
}

/** Attempt every due delivery (of one execution, when named) in this process, now. */
export async function processDue(ctx: Context, onlyExecution?: number): Promise<repo.DeliveryRow[]> {
  const done: repo.DeliveryRow[] = [];
  for (;;) {
    // Each delivery waits behind the process's pending I/O: an attempt refused before any I/O resolves
    // at once, and a backlog of such attempts would otherwise hold up every request (or a start) until it drained.
    await setImmediate();
    const claimed = repo.claimDue(ctx.db, ctx.nowIso(), ownerOf(ctx), onlyExecution);
    if (!claimed) return done;
    done.push(await attemptClaimed(ctx, claimed));
  }
}

/** Attempt one queued delivery now, whatever its due time (a person asked). Undefined when another process has it. */
export async function attemptNow(ctx: Context, id: number): Promise<repo.DeliveryRow | undefined> {
  const claimed = repo.claim(ctx.db, id, ctx.nowIso(), ownerOf(ctx));
  return claimed ? attemptClaimed(ctx, claimed) : undefined;
}

export interface DeliveryWorker {
  start(): void;
  /** Look for due deliveries now; resolves when this pass is over. */
  kick(): Promise<void>;
  readonly started: boolean;
}

export function deliveryWorker(ctx: Context): DeliveryWorker {
  return ctx.service<DeliveryWorker>('delivery:worker', () => {
    let timer: NodeJS.Timeout | undefined;
    let pass: Promise<void> | undefined;
    let again = false;
    let closed = false;
    // After each pass the timer is set for the next due delivery, at most pollMs away.
    const arm = () => {
      if (closed) return;
      if (timer) clearTimeout(timer);
      const due = repo.nextDueAt(ctx.db);
      const poll = deliveryTuning(ctx).pollMs;
      const wait = due === undefined ? poll : Math.min(poll, Math.max(0, Date.parse(due) - ctx.clock.now().getTime()));
      timer = setTimeout(() => void worker.kick(), wait);
      timer.unref();
    };
    const run = async () => {
      do {
        again = false;
        try {
          recoverDeliveries(ctx);
          await processDue(ctx);
        } catch (err) {
          ctx.log.error('delivery worker pass failed', { error: err instanceof Error ? err.name : String(err) });
        }
      } while (again && !closed);
      try {
        arm();
      } catch {
        // the database closed under a last pass: nothing more to arm
      }
    };
    const worker: DeliveryWorker = {
      started: false,
      start() {
        if (worker.started) return;
        (worker as { started: boolean }).started = true;
        ctx.onClose(async () => {
          closed = true;
          if (timer) clearTimeout(timer);
          await pass;
        });
        // The first pass (recovery, then the backlog) runs once the start is over: a server listens first.
        timer = setTimeout(() => void worker.kick(), 0);
        timer.unref();
      },
      kick() {
        if (closed) return Promise.resolve();
        if (pass) {
          again = true;
          return pass;
        }
        pass = run().finally(() => (pass = undefined));
        return pass;
      },
    };
    return worker;
  });
}
