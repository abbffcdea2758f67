/**
 * Per-source spacing of requests, shared by every run in the process so two
 * sweeps never double a source's rate. Requests are spaced evenly
 * (interval / requests apart): the politest reading of "N per interval".
 */
import type { Context } from '../context.js';
import { sleep } from '../util/sleep.js';
import type { RateLimit } from './types.js';

export interface Throttle {
  /** Wait for this source's next slot. */
  acquire(rate: RateLimit, signal: AbortSignal): Promise<void>;
}

export function createThrottle(now: () => number, scale: number): Throttle {
  let nextSlot = 0;
  return {
    async acquire(rate, signal) {
      const spacing = (rate.intervalMs / rate.requests) * scale;
      const at = Math.max(now(), nextSlot);
      nextSlot = at + spacing;
      await sleep(at - now(), signal);
    },
  };
}

/** The process-wide throttle of one source. */
export function throttleFor(ctx: Context, sourceId: string): Throttle {
  const all = ctx.service('sources.throttles', () => new Map<string, Throttle>());
  let throttle = all.get(sourceId);
  if (!throttle) {
    throttle = createThrottle(() => Date.now(), ctx.tuning.sourceRateScale);
    all.set(sourceId, throttle);
  }
  return throttle;
}
