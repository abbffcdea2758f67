/**
 * Runs one execution: asks every source at once (each within its own rate
 * limit), merges each source's records into the corpus as soon as it answers,
 * accounts for it, and settles the execution's status. Cancel is cooperative:
 * the abort signal reaches every fetch, and what was found is kept.
 */
import type { Context } from '../context.js';
import { flushSearchIndex } from '../corpus/search-index.js';
import { startCheckpointer } from '../db/checkpointer.js';
import { capNoteText, type CapNote } from '../sources/cap-record.js';
import { searchSource, type SourceOutcome } from '../sources/driver.js';
import { findSource } from '../sources/index.js';
import { looksOffline, type NetworkKind } from '../sources/net-cause.js';
import { NOT_ANSWERED, type NormalizedRecord, type ZeroReason } from '../sources/types.js';
import { checkFollowedPapers } from '../follow/check.js';
import { runAfterRunSteps } from './after-run.js';
import { appendEvent } from './events.js';
import { writeReportFile } from './report.js';
import { nothingReason } from './zero-reasons.js';
import { finishExecution, finishSource, markSourceRunning, refreshCounts, settleUnfinishedSources, type ExecutionStatus } from './repo.js';
import { searchWords, type RunSpec } from './request.js';
import { count } from '../util/words.js';
import { ioTurn } from '../util/io-turn.js';
import { STORE_AUTHORS, STORE_BATCH, storeRecords } from './store-records.js';

export interface RunOptions {
  signal: AbortSignal;
  ephemeralCredentials: Record<string, string>;
}

interface SourceSummary {
  source: string;
  cancelled: boolean;
  answered: boolean;
  records: number;
  zeroReason: ZeroReason | null;
  message: string | null;
  network?: NetworkKind;
  /** The cause as the wire gave it, e.g. "ENOTFOUND export.arxiv.org". */
  networkText?: string;
}

/** The stored account of a source: everything but the records themselves. */
function outcomeForRecord(outcome: SourceOutcome) {
  const { records: _records, ...rest } = outcome;
  return rest;
}

/** From a process's first run on, WAL checkpoints leave the event loop (db/checkpointer.ts) until the Context closes. */
function checkpointInBackground(ctx: Context): void {
  ctx.service('db-checkpointer', () => {
    const checkpointer = startCheckpointer(ctx.db, ctx.paths.database);
    ctx.onClose(() => checkpointer.stop());
    return checkpointer;
  });
}

async function runSource(ctx: Context, executionId: number, spec: RunSpec, sourceId: string, options: RunOptions): Promise<SourceSummary> {
  const entry = findSource(sourceId)!;
  checkpointInBackground(ctx);
  markSourceRunning(ctx.db, executionId, sourceId, ctx.nowIso());
  appendEvent(ctx, executionId, 'source_started', `${entry.name}: asking`, { source: sourceId });
  // Pages are stored as they arrive, a few hundred ordinary records at a time (small transactions
  // cost more than they save), a page of collaboration papers as it comes (store-records.ts); the
  // rest when the source is done, cancelled or failing.
  let stored = 0;
  let newCount = 0;
  let buffer: NormalizedRecord[] = [];
  let bufferedAuthors = 0;
  const store = async () => {
    if (buffer.length === 0) return;
    const records = buffer;
    buffer = [];
    bufferedAuthors = 0;
    const merged = await storeRecords(ctx, executionId, sourceId, records, stored);
    stored += records.length;
    newCount += merged.filter((m) => m.isNew).length;
  };
  const storePage = async (records: NormalizedRecord[]) => {
    buffer.push(...records);
    for (const record of records) bufferedAuthors += record.authors.length;
    if (buffer.length >= STORE_BATCH || bufferedAuthors >= STORE_AUTHORS) await store();
  };
  const outcome = await searchSource(
    ctx,
    entry,
    { query: spec.query, keywords: spec.keywords, dateFrom: spec.dateFrom ?? undefined, dateTo: spec.dateTo ?? undefined, maxResults: spec.maxResults, author: spec.author ?? undefined, authorOrcid: spec.authorOrcid ?? undefined },
    {
      signal: options.signal,
      ephemeralCredentials: options.ephemeralCredentials,
      onPage: async (p) => {
        await storePage(p.records);
        appendEvent(ctx, executionId, 'source_page', `${entry.name}: page ${p.page}, ${p.kept} kept of ${p.received}${p.total !== undefined ? ` (${p.total} reported)` : ''}`, {
          source: sourceId,
          data: { page: p.page, received: p.received, kept: p.kept, total: p.total ?? null },
        });
        if (p.capped.length > 0) warnCapped(ctx, executionId, entry.name, sourceId, p.page, p.capped);
      },
    },
  );
  await store();
  const answered = outcome.records.length > 0 || (outcome.zeroReason !== null && !NOT_ANSWERED.includes(outcome.zeroReason) && !outcome.cancelled);
  finishSource(ctx.db, executionId, sourceId, {
    status: outcome.cancelled ? 'cancelled' : answered ? 'answered' : 'not_answered',
    recordCount: outcome.records.length,
    newCount,
    zeroReason: outcome.zeroReason,
    message: outcome.message,
    pages: outcome.pages,
    outcome: outcomeForRecord(outcome),
    startedAt: outcome.startedAtUtc,
    finishedAt: outcome.finishedAtUtc,
    ms: outcome.ms,
  });
  refreshCounts(ctx.db, executionId);
  const summary = outcome.records.length
    ? `${entry.name}: ${count(outcome.records.length, 'record')} (${newCount} new)${outcome.partialFailure ? `; ${outcome.message}` : ''}`
    : `${entry.name}: nothing (${nothingReason(outcome.zeroReason, null, outcome.cancelled)}) — ${outcome.message}`;
  appendEvent(ctx, executionId, 'source_finished', summary, {
    source: sourceId,
    level: outcome.records.length === 0 && !answered ? 'warn' : 'info',
    data: { records: outcome.records.length, new: newCount, zero_reason: outcome.zeroReason, pages: outcome.pages, ms: outcome.ms, cancelled: outcome.cancelled },
  });
  return { source: sourceId, cancelled: outcome.cancelled, answered, records: outcome.records.length, zeroReason: outcome.zeroReason, message: outcome.message, network: outcome.evidence.network, networkText: outcome.evidence.network ? `${outcome.evidence.exception_class} ${hostOf(outcome.request.base_url)}` : undefined };
}

