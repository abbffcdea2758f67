/**
 * Steps that follow a settled execution in whatever process ran it (server,
 * daemon or a foreground CLI run): deliveries of a routine's report, watch
 * profile matching of the run's documents. Each step is isolated: one that
 * throws is logged and never changes the execution's outcome.
 */
import type { Context } from '../context.js';
import type { ExecutionStatus } from './repo.js';
import { matchRunDocuments } from '../profiles/match.js';
import { deliverAfterRun } from '../delivery/after-run.js';
import { embedAfterRun } from '../similarity/after-run.js';
import { summarizeAfterRun } from './ai-summary.js';
import { matchedByFollowCheck } from '../lifecycle/follow.js';

export interface SettledExecution {
  id: number;
  status: ExecutionStatus;
  /** The run's own signal: aborted when its process shuts down, so a slow step stops too. */
  signal?: AbortSignal;
}

export type AfterRunStep = (ctx: Context, execution: SettledExecution) => void | Promise<void>;

/** Wave 2 areas add their step after their own marker (one marker per area). */
const STEPS: { name: string; run: AfterRunStep }[] = [
  // area: ai summary — first: the routine's digest (delivery, next) carries the summary it writes.
  { name: 'ai summary', run: summarizeAfterRun },
  // area: delivery
  { name: 'delivery', run: deliverAfterRun },
  // area: profiles
  // A follow fire in mode retractions matched its papers before checking them (lifecycle/follow.ts): not twice.
  { name: 'watch profile matching', run: (ctx, execution) => (matchedByFollowCheck(ctx, execution.id) ? undefined : matchRunDocuments(ctx, execution.id)) },
  // area: similarity
  { name: 'embed-new-documents', run: embedAfterRun },
];

export async function runAfterRunSteps(ctx: Context, execution: SettledExecution): Promise<void> {
  for (const step of STEPS) {
    try {
      await step.run(ctx, execution);
    } catch (err) {
      ctx.log.error(`after-run step ${step.name} failed for execution ${execution.id}`, { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    }
  }
}
