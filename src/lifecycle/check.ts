/**
 * A bounded lifecycle check: the least recently checked papers, a slice at a
 * time (each slice asked of every source that can say something about it),
 * results written after each slice so a stopped or interrupted check resumes
 * where it left off. `limit` papers per pass; run_until_done keeps passing
 * until every paper has been looked at in this run. A stop request (from any
 * process) is honoured after the current slice.
 */
import type { Context } from '../context.js';
import { conflict } from '../errors.js';
import { eventsFrom } from './events.js';
import { askAboutSlice, buildClients, SLICE_SIZE, type Clients, type FreshRecords, type SliceAnswer } from './lookups.js';
import type { Asked } from '../wire/lifecycle.js';
import * as repo from './repo.js';

export const CHECK_LIMIT = { min: 1, max: 5000, default: 1000 };
export { SLICE_SIZE };

export interface CheckOptions {
  limit: number;
  runUntilDone: boolean;
  /** Papers asked about together (tests make it small). */
  sliceSize?: number;
}

export interface CheckProgress {
  run_id: number;
  pass: number;
  slice: number;
  checked: number;
  failed: number;
  events: number;
  remaining: number;
}

interface Runner {
  active: Map<number, { done: Promise<repo.RunRow>; abort: AbortController }>;
}

function runner(ctx: Context): Runner {
  return ctx.service('lifecycle.runner', () => {
    const r: Runner = { active: new Map() };
    ctx.onClose(async () => {
      for (const { abort, done } of r.active.values()) {
        abort.abort(new Error('closing'));
        await done.catch(() => undefined);
      }
    });
    return r;
  });
}

function outcomeOf(asked: Asked[]): { outcome: repo.CheckRow['outcome']; error: string | null } {
  const tried = asked.filter((a) => a.outcome !== 'skipped');
  if (asked.length === 0) return { outcome: 'nothing_to_ask', error: null };
  const failed = tried.filter((a) => a.outcome === 'failed');
  const errors = [...asked.filter((a) => a.reason).map((a) => `${a.source}: ${a.reason}`)].join('; ') || null;
  if (tried.length === 0 || failed.length === tried.length) return { outcome: 'failed', error: errors };
  // A source not asked for want of a key is named in asked, but does not make the check partial.
  return { outcome: failed.length ? 'partial' : 'checked', error: errors };
}

export interface SliceTotals {
  checked: number;
  failed: number;
  events: number;
  /** "doi:…: source: reason" of each paper no source could answer, as recorded on its check. */
  errors: string[];
}

/**
 * Ask the sources about one slice and record what came back: the events and
 * each paper's check, in one transaction (with `alsoInTransaction`, e.g. a
 * run's progress). A paper every source failed on keeps its last successful
 * check time, so it stays first in line.
 */
export async function checkSlice(ctx: Context, clients: Clients, docs: repo.TargetDocument[], runId: number | null, signal: AbortSignal, alsoInTransaction?: (added: SliceTotals) => void, fresh?: FreshRecords): Promise<SliceTotals> {
  const findPreprints = (doi: string | undefined, arxiv: string | undefined) => repo.documentsByIdentifier(ctx.db, doi, arxiv);
  const answer = await askAboutSlice(clients, docs, signal, fresh);
  if (answer.interrupted) {
    // Only an abandoned slice keeps its partial answers (a closing process writes nothing more).
    if (!(signal.reason instanceof SliceAbandoned)) throw signal.reason;
    // Papers no source answered are not recorded: they stay first in line for the next check.
    const answered = (doc: repo.TargetDocument) => (answer.asked.get(doc.id) ?? []).some((a) => a.outcome === 'answered' || a.outcome === 'not_found');
    recordSlice(ctx, answer, docs.filter(answered), runId, findPreprints, alsoInTransaction);
    throw signal.reason;
  }
  return recordSlice(ctx, answer, docs, runId, findPreprints, alsoInTransaction);
}

/** A slice abandoned on purpose (a second Ctrl-C): its lookups stop now, what answered is recorded, the run ends interrupted. */
export class SliceAbandoned extends Error {
  constructor() {
    super('abandoned with a second Ctrl-C; the papers the sources had answered were recorded, the rest stay first in line');
    this.name = 'SliceAbandoned';
  }
}

function recordSlice(ctx: Context, answer: SliceAnswer, docs: repo.TargetDocument[], runId: number | null, findPreprints: Parameters<typeof eventsFrom>[3], alsoInTransaction?: (added: SliceTotals) => void): SliceTotals {
  const now = ctx.nowIso();
  const added: SliceTotals = { checked: 0, failed: 0, events: 0, errors: [] };
  ctx.db.transaction(() => {
    for (const doc of docs) {
      for (const { source, record } of answer.records.get(doc.id) ?? []) {
        for (const event of eventsFrom(doc, source, record, findPreprints)) if (repo.insertEvent(ctx.db, event, runId, now)) added.events++;
      }
      const asked = answer.asked.get(doc.id) ?? [];
      const { outcome, error } = outcomeOf(asked);
      repo.recordCheck(ctx.db, doc.id, runId, outcome, asked, error, now);
      if (outcome === 'failed') {
        added.failed++;
        if (error) added.errors.push(`${doc.doi ? `doi:${doc.doi}` : doc.arxiv_id ? `arXiv:${doc.arxiv_id}` : doc.pmid ? `PMID ${doc.pmid}` : `paper ${doc.id}`}: ${error}`);
      } else added.checked++;
    }
    alsoInTransaction?.(added);
  })();
  return added;
}

