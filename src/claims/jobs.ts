/**
 * One at a time across processes: the claim of a long job of the data
 * directory (the link scan, the embedding backfill, a vector index rebuild)
 * or of a conversation's assistant turn, one row per job in job_claims, taken in an immediate write transaction so that of two
 * processes starting at once exactly one wins. The row names its owner (pid,
 * runtime id, role), so a refused start and a status read say which process
 * runs the job; a row whose process is gone, or from before the last boot, is
 * taken over (claims/staleness.ts). A cancel from any process sets the
 * row's flag; the job reads it between batches (jobCancelPoll). A release
 * the database refuses (busy past its timeout) is owed, not thrown: it is
 * tried again on a timer and at exit, so the row does not keep the job
 * looking held for as long as the process lives.
 */
import type { Database } from 'better-sqlite3';
import type { Context } from '../context.js';
import { conflict, type SvcError } from '../errors.js';
import { claimLive, claimStaleness, ownIdentity, wallNow } from './staleness.js';
import type { PidProbe } from '../util/pid.js';

/**
 * embeddings.index: a rebuild of the vector index, which must not run beside
 * a backfill (it writes to the index); assistant_turn:N: the running turn of
 * conversation N (assistant/registry.ts).
 */
export type JobName = 'links.scan' | 'embeddings.backfill' | 'embeddings.index' | `${typeof TURN_PREFIX}${number}`;

/** The job name prefix of assistant turns; admin/tables.ts files these rows with the conversations. */
export const TURN_PREFIX = 'assistant_turn:';

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
  /** Who the process is beyond its pid (claims/staleness.ts); null where the system does not say, and in rows from before. */
  boot_id: string | null;
  pid_start: number | null;
}

