/**
 * One attempt of one claimed delivery: build the bundle, hand it to the
 * channel, and settle: delivered; queued again after the backoff delay; or
 * failed once the backoff has given up (or the problem is one another attempt
 * cannot fix). Every stored and logged error is destination-free.
 */
import type { Context } from '../context.js';
import { laneLine, presentLane } from '../executions/ai-lane.js';
import { getExecution } from '../executions/repo.js';
import { buildBundle } from './bundle.js';
import { sendEmail } from './channels/email.js';
import { sendFeed } from './channels/feed.js';
import { sendFolder } from './channels/folder.js';
import type { ChannelSend } from './channels/types.js';
import { sendWebhook } from './channels/webhook.js';
import { DeliveryFailure, errorClass, PLACEHOLDER, scrub } from './failure.js';
import { notify } from './notify.js';
import * as repo from './repo.js';
import { deliveryTuning, maxAttempts } from './tuning.js';

const CHANNELS: Record<repo.DeliveryRow['channel'], (ctx: Context) => ChannelSend> = {
  email: () => sendEmail,
  folder: () => sendFolder,
  feed: () => sendFeed,
  webhook: (ctx) => (input) => sendWebhook(input, deliveryTuning(ctx).webhookTimeoutMs),
};

/** Whether the routine asks for the run's AI summary in its email (email_ai_summary_enabled). */
function emailWantsSummary(ctx: Context, delivery: repo.DeliveryRow): boolean {
  if (delivery.channel !== 'email' || delivery.routine_id === null) return false;
  return repo.routineFacts(ctx.db, delivery.routine_id)?.email_ai_summary_enabled === 1;
}

/**
 * Lines the routine's email settings add to a digest: the run's AI summary, labelled as the
 * model's, or why there is none (from the run's ai_lane).
 */
function extraLines(ctx: Context, delivery: repo.DeliveryRow): string[] {
  if (!emailWantsSummary(ctx, delivery)) return [];
  const execution = getExecution(ctx.db, delivery.execution_id);
  if (!execution) return [];
  const lane = presentLane(execution.ai_lane_json, execution, ctx.clock.now().getTime());
  if (!lane.used || !lane.summary) return [laneLine(lane)];
  return [`${laneLine(lane)}:`, ...lane.summary.split(/\r?\n/).filter((l) => l.trim() !== '').map((l) => l.trimEnd())];
}

/** Attempt a delivery this process has claimed (state delivering); answers the row after. */
export async function attemptClaimed(ctx: Context, delivery: repo.DeliveryRow): Promise<repo.DeliveryRow> {
  const target = delivery.target_id === null ? null : (repo.getTarget(ctx.db, delivery.target_id) ?? null);
  const placeholder = PLACEHOLDER[delivery.channel];
  if (target && target.enabled === 0) {
    const now = ctx.nowIso();
    const note = 'The destination was disabled before this delivery was sent.';
    ctx.db.transaction(() => {
      repo.finishAttempt(ctx.db, delivery.id, 'failed', note, now);
      repo.transition(ctx.db, delivery.id, ['delivering'], { state: 'skipped', last_error: note, next_attempt_at_utc: null }, now);
    })();
    return repo.getDelivery(ctx.db, delivery.id)!;
  }
  let failure: DeliveryFailure | undefined;
  try {
    if (delivery.origin === 'target' && !target) throw new DeliveryFailure('The destination was removed before this delivery was sent.', false);
    // An email carries the AI summary only when the routine asks for it there; other channels get the report as it is.
    const bundle = buildBundle(ctx, delivery, { aiSummary: delivery.channel !== 'email' || emailWantsSummary(ctx, delivery) });
    await CHANNELS[delivery.channel](ctx)({ ctx, delivery, target, bundle, extra: extraLines(ctx, delivery) });
  } catch (err) {
    failure = err instanceof DeliveryFailure ? err : new DeliveryFailure(`Delivery failed on an unexpected error (${errorClass(err)}).`);
  }
  const now = ctx.nowIso();
  if (!failure) {
    // The attempt's outcome and the delivery's state together: an attempt recorded delivered on a
    // delivery still delivering would be recovered as interrupted and sent again.
    ctx.db.transaction(() => {
      repo.finishAttempt(ctx.db, delivery.id, 'delivered', null, now);
      repo.transition(ctx.db, delivery.id, ['delivering'], { state: 'delivered', delivered_at_utc: now, last_error: null, next_attempt_at_utc: null }, now);
    })();
    ctx.log.info(`delivery ${delivery.id} (${delivery.channel}) delivered on attempt ${delivery.attempts}`);
    return repo.getDelivery(ctx.db, delivery.id)!;
  }
  const message = scrub(failure.message, [target?.target, target?.secret], placeholder);
  ctx.db.transaction(() => {
    repo.finishAttempt(ctx.db, delivery.id, 'failed', message, now);
    settleFailure(ctx, delivery, message, failure.retryable);
  })();
  return repo.getDelivery(ctx.db, delivery.id)!;
}

/**
 * After a failed or interrupted attempt: queue the next one after its delay
 * (at once after an interruption: the receiver did not refuse anything), or give up.
 */
export function settleFailure(ctx: Context, delivery: repo.DeliveryRow, message: string, retryable: boolean, immediate = false): void {
  const now = ctx.nowIso();
  const backoff = deliveryTuning(ctx).backoffMs;
  if (retryable && delivery.attempts < maxAttempts(ctx)) {
    const delay = immediate ? 0 : (backoff[Math.min(delivery.attempts - 1, backoff.length - 1)] ?? 0);
    const next = new Date(ctx.clock.now().getTime() + delay).toISOString();
    repo.transition(ctx.db, delivery.id, ['delivering'], { state: 'queued', last_error: message, next_attempt_at_utc: next }, now);
    ctx.log.warn(`delivery ${delivery.id} (${delivery.channel}) attempt ${delivery.attempts} failed; next attempt at ${next}: ${message}`);
    return;
  }
  repo.transition(ctx.db, delivery.id, ['delivering'], { state: 'failed', last_error: message, next_attempt_at_utc: null }, now);
  ctx.log.warn(`delivery ${delivery.id} (${delivery.channel}) failed after ${delivery.attempts} attempt(s): ${message}`);
  notify(ctx, 'delivery_failed', delivery.routine_id, delivery.execution_id, `A ${delivery.channel} delivery failed: ${message}`);
}
