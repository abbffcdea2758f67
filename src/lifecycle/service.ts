/** Reads of lifecycle: recorded events and corpus coverage, one paper, a page of papers. */
import type { Context } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { settleStale } from './check.js';
import * as repo from './repo.js';
import type { Asked, CheckState, EventKind, LifecycleAnswer, LifecycleEvent } from '../wire/lifecycle.js';

export const EVENTS_LIMIT = { min: 1, max: 500, default: 50 };
export const MAX_FOR_DOCUMENTS = 500;
const RECENT_DAYS = 30;

export const KIND_MEANING: Record<EventKind, string> = {
  retraction: 'the paper was retracted; the notice link is the retraction notice (or the record flagging it)',
  preprint_to_published: 'a preprint has a published version; the notice link is the published version (its DOI, or the arXiv page naming the journal reference)',
  version_change: 'a newer version or a correction of the paper exists; the notice link is the new version or the correction notice',
};

export function eventView(row: repo.EventRow): LifecycleEvent {
  return {
    id: row.id,
    document_id: row.document_id,
    title: row.title ?? null,
    doi: row.doi ?? null,
    kind: row.kind,
    source: row.source,
    notice_url: row.notice_url,
    notice_doi: row.notice_doi,
    label: row.label,
    event_date: row.event_date,
    detected_at_utc: row.detected_at_utc,
    run_id: row.run_id,
    detail: JSON.parse(row.detail_json) as Record<string, unknown>,
  };
}

export function runView(row: repo.RunRow | undefined) {
  if (!row) return null;
  return {
    run_id: row.id,
    status: row.status,
    limit: row.limit_n,
    run_until_done: row.run_until_done === 1,
    checked: row.checked_count,
    failed: row.failed_count,
    events: row.event_count,
    slices: row.slices,
    stop_requested_at_utc: row.stop_requested_at_utc,
    started_at_utc: row.started_at_utc,
    finished_at_utc: row.finished_at_utc,
    last_seen_at_utc: row.last_seen_at_utc,
    error: row.error,
  };
}

function checkView(row: repo.CheckRow | undefined): CheckState {
  if (!row) return { checked_at_utc: null, last_attempt: null };
  return {
    checked_at_utc: row.checked_at_utc,
    last_attempt: { at_utc: row.attempted_at_utc, run_id: row.attempt_run_id, outcome: row.outcome, asked: JSON.parse(row.asked_json) as Asked[], error: row.error },
  };
}

export function lifecycleOverview(ctx: Context, page: { kind?: repo.EventKind; limit: number; offset: number }) {
  const since = new Date(ctx.clock.now().getTime() - RECENT_DAYS * 86_400_000).toISOString();
  const byKind = repo.eventCounts(ctx.db);
  const total = page.kind ? byKind[page.kind] : Object.values(byKind).reduce((a, b) => a + b, 0);
  const events = repo.listEvents(ctx.db, page.kind, page.limit, page.offset).map(eventView);
  const { checked_since, ...coverage } = repo.coverage(ctx.db, since);
  // A check whose process went away read as running until the next check was started.
  settleStale(ctx);
  const running = repo.runningRun(ctx.db);
  return {
    events,
    events_total: total,
    by_kind: byKind,
    next_offset: page.offset + events.length < total ? page.offset + events.length : null,
    coverage: { ...coverage, [`checked_in_last_${RECENT_DAYS}_days`]: checked_since },
    check: { running: running !== undefined, current: runView(running), last: runView(repo.lastRun(ctx.db)) },
    what_a_kind_means: KIND_MEANING,
    method:
      'Events are recorded by lifecycle checks (POST /api/lifecycle/check): Crossref update-to/updated-by and relation data per DOI, arXiv versions, DOIs and journal references per arXiv id, ' +
      'OpenAlex retraction flags per DOI (when its key is stored), PubMed retraction and erratum notices per PMID. Coverage counts papers by their checks: checked = at least one check completed (a source answered, or the paper had nothing to ask), whatever its last attempt; ' +
      'nothing_to_ask = the paper has no DOI, arXiv id or PMID; failed_last_attempt = every source asked failed (it stays first in line). Events are never guessed: a paper no source speaks of has none.',
  };
}

/**
 * How many papers a check could look at: none before the first dive or sweep. The CLI says so
 * instead of starting a check of 0 papers; POST /api/lifecycle/check still starts (and records) one.
 */
export function papersInCorpus(ctx: Context): number {
  return repo.documentsTotal(ctx.db);
}

export function documentLifecycle(ctx: Context, documentId: number): LifecycleAnswer {
  const doc = repo.documentIdentity(ctx.db, documentId);
  if (!doc) throw notFound('document_not_found', `No document ${documentId}.`);
  const events = repo.eventsOf(ctx.db, documentId).map(eventView);
  return {
    document_id: doc.id,
    title: doc.title,
    doi: doc.doi,
    arxiv_id: doc.arxiv_id,
    pmid: doc.pmid,
    type: doc.doc_type,
    is_retracted: doc.is_retracted === 1,
    askable: Boolean(doc.doi || doc.arxiv_id || doc.pmid),
    ...checkView(repo.getCheck(ctx.db, documentId)),
    events,
    what_a_kind_means: KIND_MEANING,
  };
}

export function lifecycleForDocuments(ctx: Context, ids: number[]) {
  if (ids.length > MAX_FOR_DOCUMENTS) throw invalid(['body', 'document_ids'], `At most ${MAX_FOR_DOCUMENTS} document ids`, 'too_long', null, { max_length: MAX_FOR_DOCUMENTS, actual_length: ids.length });
  const unique = [...new Set(ids)];
  const documents = [];
  const unknown: number[] = [];
  for (const id of unique) {
    if (!repo.documentIdentity(ctx.db, id)) {
      unknown.push(id);
      continue;
    }
    const events = repo.eventsOf(ctx.db, id).map(eventView);
    documents.push({ document_id: id, ...checkView(repo.getCheck(ctx.db, id)), kinds: [...new Set(events.map((e) => e.kind))], events });
  }
  return { documents, unknown_ids: unknown };
}