/** Who runs a job now, as answers show it. */
export interface JobHolder {
  pid: number;
  runtime_id: string;
  /** server, daemon, fallback (a window's backend) or cli. */
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

/** The jobs this process holds now (links.scan, embeddings.backfill, assistant_turn:N…). */
export function jobsHeldHere(ctx: Context): string[] {
  return [...heldHere(ctx)];
}

/** Held by a live process: this one (another start here is refused too), or another that runs and started after boot. */
const held = (ctx: Context, row: ClaimRow | undefined, alive?: PidProbe): row is ClaimRow =>
  row !== undefined && (row.runtime_id === ctx.runtimeId ? heldHere(ctx).has(row.job) : claimLive(row, alive));

/** The role this process records in its claims: a server start sets server or daemon; otherwise cli. */
const roleOf = (ctx: Context) => ctx.service('job-claims.role', () => ({ role: 'cli' }));

export function setJobRole(ctx: Context, role: string): void {
  roleOf(ctx).role = role;
}

/** server, daemon or cli. */
export function jobRole(ctx: Context): string {
  return roleOf(ctx).role;
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
  const who = h.role === 'cli' ? 'a command-line svc' : h.role === 'fallback' ? "a window's backend" : `the ${h.role}`;
  return `${who} (pid ${h.pid}) since ${h.since_utc}`;
}

/**
 * Take the job's claim, or answer who holds it (`job`: the one held, this one or one of
 * `blockedBy`, jobs that must not run beside it, checked in the same transaction). A stale claim is replaced.
 */
export function claimJob(
  ctx: Context,
  job: JobName,
  detail: string | null = null,
  alive: PidProbe | undefined = undefined,
  blockedBy: readonly JobName[] = [],
): { holder: JobHolder | null; job?: JobName } {
  releaseOnClose(ctx);
  return ctx.db
    .transaction(() => {
      for (const name of [job, ...blockedBy]) {
        const row = read(ctx, name);
        if (held(ctx, row, alive)) return { holder: view(ctx, row), job: name };
      }
      const me = ownIdentity();
      ctx.db
        .prepare(
          `INSERT OR REPLACE INTO job_claims (job, pid, runtime_id, role, detail, run_id, claimed_at_ms, claimed_at_utc, cancel_requested, boot_id, pid_start)
           VALUES (?, ?, ?, ?, ?, NULL, ?, ?, 0, ?, ?)`,
        )
        .run(job, process.pid, ctx.runtimeId, roleOf(ctx).role, detail, wallNow(), ctx.nowIso(), me?.boot_id ?? null, me?.pid_start ?? null);
      heldHere(ctx).add(job);
      owedReleases(ctx).jobs.delete(job); // the row owed is replaced by this claim
      return { holder: null };
    })
    .immediate();
}

/** Note the run row of a claim this process holds. */
export function noteJobRun(ctx: Context, job: JobName, runId: number): void {
  ctx.db.prepare('UPDATE job_claims SET run_id = ? WHERE job = ? AND runtime_id = ?').run(runId, job, ctx.runtimeId);
}

/**
 * Drop the claim only when this process holds it (a takeover may have
 * replaced it). Never throws: the job's own outcome stands whatever the
 * database says, and a release it refused is owed (settleReleases).
 */
export function releaseJob(ctx: Context, job: JobName): void {
  heldHere(ctx).delete(job);
  const owed = owedReleases(ctx);
  owed.db ??= ctx.db;
  owed.jobs.add(job);
  settleReleases(ctx, owed);
}

/** Releases this process owes: the database it holds them in, the jobs, the retry timer and exit hook while any is owed. */
interface OwedReleases {
  db?: Database;
  jobs: Set<string>;
  timer?: NodeJS.Timeout;
  atExit?: () => void;
}

const owedReleases = (ctx: Context) => ctx.service('job-claims.owed', (): OwedReleases => ({ jobs: new Set() }));

/**
 * Try each owed release; keep those the database refused, for a timer
 * (unref'd: it never keeps a process alive) and for process exit. Works on
 * the database it was given, never reopening a closed one; a job claimed
 * again here meanwhile is not released (its row is the new claim).
 */
function settleReleases(ctx: Context, owed: OwedReleases): void {
  const db = owed.db;
  for (const job of owed.jobs) {
    if (!db?.open || heldHere(ctx).has(job)) {
      owed.jobs.delete(job);
      continue;
    }
    try {
      db.prepare('DELETE FROM job_claims WHERE job = ? AND runtime_id = ?').run(job, ctx.runtimeId);
      owed.jobs.delete(job);
    } catch (err) {
      if (!owed.timer) ctx.log.warn('claim release failed; retrying', { job, error: String(err) });
    }
  }
  if (owed.timer) clearTimeout(owed.timer);
  owed.timer = undefined;
  if (owed.jobs.size === 0) {
    if (owed.atExit) process.off('exit', owed.atExit);
    owed.atExit = undefined;
    return;
  }
  owed.timer = setTimeout(() => settleReleases(ctx, owed), ctx.tuning.claimReleaseRetryMs);
  owed.timer.unref();
  if (!owed.atExit) {
    owed.atExit = () => {
      if (owed.timer) clearTimeout(owed.timer);
      owed.timer = undefined;
      for (const job of owed.jobs) {
        try {
          if (db?.open) db.prepare('DELETE FROM job_claims WHERE job = ? AND runtime_id = ?').run(job, ctx.runtimeId);
        } catch {
          // still refused: the row names a process that is gone, which any claim takes over
        }
      }
    };
    process.on('exit', owed.atExit);
  }
}

/** The live holder of a job, or null (nobody, or a stale claim). */
export function jobHolder(ctx: Context, job: JobName, alive?: PidProbe): JobHolder | null {
  const row = read(ctx, job);
  return held(ctx, row, alive) ? view(ctx, row) : null;
}

/** A claim another process left behind: its pid no longer runs, or it was written before this boot. */
export interface StaleClaim {
  pid: number;
  claimed_at_ms: number;
  reason: 'process_gone' | 'before_boot';
}

/** What a cancel asked: the live holder (null when none), whether it had been asked already, or the stale claim nobody runs. */
export interface JobCancelAsk {
  holder: JobHolder | null;
  already: boolean;
  stale: StaleClaim | null;
}

/** Ask the job to stop wherever it runs, judged and written in one write transaction. */
export function askJobCancel(ctx: Context, job: JobName, alive?: PidProbe): JobCancelAsk {
  return ctx.db
    .transaction((): JobCancelAsk => {
      const row = read(ctx, job);
      if (!row) return { holder: null, already: false, stale: null };
      const claim: ClaimRow = row; // (held() narrows row away below)
      const { pid, runtime_id, claimed_at_ms } = claim;
      if (!held(ctx, row, alive)) {
        // A row of this runtime that it no longer holds is a leftover, not another process's.
        if (runtime_id === ctx.runtimeId) return { holder: null, already: false, stale: null };
        const reason = claimStaleness(claim, alive) ?? 'process_gone';
        return { holder: null, already: false, stale: { pid, claimed_at_ms, reason } };
      }
      ctx.db.prepare('UPDATE job_claims SET cancel_requested = 1 WHERE job = ? AND runtime_id = ?').run(job, row.runtime_id);
      return { holder: view(ctx, { ...row, cancel_requested: 1 }), already: row.cancel_requested === 1, stale: null };
    })
    .immediate();
}

/** Ask the job to stop wherever it runs; answers its holder (null when none runs). */
export function requestJobCancel(ctx: Context, job: JobName, alive?: PidProbe): JobHolder | null {
  return askJobCancel(ctx, job, alive).holder;
}

/** The jobs named `prefix…` that this process holds and another process asked to stop (one read for all of them). */
export function cancelRequestedJobs(ctx: Context, prefix: string): string[] {
  return ctx.db
    .prepare('SELECT job FROM job_claims WHERE runtime_id = ? AND cancel_requested = 1 AND substr(job, 1, ?) = ?')
    .pluck()
    .all(ctx.runtimeId, prefix.length, prefix) as string[];
}

/** Every job named `prefix…` that has a claim row, live or stale, whoever wrote it. */
export function claimedJobs(ctx: Context, prefix: string): string[] {
  return ctx.db.prepare('SELECT job FROM job_claims WHERE substr(job, 1, ?) = ? ORDER BY job').pluck().all(prefix.length, prefix) as string[];
}

/** Drop a job's row whoever wrote it: for a job that can no longer run (its conversation was deleted). */
export function forgetJob(ctx: Context, job: JobName): void {
  heldHere(ctx).delete(job);
  ctx.db.prepare('DELETE FROM job_claims WHERE job = ?').run(job);
}

/**
 * For the job's loop: true once a cancel was asked (from any process) or this
 * process no longer holds the claim. Reads the row at most every `everyMs`, so
 * the check can sit in a tight loop.
 */
export function jobCancelPoll(ctx: Context, job: JobName, everyMs = 200): () => boolean {
  let last = -Infinity;
  let stop = false;
  return () => {
    if (stop) return true;
    const now = performance.now(); // monotonic: a wall clock set back must not stop the reads
    if (now - last < everyMs) return false;
    last = now;
    const row = read(ctx, job);
    stop = !row || row.runtime_id !== ctx.runtimeId || row.cancel_requested === 1;
    return stop;
  };
}

/**
 * A process that closes gives up its claims (a job that did not stop in time
 * must not hold the data directory). Closers run last registered first: a
 * service that waits for its jobs on close registers this before its own closer.
 */
export function releaseOnClose(ctx: Context): void {
  ctx.service('job-claims.release', () => {
    ctx.onClose(() => {
      const owed = owedReleases(ctx);
      try {
        ctx.db.prepare('DELETE FROM job_claims WHERE runtime_id = ?').run(ctx.runtimeId);
        owed.jobs.clear();
        if (owed.atExit) process.off('exit', owed.atExit);
        owed.atExit = undefined;
      } catch {
        // the database is already closed or erased: nothing is held; or it stayed busy: the rows name a
        // process that is closing its database, and are taken over once it has exited
      }
      if (owed.timer) clearTimeout(owed.timer);
      owed.timer = undefined;
    });
    return true;
  });
}
