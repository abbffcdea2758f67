/**
 * The complete dated account of one search: for every source the request it
 * was sent (no key, only whether one was used and from where), the window
 * asked and answered, pages, counts, timings, every HTTP exchange, the page
 * cap and the values cut to the caps (sources/caps.ts), and — when it gave
 * nothing — exactly one zero reason with what was observed.
 */
import type { Context } from '../context.js';
import { findSource } from '../sources/index.js';
import { NOT_ANSWERED, type ZeroReason } from '../sources/types.js';
import type { RecordSource, SearchRecord } from '../wire/executions.js';
import { getExecution, getSources } from './repo.js';
import type { RunSpec } from './request.js';
import { readStoredOutcome } from './stored-outcome.js';
import { isRenderedReason, ZERO_REASON_MEANING } from './zero-reasons.js';

export function searchRecord(ctx: Context, executionId: number): SearchRecord | undefined {
  const row = getExecution(ctx.db, executionId);
  if (!row) return undefined;
  const spec = JSON.parse(row.parameters_json) as RunSpec;
  const sources = getSources(ctx.db, executionId).map((s): RecordSource => {
    const outcome = readStoredOutcome(s.outcome_json);
    const zero = s.zero_reason as ZeroReason | null;
    return {
      source: s.source,
      name: findSource(s.source)?.name ?? s.source,
      status: s.status,
      answered: s.record_count > 0 || (zero !== null && zero !== 'not_recorded' && !NOT_ANSWERED.includes(zero)),
      request: outcome?.request ?? null,
      window: outcome?.window ?? { asked: spec.dateFrom || spec.dateTo ? { from: spec.dateFrom, to: spec.dateTo } : null, answered: null, support: null },
      pages: s.pages,
      counts: {
        records: s.record_count,
        new_to_corpus: s.new_count,
        received: outcome?.evidence.received ?? null,
        unusable: outcome?.evidence.unusable ?? null,
        filtered_out: outcome?.evidence.filtered_out ?? null,
        rights_filtered: outcome?.evidence.rights_filtered ?? null,
        total_reported: outcome?.evidence.total_reported ?? null,
      },
      timings: { started_at_utc: s.started_at_utc, finished_at_utc: s.finished_at_utc, ms: s.ms },
      zero_reason: zero,
      zero_reason_meaning: zero ? ZERO_REASON_MEANING[zero] : null,
      message: s.message,
      evidence: outcome
        ? {
            http_status: outcome.evidence.http_status ?? null,
            exception_class: outcome.evidence.exception_class ?? null,
            retry_after_ms: outcome.evidence.retry_after_ms ?? null,
            scan_limit_reached: outcome.evidence.scan_limit_reached ?? false,
          }
        : null,
      partial_failure: outcome?.partialFailure ?? null,
      // Runs recorded before the caps have none.
      caps: outcome?.caps ?? null,
      http: outcome?.traces ?? [],
    };
  });
  return {
    execution_id: row.id,
    recorded_at_utc: ctx.nowIso(),
    execution: {
      type: row.type,
      status: row.status,
      interrupted_reason: row.interrupted_reason,
      started_at_utc: row.started_at_utc,
      finished_at_utc: row.finished_at_utc,
      query: spec.query,
      keywords: spec.keywords,
      window_asked: spec.dateFrom || spec.dateTo ? { from: spec.dateFrom, to: spec.dateTo } : null,
      max_results: spec.maxResults,
      repositories: spec.repositories,
      result_count: row.result_count,
      new_count: row.new_count,
    },
    sources,
    // not_recorded is no reason (nothing was observed): it stays on its source row, never in this summary.
    zero_reasons: Object.fromEntries(sources.flatMap((s) => (isRenderedReason(s.zero_reason) ? [[s.source, s.zero_reason] as const] : []))),
  };
}
