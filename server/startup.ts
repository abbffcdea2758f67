/**
 * Work that runs once when a server starts, before it accepts requests
 * (marking executions of a dead owner interrupted, starting the scheduler).
 * Each area adds its task here.
 */
import type { AppDeps } from './registry.js';

export type StartupTask = (deps: AppDeps) => void | Promise<void>;

export const STARTUP_TASKS: StartupTask[] = [];

export async function runStartupTasks(deps: AppDeps): Promise<void> {
  for (const task of STARTUP_TASKS) await task(deps);
}
