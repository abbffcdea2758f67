/**
 * Delivery timing: the backoff between attempts (bounded: after the last
 * delay the delivery is failed and only the retry route starts again), how
 * often a serving process looks for due deliveries, and when a claim is stale.
 * Tests shorten these through `deliveryTuning(ctx)`.
 */
import type { Context } from '../context.js';

export interface DeliveryTuning {
  /** Delay before attempt n+1 after attempt n failed; attempts = backoffMs.length + 1. */
  backoffMs: number[];
  pollMs: number;
  /** A claim older than this whose owner cannot be shown alive is recovered. */
  claimStaleMs: number;
  webhookTimeoutMs: number;
}

export const DEFAULT_DELIVERY_TUNING: DeliveryTuning = {
  backoffMs: [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000],
  pollMs: 5_000,
  claimStaleMs: 10 * 60_000,
  webhookTimeoutMs: 10_000,
};

export function deliveryTuning(ctx: Context): DeliveryTuning {
  return ctx.service<DeliveryTuning>('delivery:tuning', () => ({ ...DEFAULT_DELIVERY_TUNING, backoffMs: [...DEFAULT_DELIVERY_TUNING.backoffMs] }));
}

export const maxAttempts = (ctx: Context) => deliveryTuning(ctx).backoffMs.length + 1;
