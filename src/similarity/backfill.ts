/**
 * Backfill: embed every document lacking a vector for the active model, in
 * batches, in id order. Incremental by construction (only documents with no
 * vector are read), with progress in embedding_runs. Cancel stops after the
 * batch in flight; what was written is kept. A lexical backfill first counts
 * the documents its statistics have not counted yet (lexical-fit.ts), then
 * embeds with those statistics.
 *
 * One backfill at a time per data directory, whichever process starts it (the
 * route, `svc embed backfill`, the step after a run): it holds the job claim
 * (claims/jobs.ts) from before the counting until it ends; a second start
 * anywhere is a 409 backfill_already_running naming the process that runs it.
 * A cancel from any process reaches it through the claim's flag.
 */
import type { Context } from '../context.js';
import { SvcError, conflict } from '../errors.js';
import { countUncounted } from './lexical-fit.js';
import { isLane, resolveLane, type Lane } from './lanes.js';
import { documentsLacking, finishRun, lackingAmong, progressRun, startRun, writeVectors, countLacking, countLackingAmong, latestRun, type DocumentText, type RunRow } from './repo.js';
import { maintainIndex } from './index-build.js';
import { cancelInBackground, startInBackground, type CancelAnswer, type JobSlot } from './background-job.js';
import { interruptOrphanedRuns } from './recovery.js';
import { claimJob, describeHolder, jobCancelPoll, jobConflict, jobHolder, noteJobRun, releaseJob, type JobHolder } from '../claims/jobs.js';

const JOB = 'embeddings.backfill';

function alreadyRunning(holder: JobHolder) {
  const run = holder.run_id === null ? '' : ` #${holder.run_id}`;
  const cancel = holder.here ? '' : '; wait for it, or stop it with svc embed cancel';
  return jobConflict('backfill_already_running', `An embedding backfill${run} is already running in ${describeHolder(holder)}${cancel}.`, holder, { run_id: holder.run_id });
}

export interface BackfillProgress {
  run_id: number;
  model: string;
  total: number;
  embedded: number;
  tokens: number;
}

const jobs = (ctx: Context) => ctx.service('similarity.backfill', (): JobSlot => ({ current: null }));

/** The lane, or 409 embeddings_off. */
export function activeLane(ctx: Context): Lane {
  const lane = resolveLane(ctx);
  if (!isLane(lane)) throw conflict('embeddings_off', 'Embeddings are off (provider none); choose a lane with svc settings set embeddings provider local.');
  return lane;
}

export interface BackfillOptions {
  trigger?: string;
  /** Only these documents (the after-run step); otherwise the whole corpus. */
  ids?: number[];
  signal?: AbortSignal;
  onProgress?: (p: BackfillProgress) => void;
  /** Called once the run row exists. */
  onStart?: (runId: number) => void;
  isCancelled?: () => boolean;
}

/** Run one backfill to its end (or cancel) in this process; answers the finished run row; 409 when one runs anywhere. */
export async function runBackfill(ctx: Context, options: BackfillOptions = {}): Promise<RunRow> {
  const lane = activeLane(ctx);
  const { holder } = claimJob(ctx, JOB, options.trigger ?? 'api');
  if (holder) throw alreadyRunning(holder);
  let run: RunRow;
  try {
    run = await backfillClaimed(ctx, lane, options);
  } finally {
    releaseJob(ctx, JOB);
  }
  // Queries find the new vectors at once (vec-index.ts); the index file takes them in the background when they
  // are many (in a server or daemon; svc embed backfill waits for it itself).
  await maintainIndex(ctx, lane.key);
  return run;
}

async function backfillClaimed(ctx: Context, lane: Lane, options: BackfillOptions): Promise<RunRow> {
  interruptOrphanedRuns(ctx);
  const cancelRequested = jobCancelPoll(ctx, JOB);
  const cancelled = () => Boolean(options.isCancelled?.() || options.signal?.aborted || cancelRequested());
  await countUncounted(ctx, lane);
  const total = options.ids ? countLackingAmong(ctx.db, lane.key, options.ids) : countLacking(ctx.db, lane.key).count;
  const runId = startRun(ctx.db, lane.key, options.trigger ?? 'api', total, ctx.runtimeId, ctx.nowIso());
  noteJobRun(ctx, JOB, runId);
  options.onStart?.(runId);
  const progress: BackfillProgress = { run_id: runId, model: lane.key, total, embedded: 0, tokens: 0 };
  let afterId = 0;
  let pending = options.ids ? [...new Set(options.ids)].sort((a, b) => a - b) : undefined;
  try {
    while (!cancelled()) {
      let docs: DocumentText[];
      if (pending) {
        docs = lackingAmong(ctx.db, lane.key, pending.slice(0, lane.batchSize));
        pending = pending.slice(lane.batchSize);
        if (docs.length === 0 && pending.length === 0) break;
        if (docs.length === 0) continue;
      } else {
        docs = documentsLacking(ctx.db, lane.key, afterId, lane.batchSize);
        if (docs.length === 0) break;
      }
      const { vectors, tokens } = await lane.embedDocuments(docs, { signal: options.signal });
      const rows = docs.map((d, i) => ({ id: d.id, vector: vectors[i]! }));
      progress.embedded += rows.length;
      progress.tokens += tokens;
      ctx.db.transaction(() => {
        writeVectors(ctx.db, lane.key, rows, ctx.nowIso());
        progressRun(ctx.db, runId, progress.embedded, progress.tokens);
      })();
      afterId = docs[docs.length - 1]!.id;
      options.onProgress?.({ ...progress });
      await new Promise((r) => setImmediate(r));
    }
    finishRun(ctx.db, runId, cancelled() ? 'cancelled' : 'completed', null, ctx.nowIso());
  } catch (err) {
    const message = err instanceof SvcError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
    finishRun(ctx.db, runId, options.signal?.aborted ? 'cancelled' : 'failed', message.slice(0, 500), ctx.nowIso());
    throw err;
  }
  return latestRunById(ctx, runId);
}

function latestRunById(ctx: Context, id: number): RunRow {
  return ctx.db.prepare('SELECT * FROM embedding_runs WHERE id = ?').get(id) as RunRow;
}

/** Start a backfill in the background and answer at once; 409 backfill_already_running when one runs in any process. */
export async function startBackfill(ctx: Context, trigger = 'api'): Promise<{ run: RunRow; already_running: false }> {
  activeLane(ctx);
  const id = await startInBackground(ctx, jobs(ctx), 'embedding backfill', ['backfill_already_running'], (hooks) => runBackfill(ctx, { trigger, ...hooks }));
  return { run: latestRunById(ctx, id), already_running: false };
}

/** Ask the backfill to stop after the batch in flight, in whichever process runs it. */
export function cancelBackfill(ctx: Context): CancelAnswer<'run_id'> {
  return cancelInBackground(ctx, jobs(ctx), JOB, 'run_id', {
    none: 'No backfill is running.',
    stops: (where) => `The backfill${where} stops after the batch in flight; vectors already written are kept.`,
  });
}

/** Wait for the background backfill of this process, if any (tests, shutdown). */
export async function backfillSettled(ctx: Context): Promise<void> {
  await jobs(ctx).current?.done;
}

/** Who runs a backfill now (any process), or null. */
export function backfillHolder(ctx: Context): JobHolder | null {
  return jobHolder(ctx, JOB);
}
