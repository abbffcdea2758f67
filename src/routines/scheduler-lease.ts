/** The lease that makes one process the scheduler of its data directory (src/scheduler/lease.ts). */
import type { Context } from '../context.js';
import { executionManager } from '../executions/manager.js';
import { fileLease, type Lease } from '../scheduler/lease.js';

export function schedulerLease(ctx: Context): Lease {
  return ctx.service('scheduler:lease', () =>
    fileLease({ dataDir: ctx.paths.dataDir, runtimeId: ctx.runtimeId, role: () => executionManager(ctx).role, now: () => ctx.nowIso() }),
  );
}
