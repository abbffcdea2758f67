/**
 * After a run settles: embed the documents it found that lack a vector for
 * the active model. Bounded (AFTER_RUN_MAX documents, AFTER_RUN_TIMEOUT_MS),
 * skipped when embeddings are off, embedding after runs is off, or a backfill
 * is already going in this process (it will reach the new documents). A
 * failure is logged by the step runner and never changes the run's outcome.
 */
import type { Context } from '../context.js';
import type { SettledExecution } from '../executions/after-run.js';
import { backfillRunning, runBackfill } from './backfill.js';
import { isLane, resolveLane } from './lanes.js';
import { countLackingAmong } from './repo.js';

export const AFTER_RUN_MAX = 2000;
export const AFTER_RUN_TIMEOUT_MS = 120_000;

export async function embedAfterRun(ctx: Context, execution: SettledExecution): Promise<void> {
  const settings = ctx.settings.read('embeddings');
  if (settings.embed_after_runs === false || settings.provider === 'none' || backfillRunning(ctx)) return;
  const lane = resolveLane(ctx);
  if (!isLane(lane)) return;
  const ids = (
    ctx.db.prepare('SELECT DISTINCT document_id FROM execution_documents WHERE execution_id = ? ORDER BY document_id LIMIT ?').all(execution.id, AFTER_RUN_MAX) as {
      document_id: number;
    }[]
  ).map((r) => r.document_id);
  if (countLackingAmong(ctx.db, lane.key, ids) === 0) return;
  await runBackfill(ctx, { trigger: `after_run:${execution.id}`, ids, signal: AbortSignal.timeout(AFTER_RUN_TIMEOUT_MS) });
}
