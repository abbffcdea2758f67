/**
 * The start-up task of the scheduler. A process started with
 * SVC_DISABLE_SCHEDULER creates no scheduler and installs no dispatcher for
 * fires: nothing here runs, and health keeps saying "disabled". Of the
 * processes serving one data directory only the holder of the scheduler lease
 * fires routines; the others say "standby" and who schedules (health, jobs).
 */
import { schedulerOf } from '../src/routines/due-fires.js';
import type { StartupTask } from './startup.js';

export const startScheduler: StartupTask = ({ ctx, runtime }) => {
  if (ctx.config.disableScheduler) return;
  const scheduler = schedulerOf(ctx);
  const report = scheduler.start();
  // Live: a standby becomes running when the process holding the lease goes away.
  runtime.scheduler = {
    get state() {
      return scheduler.running ? scheduler.state : 'not_started';
    },
    get held_by() {
      return scheduler.running ? scheduler.heldBy : null;
    },
  };
  if (!report) return;
  const missed = report.caughtUp.filter((o) => o.missed).length;
  const ran = report.caughtUp.filter((o) => o.fired).length;
  if (missed || ran) ctx.log.warn(`scheduler: caught up on ${report.caughtUp.length} routine(s): ${ran} ran late (coalesced), ${missed} recorded missed fires`);
};
