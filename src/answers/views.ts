/**
 * Public projections of saved answers. A row that cannot be read is an
 * explicit unreadable refusal, never repaired. Route digests, native session
 * ids, configured paths and credentials are not part of any projection.
 */
import * as reasons from './reasons.js';
import type { AnswerOutputRecord, AnswerRow, AnswerSummary, AnswerUsage, AnswerView, ModelObservation, RequestPayload } from './types.js';

export const NO_USAGE: AnswerUsage = { input_tokens: null, output_tokens: null, provenance: 'not_reported', source: null, billing: 'unknown' };

function parse<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw reasons.rowUnreadable();
  }
}

export function requestOf(row: AnswerRow): RequestPayload {
  const payload = parse<RequestPayload>(row.request_json);
  if (!payload || typeof payload !== 'object' || !Array.isArray(payload.sources)) throw reasons.rowUnreadable();
  return payload;
}

export function answerView(row: AnswerRow): AnswerView {
  return {
    contract_version: 1,
    answer_id: row.answer_id,
    vault_id: row.vault_id,
    project_id: row.project_id,
    runtime_id: row.owner_runtime_id,
    preview_id: row.preview_id,
    request_sha256: row.request_sha256,
    state: row.state,
    request: requestOf(row),
    partial_text: row.partial_text,
    output: parse<AnswerOutputRecord>(row.output_json),
    usage: parse<AnswerUsage>(row.usage_json) ?? NO_USAGE,
    reported_model: parse<ModelObservation>(row.model_json),
    error: row.error_reason === null ? null : { reason: row.error_reason, message: row.error_message ?? '' },
    completion: row.completion,
    cleanup: row.cleanup,
    created_at_utc: row.created_at_utc,
    started_at_utc: row.started_at_utc,
    finished_at_utc: row.finished_at_utc,
    updated_at_utc: row.updated_at_utc,
  };
}

export function answerSummary(row: AnswerRow): AnswerSummary {
  const request = requestOf(row);
  const output = parse<AnswerOutputRecord>(row.output_json);
  return {
    answer_id: row.answer_id,
    request_sha256: row.request_sha256,
    state: row.state,
    mode: request.mode,
    choices: request.choices,
    source_count: request.sources.length,
    note_count: request.notes.length,
    validated: output === null ? null : output.validated,
    created_at_utc: row.created_at_utc,
    finished_at_utc: row.finished_at_utc,
  };
}
