/**
 * What follows a settled execution, in whatever process ran it (server,
 * daemon or a foreground CLI run). The executions room only announces the
 * settled run: the steps (AI summary, delivery, profile matching, embedding)
 * belong to other rooms, and the composition root (src/after-run-steps.ts)
 * registers them on each context in their order. Each step is isolated: one
 * that throws is logged and never changes the execution's outcome, and the
 * next still runs.
 */
import type { Context } from '../context.js';
import type { ExecutionStatus } from './repo.js';

export interface SettledExecution {
  id: number;
  status: ExecutionStatus;
  /** The run's own signal: aborted when its process shuts down, so a slow step stops too. */
  signal?: AbortSignal;
}

export type AfterRunStep = (ctx: Context, execution: SettledExecution) => void | Promise<void>;

interface NamedStep {
  name: string;
  run: AfterRunStep;
}

const stepsOf = (ctx: Context) => ctx.service('executions.after-run-steps', (): NamedStep[] => []);

/** Add a step after those registered before it; the name is what the log says when it fails. */
export function registerAfterRunStep(ctx: Context, name: string, run: AfterRunStep): void {
  stepsOf(ctx).push({ name, run });
}

/** The registered steps' names, in the order they run. */
export function afterRunStepNames(ctx: Context): string[] {
  return stepsOf(ctx).map((s) => s.name);
}

/** Run every registered step, one after the other, for a settled execution. */
export async function runAfterRunSteps(ctx: Context, execution: SettledExecution): Promise<void> {
  for (const step of stepsOf(ctx)) {
    try {
      await step.run(ctx, execution);
    } catch (err) {
      ctx.log.error(`after-run step ${step.name} failed for execution ${execution.id}`, { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    }
  }
}
