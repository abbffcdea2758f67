/**
 * What this process is running now, in words: the work a backend must not
 * drop by stopping on its own (a window's fallback stops only when this is
 * empty). Runs of other processes of the data directory are theirs to mind.
 */
import type { Context } from '../src/context.js';
import { executionManager } from '../src/executions/manager.js';
import { checksRunningHere } from '../src/lifecycle/check.js';
import { jobsHeldHere } from '../src/claims/jobs.js';
import { answersOf } from '../src/answers/service.js';

/** @example activeWork(ctx) // ['execution 12', 'lifecycle check 3', 'links.scan'] */
export function activeWork(ctx: Context): string[] {
  return [
    ...executionManager(ctx).activeIds().map((id) => `execution ${id}`),
    ...checksRunningHere(ctx).map((id) => `lifecycle check ${id}`),
    // Link scans, embedding backfills and index rebuilds, assistant turns.
    ...jobsHeldHere(ctx),
    ...[...answersOf(ctx).live.keys()].map((id) => `answer ${id}`),
  ];
}
