/**
 * The after-run step of delivery: a completed routine run creates its
 * deliveries and attempts the automatic ones; the notifications of the run
 * follow the notifications settings and the routine's notify_on_complete.
 */
import type { Context } from '../context.js';
import type { SettledExecution } from '../executions/after-run.js';
import { getExecution } from '../executions/repo.js';
import { routineFacts } from './repo.js';
import { notify } from './notify.js';
import { followNotification } from './follow-digest.js';
import { followNews } from '../follow/check.js';
import { createDeliveries, dispatchDue } from './service.js';
import { count } from '../util/words.js';

export async function deliverAfterRun(ctx: Context, settled: SettledExecution): Promise<void> {
  const execution = getExecution(ctx.db, settled.id);
  if (!execution || execution.routine_id === null) return;
  const routine = routineFacts(ctx.db, execution.routine_id);
  if (!routine) return;
  if (settled.status === 'completed') {
    // A fire following a person for retractions: its news is the notices found, not the papers (as its digest).
    const follow = followNews(ctx, execution.id);
    const message = follow ? followNotification(routine.name, follow) : `${routine.name}: ${count(execution.result_count, 'result')} (${execution.new_count} new).`;
    notify(ctx, 'run_completed', routine.id, execution.id, message, routine.notify_on_complete === 1);
  } else if (settled.status === 'failed') {
    notify(ctx, 'run_failed', routine.id, execution.id, `${routine.name}: the run failed.`);
  }
  const created = createDeliveries(ctx, execution.id);
  if (created.length) await dispatchDue(ctx, execution.id);
}
