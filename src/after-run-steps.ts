/**
 * The composition root of what follows a settled run: every context
 * (createContext) registers these steps, in this order, with the executions
 * room, which announces the run and knows none of them.
 *
 *  1. ai summary — first: the routine's digest (delivery, next) carries the summary it writes.
 *  2. delivery — the routine's notifications, then its deliveries: created, and the automatic ones attempted.
 *  3. watch profile matching — the run's papers matched to the watch profiles; a follow fire in mode
 *     retractions matched its papers before checking them (follow/check.ts), so not twice.
 *  4. embed-new-documents — the run's papers that lack a vector: last, as the slowest (bounded in time).
 *
 * Each step's module is imported when a run first settles, so a process that
 * never settles one (`svc mcp`, `svc config`) does not load delivery,
 * profiles or similarity.
 */
import type { Context } from './context.js';
import { registerAfterRunStep, type AfterRunStep } from './executions/after-run.js';

export const AFTER_RUN_STEPS: readonly { name: string; run: AfterRunStep }[] = [
  { name: 'ai summary', run: async (ctx, run) => (await import('./executions/ai-summary.js')).summarizeAfterRun(ctx, run) },
  { name: 'delivery', run: async (ctx, run) => (await import('./delivery/after-run.js')).deliverAfterRun(ctx, run) },
  {
    name: 'watch profile matching',
    run: async (ctx, run) => {
      const [{ matchedByFollowCheck }, { matchRunDocuments }] = await Promise.all([import('./follow/check.js'), import('./profiles/match.js')]);
      if (!matchedByFollowCheck(ctx, run.id)) matchRunDocuments(ctx, run.id);
    },
  },
  { name: 'embed-new-documents', run: async (ctx, run) => (await import('./similarity/after-run.js')).embedAfterRun(ctx, run) },
];

export function registerAfterRunSteps(ctx: Context): void {
  for (const step of AFTER_RUN_STEPS) registerAfterRunStep(ctx, step.name, step.run);
}
