/**
 * After a run settles: embed the documents it found that lack a vector for
 * the active model. Bounded (AFTER_RUN_MAX documents, AFTER_RUN_TIMEOUT_MS),
 * skipped when embeddings are off or embedding after runs is off. One
 * backfill runs at a time per data directory: when a whole-corpus backfill
 * runs in any process this step is skipped (that backfill reaches the new
 * documents); when another run's after-run step holds it, this one waits for
 * it, within the same time bound. A failure is logged by the step runner and
 * never changes the run's outcome.
 */
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import type { SettledExecution } from '../executions/after-run.js';
import { backfillHolder, runBackfill } from './backfill.js';
import { isLane, resolveLane } from './lanes.js';
import { countLackingAmong } from './repo.js';

export const AFTER_RUN_MAX = 2000;
export const AFTER_RUN_TIMEOUT_MS = 120_000;
const WAIT_POLL_MS = 250;

const afterRunTrigger = (detail: string | null) => detail !== null && detail.startsWith('after_run:');

export async function embedAfterRun(ctx: Context, execution: SettledExecution): Promise<void> {
  const settings = ctx.settings.read('embeddings');
  if (settings.embed_after_runs === false || settings.provider === 'none') return;
  const lane = resolveLane(ctx);
  if (!isLane(lane)) return;
  const ids = (
    ctx.db.prepare('SELECT DISTINCT document_id FROM execution_documents WHERE execution_id = ? ORDER BY document_id LIMIT ?').all(execution.id, AFTER_RUN_MAX) as {
      document_id: number;
    }[]
  ).map((r) => r.document_id);
  if (countLackingAmong(ctx.db, lane.key, ids) === 0) return;
  const signal = AbortSignal.timeout(AFTER_RUN_TIMEOUT_MS);
  while (!signal.aborted) {
    const holder = backfillHolder(ctx);
    if (holder && !afterRunTrigger(holder.detail)) return;
    if (holder) ctx.log.debug(`embedding after run ${execution.id} waits: ${holder.detail} holds the backfill`);
    else {
      try {
        await runBackfill(ctx, { trigger: `after_run:${execution.id}`, ids, signal });
        return;
      } catch (err) {
        // Another process took the claim between the look and the start: look again.
        if (!(err instanceof SvcError && err.reason === 'backfill_already_running')) throw err;
      }
    }
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
  }
}
