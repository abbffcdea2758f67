/**
 * Admission: max_concurrent_executions slots shared by every process using
 * this database (a running execution whose owner was seen recently holds one).
 * A manual run with no free slot is refused (429, a sentence naming the cap,
 * Retry-After: 5); routine fires wait in a queue of routine_fire_queue_limit.
 */
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { countLiveRunning } from './repo.js';

export const RETRY_AFTER_SECONDS = 5;

export function admissionLimits(ctx: Context): { cap: number; queueLimit: number } {
  const settings = ctx.settings.read('execution');
  return { cap: Number(settings.max_concurrent_executions), queueLimit: Number(settings.routine_fire_queue_limit) };
}

/** A running execution whose owner was seen since this instant is alive (older ones are being abandoned). */
export function liveSince(ctx: Context): string {
  return new Date(ctx.clock.now().getTime() - ctx.tuning.executionStaleMs).toISOString();
}

export function liveRunning(ctx: Context): number {
  return countLiveRunning(ctx.db, liveSince(ctx));
}

export function hasFreeSlot(ctx: Context): boolean {
  return liveRunning(ctx) < admissionLimits(ctx).cap;
}

export function noSlotError(cap: number): SvcError {
  const runs = cap === 1 ? 'one search' : `${cap} searches`;
  return new SvcError(
    429,
    'admission_full',
    `svc is already running ${runs} at once, the most max_concurrent_executions (${cap}) allows; try again in a few seconds or raise the limit in the execution settings.`,
    {},
    { sentence: true, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } },
  );
}
