/**
 * The moves a person makes on one delivery, as the service allows them (the
 * service refuses a move from the wrong state with its reason, shown as is):
 * release one held for review, skip one still waiting, retry one that failed.
 * Each move reads the review count again for the navigation's badge.
 */
import { deliveries, type Delivery } from '../api/deliveries.js';
import { refreshReviewCount } from '../watch/review-count.js';

export type Move = 'deliver' | 'skip' | 'retry';

export const MOVE_LABEL: Record<Move, string> = { deliver: 'Deliver', skip: 'Skip', retry: 'Retry' };

/** The moves the spec names for a delivery in its state (the service has the last word). */
export function movesFor(d: Pick<Delivery, 'state'>): Move[] {
  if (d.state === 'awaiting_review') return ['deliver', 'skip'];
  if (d.state === 'failed') return ['retry', 'skip'];
  if (d.state === 'queued') return ['skip'];
  return [];
}

export async function makeMove(move: Move, id: number): Promise<Delivery> {
  const answer = await deliveries[move](id);
  void refreshReviewCount().catch(() => undefined);
  return answer;
}
