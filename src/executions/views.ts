/** Executions as the API and the CLI show them. */
import type { Context } from '../context.js';
import { followNews } from '../follow/check.js';
import { identityOf } from '../runtime/runtime-identity.js';
import { findSource } from '../sources/index.js';
import { presentLane } from './ai-lane.js';
import { storedAiSettings } from './ai-settings.js';
import { getSources, restartedInto, type ExecutionRow } from './repo.js';
import { interruptedMeaning } from './interrupted-reasons.js';
import type { RunSpec } from './request.js';
import { isRenderedReason, ZERO_REASON_MEANING } from './zero-reasons.js';
import type { RunDetail, RunRow } from '../wire/executions.js';

export function listRow(row: ExecutionRow): RunRow {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    interrupted_reason: row.interrupted_reason,
    interrupted_reason_meaning: interruptedMeaning(row.interrupted_reason),
    restarted_from: row.restarted_from,
    routine_id: row.routine_id,
    query: row.query,
    repositories: JSON.parse(row.repositories_json) as string[],
    started_at_utc: row.started_at_utc,
    finished_at_utc: row.finished_at_utc,
    result_count: row.result_count,
    new_count: row.new_count,
  };
}

export function executionDetail(ctx: Context, row: ExecutionRow): RunDetail {
  const spec = JSON.parse(row.parameters_json) as RunSpec;
  const sources = getSources(ctx.db, row.id).map((s) => ({
    source: s.source,
    name: findSource(s.source)?.name ?? s.source,
    status: s.status,
    record_count: s.record_count,
    new_count: s.new_count,
    zero_reason: s.zero_reason,
    // The reason in words (not_recorded is no reason: null, the source's status says what happened).
    zero_reason_meaning: isRenderedReason(s.zero_reason) ? ZERO_REASON_MEANING[s.zero_reason] : null,
    message: s.message,
    pages: s.pages,
    started_at_utc: s.started_at_utc,
    finished_at_utc: s.finished_at_utc,
    ms: s.ms,
  }));
  return {
    ...listRow(row),
    parameters: {
      query: spec.query,
      keywords: spec.keywords,
      date_from: spec.dateFrom,
      date_to: spec.dateTo,
      max_results: spec.maxResults,
      ai_enabled: spec.aiEnabled,
      ai_settings: spec.aiSettings ? storedAiSettings(spec.aiSettings).settings : null,
      request_id: spec.requestId,
      saved_configuration_id: row.saved_configuration_id,
    },
    error: row.error,
    restarted_into: restartedInto(ctx.db, row.id),
    timings: {
      started_at_utc: row.started_at_utc,
      finished_at_utc: row.finished_at_utc,
      ms: row.finished_at_utc ? Date.parse(row.finished_at_utc) - Date.parse(row.started_at_utc) : null,
    },
    ai_lane: presentLane(row.ai_lane_json, row, ctx.clock.now().getTime()),
    owner: { pid: row.owner_pid, runtime_id: row.owner_runtime_id, role: row.owner_role, last_seen_at_utc: row.last_seen_at_utc },
    cancel_requested_at_utc: row.cancel_requested_at_utc,
    report_path: row.report_path,
    sources,
    // A fire of a routine following a profile for retractions: what it checked and the new notices,
    // as its bundle and digest carry them (follow/check.ts); null for any other run.
    follow: followNews(ctx, row.id),
    identity: identityOf(ctx.runtimeId, ctx.schemaVersion),
  };
}
