/**
 * The delivery summary a routine read carries (document 3, get_routine):
 * enabled destinations by channel, what awaits review, and the last delivery.
 * Deliveries are not part of this version, so every count is zero and every
 * last_* field null; the delivery work fills this function from its tables
 * and keeps the shape. No address, directory or URL is ever part of it.
 */
import type { Context } from '../context.js';

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

export function deliverySummary(_ctx: Context, _routineId: number): DeliverySummary {
  return {
    targets_by_channel: { email: 0, folder: 0, webhook: 0, feed: 0 },
    enabled_target_count: 0,
    awaiting_review: 0,
    last_state: null,
    last_channel: null,
    last_attempts: null,
    last_error: null,
    last_delivered_at_utc: null,
    target_id: null,
  };
}
