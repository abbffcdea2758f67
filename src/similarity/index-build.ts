/**
 * Writing a new generation of the vector index: a worker thread builds it
 * (index-build-worker.ts) so the event loop keeps answering, then this thread
 * renames it into place (index-files.ts) and names it in
 * embedding_index_state, forgetting the changes it holds. One build at a time
 * per data directory, whichever process: it holds the embeddings.index claim.
 * A build never writes a canonical vector, so backfills run beside it: what
 * they write lands above the new file's through_seq and is read from the
 * canonical table until the next generation.
 *
 * `svc embed rebuild` builds from every canonical vector and waits. The other
 * builds start by themselves in the background: a query or a backfill that
 * finds no usable file for a model of at least tuning.vectorIndexFrom vectors
 * builds one; one that finds too many changes pending folds them into a copy
 * of the live file (a compaction, seconds where a build takes minutes).
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Context } from '../context.js';
import { unavailable } from '../errors.js';
import { claimJob, describeHolder, jobRole, releaseJob, type JobHolder } from '../claims/jobs.js';
import { clearIndexState, countChangesSince, countVectors, readIndexState, writeIndexState } from './repo.js';
import { buildPath, filesProblem, graphPath, indexDir, publishFiles, removeOtherGenerations } from './index-files.js';
import { loadLibrary } from './hnsw.js';
import { dropLegacyVec0 } from './legacy-vec0.js';

const JOB = 'embeddings.index';

export interface BuildAnswer {
  model: string;
  vectors: number;
  dimension: number | null;
  ms: number;
}

export const indexRebuildingIn = (holder: JobHolder) =>
  unavailable('index_rebuilding', `The vector index is being rebuilt in ${describeHolder(holder)}; try again when it ends (svc embed status).`, { running_in: holder });

interface Builds {
  /** The build this process runs, if any. */
  current: Promise<unknown> | null;
  workers: Set<Worker>;
  closing: boolean;
}

const builds = (ctx: Context) =>
  ctx.service('similarity.index-builds', (): Builds => {
    const slot: Builds = { current: null, workers: new Set(), closing: false };
    ctx.onClose(async () => {
      slot.closing = true;
      await Promise.all([...slot.workers].map((w) => w.terminate()));
      await slot.current?.catch(() => {});
    });
    return slot;
  });

/** Is a build running in this process? */
export const buildingHere = (ctx: Context) => builds(ctx).current !== null;

interface WorkerDone {
  through_seq: number;
  vectors: number;
  dimension: number | null;
}

function runWorker(ctx: Context, workerData: Record<string, unknown>): Promise<WorkerDone> {
  const slot = builds(ctx);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./index-build-worker.js', import.meta.url), { workerData });
    slot.workers.add(worker);
    let settled = false;
    const end = (fn: () => void) => {
      if (settled) return;
      settled = true;
      slot.workers.delete(worker);
      fn();
    };
    worker.once('message', (m: ({ t: 'done' } & WorkerDone) | { t: 'error'; message: string }) =>
      end(() => (m.t === 'done' ? resolve(m) : reject(unavailable('index_build_failed', `The vector index build failed: ${m.message}`)))),
    );
    worker.once('error', (err) => end(() => reject(unavailable('index_build_failed', `The vector index build failed: ${err.message}`))));
    worker.once('exit', (code) => end(() => reject(unavailable('index_build_failed', `The vector index build stopped early (exit ${code}).`))));
  });
}

/** Build (from every vector, or by folding the pending changes into the live file) and publish; the caller holds the claim. */
async function buildClaimed(ctx: Context, model: string, compact: boolean): Promise<BuildAnswer> {
  const started = Date.now();
  const dir = indexDir(ctx);
  fs.mkdirSync(dir, { recursive: true });
  const state = readIndexState(ctx.db);
  const base = compact && state?.model === model && state.file_id && !filesProblem(dir, state) ? { file: graphPath(dir, state.file_id), through_seq: state.through_seq, dimension: state.dimension } : null;
  const fileId = ctx.random.uuid();
  const out = buildPath(dir, fileId);
  try {
    const done = await runWorker(ctx, { database: ctx.paths.database, model, out, base });
    if (builds(ctx).closing) throw unavailable('index_build_failed', 'The process is stopping.');
    if (done.vectors === 0 || done.dimension === null) {
      clearIndexState(ctx.db);
      removeOtherGenerations(dir, null);
      return { model, vectors: 0, dimension: null, ms: Date.now() - started };
    }
    await dropLegacyVec0(ctx);
    const built_at_utc = ctx.nowIso();
    const sidecar = publishFiles(dir, out, { file_id: fileId, model, dimension: done.dimension, vectors: done.vectors, through_seq: done.through_seq, built_at_utc });
    writeIndexState(ctx.db, { model, dimension: done.dimension, vectors: done.vectors, built_at_utc, file_id: fileId, through_seq: done.through_seq, bytes: sidecar.bytes });
    removeOtherGenerations(dir, fileId);
    return { model, vectors: done.vectors, dimension: done.dimension, ms: Date.now() - started };
  } finally {
    fs.rmSync(out, { force: true });
  }
}