export async function runExecution(ctx: Context, executionId: number, spec: RunSpec, options: RunOptions): Promise<ExecutionStatus> {
  const window = spec.dateFrom || spec.dateTo ? ` from ${spec.dateFrom ?? 'the start'} to ${spec.dateTo ?? 'today'}` : '';
  appendEvent(ctx, executionId, 'execution_started', `${spec.type} ${searchWords(spec)} on ${spec.repositories.join(', ')}${window}, up to ${spec.maxResults} per source`, {
    data: { repositories: spec.repositories, query: spec.query, max_results: spec.maxResults },
  });
  let summaries: SourceSummary[] = [];
  let status: ExecutionStatus;
  let error: string | null = null;
  try {
    // Every source is waited for, even when one of them failed on svc's side: a run never settles while a source still runs.
    const settled = await Promise.allSettled(spec.repositories.map((id) => runSource(ctx, executionId, spec, id, options)));
    const crashed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (crashed) throw crashed.reason;
    summaries = settled.map((s) => (s as PromiseFulfilledResult<SourceSummary>).value);
    if (options.signal.aborted) status = 'cancelled';
    else if (summaries.every((s) => !s.answered)) {
      status = 'failed';
      error = summaries.every((s) => looksOffline(s.network))
        ? `This machine looks offline: no source could be reached (${[...new Set(summaries.map((s) => s.networkText))].join('; ')}). Check the network connection, then run it again.`
        : `No source answered: ${summaries.map((s) => `${s.source} ${s.zeroReason}`).join(', ')}.`;
    } else status = 'completed';
  } catch (err) {
    status = options.signal.aborted ? 'cancelled' : 'failed';
    error = status === 'failed' ? `The run stopped on an unexpected error (${err instanceof Error ? err.name : 'Error'}).` : null;
    ctx.log.error(`execution ${executionId} failed`, { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
    // The sources whose answer svc could not store: the search record says so instead of leaving them "running".
    settleUnfinishedSources(ctx.db, executionId, `svc could not finish storing this source's answer (${err instanceof Error ? err.name : 'Error'}); the source itself is not to blame.`, ctx.nowIso());
  }
  // area: follow — a completed fire of a routine following a profile for retractions checks that person's papers
  // (only a completed run delivers its news); a lookup failure never changes the status, a cancel does.
  if (status === 'completed') {
    await checkFollowedPapers(ctx, executionId, spec, options.signal, (message, o) => appendEvent(ctx, executionId, 'log', message, o));
    if (options.signal.aborted) status = 'cancelled';
  }
  // Settling reads every document of the run for the report (a tenth of a second of CPU for 100
  // collaboration papers): not in the same turn as storing the last page, and in one turn with
  // the report, so a run is never seen settled without its report path.
  await ioTurn();
  flushSearchIndex(ctx.db);
  const settled = finishExecution(ctx.db, executionId, status, ctx.nowIso(), error);
  const counts = refreshCounts(ctx.db, executionId);
  const reportPath = writeReportFile(ctx, executionId);
  if (!settled) return 'interrupted'; // the owner shut down mid-run and already recorded it
  const kind = status === 'completed' ? 'execution_completed' : status === 'failed' ? 'execution_failed' : 'execution_cancelled';
  const zeroes = summaries.filter((s) => s.records === 0).map((s) => `${s.source}: ${nothingReason(s.zeroReason, null, s.cancelled)}`);
  appendEvent(ctx, executionId, kind, `${status}: ${count(counts.resultCount, 'document')} (${counts.newCount} new)${zeroes.length ? `; nothing from ${zeroes.join(', ')}` : ''}${status === 'failed' && error ? `. ${error}` : ''}`, {
    level: status === 'failed' ? 'error' : 'info',
    data: { status, result_count: counts.resultCount, new_count: counts.newCount, report_path: reportPath, error },
  });
  await runAfterRunSteps(ctx, { id: executionId, status, signal: options.signal });
  return status;
}

/** How many of a page's cut values the log names; the search record has the first 100 of the run. */
const CAP_NOTES_LOGGED = 3;

/** One warning for a page whose values were cut to the caps, naming the first few. */
function warnCapped(ctx: Context, executionId: number, sourceName: string, sourceId: string, page: number, capped: CapNote[]): void {
  const named = capped.slice(0, CAP_NOTES_LOGGED).map(capNoteText).join('; ');
  const more = capped.length > CAP_NOTES_LOGGED ? `; ${capped.length - CAP_NOTES_LOGGED} more in the search record` : '';
  appendEvent(ctx, executionId, 'log', `${sourceName}: page ${page}: ${count(capped.length, 'field')} over the caps of svc-search(1) SOURCE CAPS: ${named}${more}`, {
    source: sourceId,
    level: 'warn',
    data: { page, capped: capped.slice(0, CAP_NOTES_LOGGED), capped_total: capped.length },
  });
}

/** The host a source was asked at, for the offline message; a base URL that does not parse is named as it is. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return baseUrl;
  }
}
