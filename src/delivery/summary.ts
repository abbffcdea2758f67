/**
 * The delivery summary a routine read carries (document 3, get_routine):
 * enabled destinations by channel, what awaits review, and the last delivery
 * (every last_* field and target_id null for a routine with no delivery).
 * No address, directory or URL is ever part of it.
 */
import type { Context } from '../context.js';
import * as repo from './repo.js';
import type { DeliveryChannel, DeliverySummary } from '../wire/routines.js';

export type { DeliveryChannel } from '../wire/routines.js';

export const DELIVERY_CHANNELS = ['email', 'folder', 'webhook', 'feed'] as const satisfies readonly DeliveryChannel[];

/** The summaries of routines (one, or the routine list's 200) in a few grouped reads. */
export function deliverySummaries(ctx: Context, routineIds: readonly number[]): Map<number, DeliverySummary> {
  const counts = repo.enabledTargetCountsOf(ctx.db, routineIds);
  const totals = repo.deliveryTotalsOf(ctx.db, routineIds);
  const channels = new Map<number, Record<DeliveryChannel, number>>();
  for (const id of routineIds) channels.set(id, { email: 0, folder: 0, webhook: 0, feed: 0 });
  for (const { routine_id, channel, n } of counts) channels.get(routine_id)![channel] = n;
  const summaries = new Map<number, DeliverySummary>();
  for (const id of routineIds) {
    const byChannel = channels.get(id)!;
    const t = totals.get(id);
    const last = t?.last;
    summaries.set(id, {
      targets_by_channel: byChannel,
      enabled_target_count: Object.values(byChannel).reduce((a, b) => a + b, 0),
      awaiting_review: t?.awaiting_review ?? 0,
      last_state: last?.state ?? null,
      last_channel: last?.channel ?? null,
      last_attempts: last?.attempts ?? null,
      last_error: last?.last_error ?? null,
      last_delivered_at_utc: t?.last_delivered_at_utc ?? null,
      target_id: last?.target_id ?? null,
    });
  }
  return summaries;
}