async function runSlices(ctx: Context, runId: number, options: CheckOptions, signal: AbortSignal, onProgress?: (p: CheckProgress) => void): Promise<'completed' | 'stopped'> {
  const clients = buildClients(ctx, signal);
  const totals = { checked: 0, failed: 0, events: 0 };
  let slice = 0;
  for (let pass = 1; ; pass++) {
    let inPass = 0;
    while (inPass < options.limit) {
      if (repo.getRun(ctx.db, runId)?.stop_requested_at_utc) return 'stopped';
      const docs = repo.nextDocuments(ctx.db, runId, Math.min(options.sliceSize ?? SLICE_SIZE, options.limit - inPass));
      if (docs.length === 0) return 'completed';
      const added = await checkSlice(ctx, clients, docs, runId, signal, (a) => repo.progressRun(ctx.db, runId, a, ctx.nowIso()));
      inPass += docs.length;
      slice++;
      totals.checked += added.checked;
      totals.failed += added.failed;
      totals.events += added.events;
      onProgress?.({ run_id: runId, pass, slice, ...totals, remaining: repo.remainingInRun(ctx.db, runId) });
    }
    if (!options.runUntilDone) return 'completed';
  }
}

/** The lifecycle checks this process runs now (their run ids). */
export function checksRunningHere(ctx: Context): number[] {
  return [...runner(ctx).active.keys()];
}

/** A running check whose owner has not been seen for the stale interval is over (status reads settle it too). */
export function settleStale(ctx: Context): void {
  const running = repo.runningRun(ctx.db);
  if (!running || runner(ctx).active.has(running.id)) return;
  const seen = Date.parse(running.last_seen_at_utc ?? running.started_at_utc);
  if (ctx.clock.now().getTime() - seen > ctx.tuning.executionStaleMs) repo.finishRun(ctx.db, running.id, 'interrupted', 'its owner went away', ctx.nowIso());
}

/** Start a check in the background; answers the run row at once and a promise of its end. */
export function startCheck(ctx: Context, options: CheckOptions, onProgress?: (p: CheckProgress) => void): { run: repo.RunRow; done: Promise<repo.RunRow> } {
  settleStale(ctx);
  const running = repo.runningRun(ctx.db);
  if (running) throw conflict('lifecycle_check_running', `Lifecycle check ${running.id} is running; POST /api/lifecycle/stop (or Ctrl-C in its terminal) stops it after the current slice.`, { run_id: running.id });
  const runId = repo.insertRun(ctx.db, options.limit, options.runUntilDone, ctx.runtimeId, ctx.nowIso());
  const abort = new AbortController();
  const heartbeat = setInterval(() => repo.heartbeatRun(ctx.db, runId, ctx.nowIso()), ctx.tuning.executionHeartbeatMs);
  heartbeat.unref();
  const done = (async () => {
    try {
      const status = await runSlices(ctx, runId, options, abort.signal, onProgress);
      repo.finishRun(ctx.db, runId, status, null, ctx.nowIso());
    } catch (err) {
      const closing = abort.signal.aborted;
      if (!closing) ctx.log.error(`lifecycle check ${runId} failed`, { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
      const why = abort.signal.reason instanceof SliceAbandoned ? abort.signal.reason.message : 'the process closed';
      repo.finishRun(ctx.db, runId, closing ? 'interrupted' : 'failed', closing ? why : err instanceof Error ? err.message : String(err), ctx.nowIso());
    } finally {
      clearInterval(heartbeat);
      runner(ctx).active.delete(runId);
    }
    return repo.getRun(ctx.db, runId)!;
  })();
  runner(ctx).active.set(runId, { done, abort });
  return { run: repo.getRun(ctx.db, runId)!, done };
}

/**
 * A second Ctrl-C: the lookups in flight of this process's own check are aborted now; what the
 * sources had answered is recorded and the run ends interrupted. False when the run is not this
 * process's (POST /api/lifecycle/stop and `svc lifecycle stop` keep "after the current slice").
 */
export function abandonSlice(ctx: Context, runId: number): boolean {
  const active = runner(ctx).active.get(runId);
  if (!active) return false;
  active.abort.abort(new SliceAbandoned());
  return true;
}

/**
 * The owner quits at once (a third Ctrl-C, when abandoning the slice did not end it): the run ends interrupted now, synchronously, so the
 * next check or status does not see it running until the stale interval passes (it refused a new
 * check with "Ctrl-C in its terminal" for a terminal that had already quit).
 */
export function abandonCheck(ctx: Context, runId: number): void {
  repo.finishRun(ctx.db, runId, 'interrupted', 'quit at once with a third Ctrl-C; the slice in flight was not written', ctx.nowIso());
}

export function stopCheck(ctx: Context) {
  settleStale(ctx);
  const running = repo.runningRun(ctx.db);
  if (!running) return { stop_requested: false, run_id: null, message: 'No lifecycle check is running.' };
  repo.requestStop(ctx.db, running.id, ctx.nowIso());
  return { stop_requested: true, run_id: running.id, message: 'The check stops after the slice in flight; what it has checked is kept and the next check resumes from the least recently checked papers.' };
}