async function claimed<T>(ctx: Context, trigger: string, run: () => Promise<T>): Promise<T | JobHolder> {
  const { holder } = claimJob(ctx, JOB, trigger);
  if (holder) return holder;
  const slot = builds(ctx);
  const work = run();
  slot.current = work;
  try {
    return await work;
  } finally {
    slot.current = null;
    releaseJob(ctx, JOB);
  }
}

/**
 * Build the index of `model` from every canonical vector and wait for it
 * (`svc embed rebuild`, POST /api/embeddings/rebuild); 503 index_rebuilding
 * while a build runs in any process.
 * @example await rebuildIndex(ctx, 'local/lexical-hash-v1') // → {vectors: 1200, dimension: 384, …}
 */
export async function rebuildIndex(ctx: Context, model: string): Promise<BuildAnswer> {
  const lib = await loadLibrary(ctx);
  if (!lib.loaded) throw unavailable('extension_unavailable', `The HNSW library (usearch) did not load (${lib.reason}); similarity uses an exact scan instead.`, { reason: lib.reason });
  const answer = await claimed(ctx, 'rebuild', () => buildClaimed(ctx, model, false));
  if ('pid' in answer) throw indexRebuildingIn(answer);
  return answer;
}

/** Changes since the file past which it is rewritten with them: a tenth of the file, at least 100, at most tuning.vectorIndexPendingMax. */
export function pendingLimit(ctx: Context, fileVectors: number): number {
  return Math.min(ctx.tuning.vectorIndexPendingMax, Math.max(100, Math.floor(fileVectors / 10)));
}

/**
 * What `model`'s index wants now: a build from every vector when it is
 * missing, stale, corrupt or of another model (and the model has enough
 * vectors to want one), a compaction when too many changes are pending, or
 * nothing (also while a build runs in this process, or the library is out).
 */
export async function indexWork(ctx: Context, model: string): Promise<'build' | 'compact' | null> {
  const slot = builds(ctx);
  if (slot.current || slot.closing || !(await loadLibrary(ctx)).loaded) return null;
  const state = readIndexState(ctx.db);
  if (state?.model === model && filesProblem(indexDir(ctx), state) === null) {
    return countChangesSince(ctx.db, model, state.through_seq) > pendingLimit(ctx, state.vectors) ? 'compact' : null;
  }
  return countVectors(ctx.db, model) >= ctx.tuning.vectorIndexFrom ? 'build' : null;
}

/**
 * Do what indexWork says, in the background, or to its end with `wait`. A
 * command-line process starts nothing in the background (it would end before
 * the build): the server or the daemon does, or svc embed backfill and svc
 * embed rebuild, which wait. Never throws; does nothing while a build runs
 * in any process.
 */
export async function maintainIndex(ctx: Context, model: string, options: { wait?: boolean } = {}): Promise<void> {
  if (!options.wait && jobRole(ctx) === 'cli') return;
  const work = await indexWork(ctx, model);
  if (!work) return;
  const run = claimed(ctx, work, () => buildClaimed(ctx, model, work === 'compact')).catch((err: unknown) => {
    if (!builds(ctx).closing) ctx.log.warn('vector index build failed', { error: err instanceof Error ? err.message : String(err) });
  });
  if (options.wait) await run;
}

/**
 * Forget the index: its state row and its files. For an erase of the papers
 * and a restore, whose vectors are not the ones the file was built from; the
 * next query or backfill builds it again.
 */
export function dropIndex(ctx: Context): void {
  clearIndexState(ctx.db);
  removeOtherGenerations(indexDir(ctx), null);
}

/** Wait for this process's background build, if any (tests, benchmarks). */
export async function indexSettled(ctx: Context): Promise<void> {
  await builds(ctx).current?.catch(() => {});
}
