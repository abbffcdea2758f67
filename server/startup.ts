/**
 * Work that runs once when a server starts, before it accepts requests. Each
 * area adds its task here, in the order they must run.
 */
import { executionManager } from '../src/executions/manager.js';
import { startScheduler } from './scheduler-start.js';
import type { AppDeps } from './registry.js';
import { startDelivery } from '../src/delivery/startup.js';
import { interruptOrphanedRuns } from '../src/similarity/recovery.js';
import { setJobRole } from '../src/claims/jobs.js';
import { recoverInterrupted as recoverAnswers } from '../src/answers/history.js';

export type StartupTask = (deps: AppDeps) => void | Promise<void>;

/** Executions left running by a process that is gone become interrupted. */
const recoverExecutions: StartupTask = ({ ctx, runtime }) => {
  const manager = executionManager(ctx);
  manager.role = runtime.role; // the runs it starts name it as their owner
  const marked = manager.recover();
  if (marked.length) ctx.log.warn(`marked ${marked.length} execution(s) interrupted: ${marked.join(', ')}`);
};

/** Deliveries: the bundle route's signatures, the worker, recovery of interrupted deliveries. */
const startDeliveries: StartupTask = ({ ctx, runtime }) => startDelivery(ctx, runtime);

/** Embedding backfills and link scans left running by a process that is gone become interrupted. */
const recoverSimilarityRuns: StartupTask = ({ ctx, runtime }) => {
  setJobRole(ctx, runtime.role); // the claims of its link scans and backfills name it
  const marked = interruptOrphanedRuns(ctx);
  const count = marked.embedding_runs.length + marked.link_scans.length;
  if (count) ctx.log.warn(`marked ${count} similarity run(s) interrupted`, marked);
};

/** Selected answers left admitted or running by a process that is gone become interrupted (prefix kept). */
const recoverAnswerRuns: StartupTask = ({ ctx }) => {
  const marked = recoverAnswers(ctx);
  if (marked.length) ctx.log.warn(`marked ${marked.length} selected answer(s) interrupted`);
};

// The Evidence reader's PDF child is not started here: a daemon runs for days, and the child (a
// Node process with pdf.js) would sit idle for a reader nobody opened. Showing a project that holds
// a PDF starts it (routes/evidence.ts), before its first page is asked.
export const STARTUP_TASKS: StartupTask[] = [recoverExecutions, startScheduler, startDeliveries, recoverSimilarityRuns, recoverAnswerRuns];

export async function runStartupTasks(deps: AppDeps): Promise<void> {
  for (const task of STARTUP_TASKS) await task(deps);
}
