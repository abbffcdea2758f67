/**
 * A read for the watchdog: deliveries failing since an instant — failed ones
 * (backoff gave up) and queued ones whose last attempt failed (still retrying).
 * Destination-free like every delivery answer.
 */
import type { Context } from '../context.js';
import type { DeliveryChannel } from './summary.js';
import * as repo from './repo.js';

export interface FailingDelivery {
  id: number;
  routine_id: number | null;
  routine_name: string | null;
  execution_id: number;
  target_id: number | null;
  /** routine_email: sent to the email settings' recipient; target with a null target_id: its destination was removed. */
  origin: 'target' | 'routine_email';
  channel: DeliveryChannel;
  /** failed: backoff gave up (needs retry or skip); retrying: queued for another attempt. */
  state: 'failed' | 'retrying';
  attempts: number;
  last_error: string | null;
  next_attempt_at_utc: string | null;
  updated_at_utc: string;
  /** When its first attempt failed (the watchdog's "since"). */
  first_failed_at_utc: string | null;
}

/** @example listFailingDeliveries(ctx, '2026-01-01T00:00:00.000Z') */
export function listFailingDeliveries(ctx: Context, sinceIso: string): FailingDelivery[] {
  return repo.failingSince(ctx.db, sinceIso).map((r) => ({
    id: r.id,
    routine_id: r.routine_id,
    routine_name: r.routine_name,
    execution_id: r.execution_id,
    target_id: r.target_id,
    origin: r.origin,
    channel: r.channel,
    state: r.state === 'failed' ? 'failed' : 'retrying',
    attempts: r.attempts,
    last_error: r.last_error,
    next_attempt_at_utc: r.state === 'queued' ? r.next_attempt_at_utc : null,
    updated_at_utc: r.updated_at_utc,
    first_failed_at_utc: r.first_failed_at_utc,
  }));
}
