/**
 * The delivery summary a routine read carries (document 3, get_routine):
 * enabled destinations by channel, what awaits review, and the last delivery
 * (every last_* field and target_id null for a routine with no delivery).
 * No address, directory or URL is ever part of it.
 */
import type { Context } from '../context.js';
import * as repo from './repo.js';

export const DELIVERY_CHANNELS = ['email', 'folder', 'webhook', 'feed'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

export interface DeliverySummary {
  targets_by_channel: Record<DeliveryChannel, number>;
  enabled_target_count: number;
  awaiting_review: number;
  last_state: 'queued' | 'awaiting_review' | 'delivering' | 'delivered' | 'failed' | 'skipped' | null;
  last_channel: DeliveryChannel | null;
  last_attempts: number | null;
  last_error: string | null;
  last_delivered_at_utc: string | null;
  target_id: number | null;
}

export function deliverySummary(ctx: Context, routineId: number): DeliverySummary {
  const byChannel: Record<DeliveryChannel, number> = { email: 0, folder: 0, webhook: 0, feed: 0 };
  for (const { channel, n } of repo.enabledTargetCounts(ctx.db, routineId)) byChannel[channel] = n;
  const last = repo.lastDeliveryOf(ctx.db, routineId);
  return {
    targets_by_channel: byChannel,
    enabled_target_count: Object.values(byChannel).reduce((a, b) => a + b, 0),
    awaiting_review: repo.countInState(ctx.db, routineId, 'awaiting_review'),
    last_state: last?.state ?? null,
    last_channel: last?.channel ?? null,
    last_attempts: last?.attempts ?? null,
    last_error: last?.last_error ?? null,
    last_delivered_at_utc: last ? repo.lastDeliveredAt(ctx.db, routineId) : null,
    target_id: last?.target_id ?? null,
  };
}
