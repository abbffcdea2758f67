/**
 * One at a time across processes: the claim of a long job of the data
 * directory (the link scan, the embedding backfill), one row per job in
 * job_claims, taken in an immediate write transaction so that of two
 * processes starting at once exactly one wins. The row names its owner (pid,
 * runtime id, role), so a refused start and a status read say which process
 * runs the job; a row whose process is gone, or from before the last boot, is
 * taken over (util/process-claim.ts). A cancel from any process sets the
 * row's flag; the job reads it between batches (jobCancelPoll).
 */
import type { Context } from '../context.js';
import { conflict, type SvcError } from '../errors.js';
import { claimLive, wallNow } from '../util/process-claim.js';
import { isPidAlive, type PidProbe } from '../util/pid.js';

export type JobName = 'links.scan' | 'embeddings.backfill';

interface ClaimRow {
  job: string;
  pid: number;
  runtime_id: string;
  role: string;
  detail: string | null;
  run_id: number | null;
  claimed_at_ms: number;
  claimed_at_utc: string;
  cancel_requested: number;
}

/** Who runs a job now, as answers show it. */
export interface JobHolder {
  pid: number;
  runtime_id: string;
  /** server, daemon or cli. */
  role: string;
  /** What started it (a backfill's trigger), when the job says. */
  detail: string | null;
  run_id: number | null;
  since_utc: string;
  cancel_requested: boolean;
  /** True when the answering process runs it. */
  here: boolean;
}

const read = (ctx: Context, job: JobName) => ctx.db.prepare('SELECT * FROM job_claims WHERE job = ?').get(job) as ClaimRow | undefined;

const view = (ctx: Context, row: ClaimRow): JobHolder => ({
  pid: row.pid,
  runtime_id: row.runtime_id,
  role: row.role,
  detail: row.detail,
  run_id: row.run_id,
  since_utc: row.claimed_at_utc,
  cancel_requested: row.cancel_requested === 1,
  here: row.runtime_id === ctx.runtimeId,
});

/** The jobs this process holds now (a row naming this runtime without one here is a leftover, e.g. from a restored backup). */
const heldHere = (ctx: Context) => ctx.service('job-claims.held', () => new Set<string>());

/** Held by a live process: this one (another start here is refused too), or another that runs and started after boot. */
const held = (ctx: Context, row: ClaimRow | undefined, alive: PidProbe): row is ClaimRow =>
  row !== undefined && (row.runtime_id === ctx.runtimeId ? heldHere(ctx).has(row.job) : claimLive(row, alive));

/** The role this process records in its claims: a server start sets server or daemon; otherwise cli. */
const roleOf = (ctx: Context) => ctx.service('job-claims.role', () => ({ role: 'cli' }));

export function setJobRole(ctx: Context, role: string): void {
  roleOf(ctx).role = role;
}

/** Whether the job has a claim row at all, live or stale. */
export function jobClaimed(ctx: Context, job: JobName): boolean {
  return read(ctx, job) !== undefined;
}

/** The refusal of a second start, naming the process that runs the job (409 with conflict=reason). */
export function jobConflict(reason: string, message: string, holder: JobHolder, extra: Record<string, unknown>): SvcError {
  return conflict(reason, message, { conflict: reason, ...extra, running_in: holder });
}

/** A phrase naming the process that runs a job, for messages. */
export function describeHolder(h: JobHolder): string {
  if (h.here) return 'this process';
  const who = h.role === 'cli' ? 'a command-line svc' : `the ${h.role}`;
  return `${who} (pid ${h.pid}) since ${h.since_utc}`;
}

/** Take the job's claim, or answer who holds it. A stale claim is replaced. */
export function claimJob(ctx: Context, job: JobName, detail: string | null = null, alive: PidProbe = isPidAlive): { holder: JobHolder | null } {
  releaseOnClose(ctx);
  return ctx.db
    .transaction(() => {
      const row = read(ctx, job);
      if (held(ctx, row, alive)) return { holder: view(ctx, row) };
      ctx.db
        .prepare(
          `INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, detail, run_id, claimed_at_ms, claimed_at_utc, cancel_requested)
           VALUES (?, ?, ?, ?, ?, NULL, ?, ?, 0)`,
        )
        .run(job, process.pid, ctx.runtimeId, roleOf(ctx).role, detail, wallNow(), ctx.nowIso());
      heldHere(ctx).add(job);
      return { holder: null };
    })
    .immediate();
}

/** Note the run row of a claim this process holds. */
export function noteJobRun(ctx: Context, job: JobName, runId: number): void {
  ctx.db.prepare('UPDATE job_claims SET run_id = ? WHERE job = ? AND runtime_id = ?').run(runId, job, ctx.runtimeId);
}

/** Drop the claim only when this process holds it (a takeover may have replaced it). */
export function releaseJob(ctx: Context, job: JobName): void {
  heldHere(ctx).delete(job);
  ctx.db.prepare('DELETE FROM job_claims WHERE job = ? AND runtime_id = ?').run(job, ctx.runtimeId);
}

/** The live holder of a job, or null (nobody, or a stale claim). */
export function jobHolder(ctx: Context, job: JobName, alive: PidProbe = isPidAlive): JobHolder | null {
  const row = read(ctx, job);
  return held(ctx, row, alive) ? view(ctx, row) : null;
}

/** Ask the job to stop wherever it runs; answers its holder (null when none runs). */
export function requestJobCancel(ctx: Context, job: JobName, alive: PidProbe = isPidAlive): JobHolder | null {
  return ctx.db
    .transaction(() => {
      const row = read(ctx, job);
      if (!held(ctx, row, alive)) return null;
      ctx.db.prepare('UPDATE job_claims SET cancel_requested = 1 WHERE job = ? AND runtime_id = ?').run(job, row.runtime_id);
      return view(ctx, { ...row, cancel_requested: 1 });
    })
    .immediate();
}

/**
 * For the job's loop: true once a cancel was asked (from any process) or this
 * process no longer holds the claim. Reads the row at most every `everyMs`, so
 * the check can sit in a tight loop.
 */
export function jobCancelPoll(ctx: Context, job: JobName, everyMs = 200): () => boolean {
  let last = 0;
  let stop = false;
  return () => {
    if (stop) return true;
    const now = wallNow();
    if (now - last < everyMs) return false;
    last = now;
    const row = read(ctx, job);
    stop = !row || row.runtime_id !== ctx.runtimeId || row.cancel_requested === 1;
    return stop;
  };
}

/** A process that closes gives up its claims (a job that did not stop in time must not hold the data directory). */
function releaseOnClose(ctx: Context): void {
  ctx.service('job-claims.release', () => {
    ctx.onClose(() => {
      try {
        ctx.db.prepare('DELETE FROM job_claims WHERE runtime_id = ?').run(ctx.runtimeId);
      } catch {
        // the database is already closed or erased: nothing is held
      }
    });
    return true;
  });
}
