/**
 * The start-up task of the scheduler. A process started with
 * SVC_DISABLE_SCHEDULER creates no scheduler and installs no dispatcher for
 * fires: nothing here runs, and health keeps saying "disabled".
 */
import { schedulerOf } from '../src/routines/due-fires.js';
import type { StartupTask } from './startup.js';

export const startScheduler: StartupTask = ({ ctx, runtime }) => {
  if (ctx.config.disableScheduler) return;
  const report = schedulerOf(ctx).start();
  runtime.scheduler.state = 'running';
  const missed = report.caughtUp.filter((o) => o.missed).length;
  const ran = report.caughtUp.filter((o) => o.fired).length;
  if (missed || ran) ctx.log.warn(`scheduler: caught up on ${report.caughtUp.length} routine(s): ${ran} ran late (coalesced), ${missed} recorded missed fires`);
};
