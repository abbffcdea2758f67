/**
 * Work that runs once when a server starts, before it accepts requests. Each
 * area adds its task here, in the order they must run.
 */
import { executionManager } from '../src/executions/manager.js';
import { startScheduler } from './scheduler-start.js';
import type { AppDeps } from './registry.js';
import { startDelivery } from '../src/delivery/startup.js';
import { recoverInterrupted as recoverAnswers } from '../src/answers/history.js';

export type StartupTask = (deps: AppDeps) => void | Promise<void>;

/** Executions left running by a process that is gone become interrupted. */
const recoverExecutions: StartupTask = ({ ctx, runtime }) => {
  const manager = executionManager(ctx);
  manager.role = runtime.role; // a restarted daemon marks its own runs daemon_restart
  const marked = manager.recover();
  if (marked.length) ctx.log.warn(`marked ${marked.length} execution(s) interrupted: ${marked.join(', ')}`);
};

/** Deliveries: the bundle route's signatures, the worker, recovery of interrupted deliveries. */
const startDeliveries: StartupTask = ({ ctx, runtime }) => startDelivery(ctx, runtime);

/** Selected answers left admitted or running by a process that is gone become interrupted (prefix kept). */
const recoverAnswerRuns: StartupTask = ({ ctx }) => {
  const marked = recoverAnswers(ctx);
  if (marked.length) ctx.log.warn(`marked ${marked.length} selected answer(s) interrupted`);
};

export const STARTUP_TASKS: StartupTask[] = [recoverExecutions, startScheduler, startDeliveries, recoverAnswerRuns];

export async function runStartupTasks(deps: AppDeps): Promise<void> {
  for (const task of STARTUP_TASKS) await task(deps);
}
