/**
 * Work that runs first when a server stops on purpose (SIGTERM or SIGINT to
 * `svc serve` or the daemon, `svc daemon stop`, a window restarting its
 * backend), before anything else waits: each area records what became of its
 * own work in flight, so the next start finds it said instead of guessing.
 * Only executions have a reason to record (daemon_restart); deliveries,
 * embedding backfills and link scans left going are settled by the next
 * start as before.
 */
import { executionManager } from '../src/executions/manager.js';
import type { AppDeps } from './registry.js';

export type ShutdownTask = (deps: AppDeps) => void | Promise<void>;

/** Runs of this process become interrupted (daemon_restart) and are stopped, waiting a bounded time. */
const stopExecutions: ShutdownTask = ({ ctx }) => executionManager(ctx).close();

export const SHUTDOWN_TASKS: ShutdownTask[] = [stopExecutions];

export async function runShutdownTasks(deps: AppDeps): Promise<void> {
  for (const task of SHUTDOWN_TASKS) {
    try {
      await task(deps);
    } catch (err) {
      // The stop goes on: what a task could not record, the next start settles from what is left.
      deps.ctx.log.error('a shutdown step failed', { error: err instanceof Error ? err.message : String(err) });
    }
  }
}
