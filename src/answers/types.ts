/**
 * The shapes of selected-evidence answers (spec 2, "Selected answer"): the
 * immutable hash-bound request payload, the durable answer record and its
 * public projection. The JSON shapes are declared once in src/wire/answers.ts
 * (the window reads them too) and re-exported here, where exports, the CLI and
 * the routes import them; keep the names stable.
 *
 * Hashing: request_sha256 = SHA-256 of canonicalJson(payload) (the payload
 * has no digest of its own). Each source's source_sha256 = SHA-256 of
 * canonicalJson(source without source_id and source_sha256). The user prompt
 * is canonicalJson({ payload, request_sha256 }).
 */
import type { AnswerMode, AnswerState } from '../wire/answers.js';

export type {
  AnswerChoices,
  AnswerError,
  AnswerMode,
  AnswerOutputRecord,
  AnswerPage,
  AnswerState,
  AnswerSummary,
  AnswerUsage,
  AnswerView,
  ModelObservation,
  PreviewView,
  RequestNote,
  RequestPayload,
  RequestSource,
  SegmentKind,
  SelectionInput,
  SelectionLimits,
  SelectionSegment,
} from '../wire/answers.js';

export const ANSWER_MODES = ['answer', 'briefing'] as const satisfies readonly AnswerMode[];

export const ANSWER_STATES = ['admitted', 'running', 'succeeded', 'refused', 'failed', 'cancelled', 'interrupted'] as const satisfies readonly AnswerState[];
export const TERMINAL_STATES: ReadonlySet<AnswerState> = new Set(['succeeded', 'refused', 'failed', 'cancelled', 'interrupted']);
export const LIVE_STATES: ReadonlySet<AnswerState> = new Set(['admitted', 'running']);

/** The stored row (private fields included: never returned as is). */
export interface AnswerRow {
  id: number;
  answer_id: string;
  project_row: number;
  vault_id: string;
  project_id: string;
  preview_id: string;
  request_sha256: string;
  request_json: string;
  state: AnswerState;
  owner_runtime_id: string;
  route_digest: string;
  native_session_id: string | null;
  partial_text: string;
  output_json: string | null;
  usage_json: string | null;
  model_json: string | null;
  error_reason: string | null;
  error_message: string | null;
  completion: 'pending' | 'completed' | 'unknown';
  cleanup: 'pending' | 'confirmed' | 'unknown';
  created_at_utc: string;
  started_at_utc: string | null;
  finished_at_utc: string | null;
  updated_at_utc: string;
}
