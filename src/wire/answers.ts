/**
 * The JSON of selected-evidence answers as the routes send it (spec 2,
 * "Selected answer"): the hash-bound request payload, the preview, the public
 * projection of an answer, its history page and its event frames. Declared
 * once here, for the service and the window alike; this file imports nothing
 * but other wire files, so the window never pulls service code.
 */

import type { Choices } from './assistant.js';

export type AnswerMode = 'answer' | 'briefing';
export type AnswerState = 'admitted' | 'running' | 'succeeded' | 'refused' | 'failed' | 'cancelled' | 'interrupted';

/** The model connection an answer is sent to: the assistant's composer choices. */
export type AnswerChoices = Choices;

/** How one selected segment was chosen: a whole page, or an exact codepoint passage of one page. */
export type SegmentKind = 'page' | 'passage';

/**
 * One selected segment; sources are numbered S01.. in selection order after
 * identical segments collapse. Offsets are global Unicode codepoints of the
 * page text (end exclusive); a whole page is [0, page length).
 */
export interface RequestSource {
  source_id: string;
  source_sha256: string;
  file_id: string;
  version_id: string;
  /** The retained-byte SHA-256 of the file version. */
  file_sha256: string;
  filename: string;
  media_type: string;
  page_basis: 'physical' | 'logical';
  page: number;
  page_count: number | null;
  extraction_contract: string;
  page_sha256: string;
  segment: SegmentKind;
  start_codepoint: number;
  end_codepoint: number;
  text: string;
}

/** A selected saved note: only its body text goes to the model. */
export interface RequestNote {
  note_id: number;
  file_id: string;
  version_id: string;
  note_revision: number;
  text: string;
}

/** The immutable request: what the model receives (with its hash) and what the answer is judged against. */
export interface RequestPayload {
  version: 1;
  kind: 'svc-selected-answer-request';
  mode: AnswerMode;
  vault_id: string;
  project_id: string;
  project_revision: number;
  instruction: string;
  choices: AnswerChoices;
  sources: RequestSource[];
  notes: RequestNote[];
  /** Fixed statements about what the request is and is not (shown in the preview too). */
  limitations: string[];
}

/** A saved note's id as the model may cite it. */
export type NoteId = number | string;
export type SectionKind = 'summary' | 'details' | 'limitations' | 'questions';
export type OutputStatus = 'answer' | 'insufficient_evidence';

/** An exact quote of a source; offsets are Unicode codepoints within the source's text (end exclusive). */
export interface Citation {
  source_id: string;
  quote: string;
  start: number;
  end: number;
}

export type OutputItem =
  | { kind: 'source_statement' | 'interpretation'; text: string; citations: Citation[] }
  | { kind: 'note_summary'; text: string; note_ids: NoteId[] }
  | { kind: 'question'; text: string };

export interface OutputSection {
  kind: SectionKind;
  title?: string;
  items: OutputItem[];
}

/** A model's output once validated: the structured result. */
export interface AnswerOutput {
  version: 1;
  request_sha256: string;
  mode: string;
  status: OutputStatus;
  sections: OutputSection[];
  limitations: string[];
}

/** Token counts exactly as the runtime reported them; never estimated, billing unknown. */
export interface AnswerUsage {
  input_tokens: number | null;
  output_tokens: number | null;
  /** reported: counts came from the runtime; not_reported: it gave none. */
  provenance: 'reported' | 'not_reported';
  /** Where the counts were read (e.g. api_response_usage, agent_result_usage), null when not reported. */
  source: string | null;
  billing: 'unknown';
}

/** The model id the runtime claimed (kept apart from the requested model). */
export interface ModelObservation {
  model: string;
  source: string;
}

/** The saved output: the validated structured result, or the unvalidated text with why it failed. */
export type AnswerOutputRecord = { validated: true; result: AnswerOutput } | { validated: false; text: string; reason: string; detail: string };

export interface AnswerError {
  reason: string;
  message: string;
}

/** The public projection of an answer (GET …/answers/{answer_id}, history rows, exports, events). */
export interface AnswerView {
  contract_version: 1;
  answer_id: string;
  vault_id: string;
  project_id: string;
  /** The server instance that admitted and owns the run. */
  runtime_id: string;
  preview_id: string;
  request_sha256: string;
  state: AnswerState;
  request: RequestPayload;
  /** The durable prefix of model text streamed so far (unvalidated; kept on interruption). */
  partial_text: string;
  output: AnswerOutputRecord | null;
  usage: AnswerUsage;
  reported_model: ModelObservation | null;
  error: AnswerError | null;
  /** completed when the runtime reported completion; unknown after an interruption. */
  completion: 'pending' | 'completed' | 'unknown';
  cleanup: 'pending' | 'confirmed' | 'unknown';
  created_at_utc: string;
  started_at_utc: string | null;
  finished_at_utc: string | null;
  updated_at_utc: string;
}

/** GET …/answers/{answer_id} and POST …/cancel: the answer in its envelope. */
export interface AnswerRead {
  contract_version: 1;
  answer: AnswerView;
}

/** POST …/answers: 201 for a new answer, 200 with replayed true for the same preview sent again. */
export interface AnswerSent extends AnswerRead {
  replayed: boolean;
}

/** A history row: the same identities and state without the request texts and output. */
export interface AnswerSummary {
  answer_id: string;
  request_sha256: string;
  state: AnswerState;
  mode: AnswerMode;
  choices: AnswerChoices;
  source_count: number;
  note_count: number;
  validated: boolean | null;
  created_at_utc: string;
  finished_at_utc: string | null;
}

/** What one preview may select and send (spec 2 "Limits": Answer selection and Answer text), so a chooser can count against them. */
export interface SelectionLimits {
  memberships_min: number;
  memberships_max: number;
  distinct_pages: number;
  segments: number;
  notes: number;
  note_codepoints: number;
  notes_bytes: number;
  source_bytes: number;
  source_codepoints: number;
  instruction_codepoints: number;
  instruction_bytes: number;
}

export interface AnswerPage {
  contract_version: 1;
  vault_id: string;
  project_id: string;
  answers: AnswerSummary[];
  through_id: number;
  next_after_id: number | null;
  has_more: boolean;
  total: number;
  selection_limits: SelectionLimits;
}

/** One segment of a preview selection, as asked (before extraction). */
export type SelectionSegment = { kind: 'page'; page: number } | { kind: 'passage'; page: number; start_codepoint: number; end_codepoint: number };

export interface SelectionInput {
  file_id: string;
  version_id: string;
  segments: SelectionSegment[];
}

/** The preview a person reads before consenting (never calls a model). */
export interface PreviewView {
  contract_version: 1;
  preview_id: string;
  vault_id: string;
  project_id: string;
  project_revision: number;
  runtime_id: string;
  expires_at_utc: string;
  request_sha256: string;
  payload: RequestPayload;
  files: { file_id: string; version_id: string; filename: string; media_type: string; file_sha256: string; pages: number[]; page_count: number | null }[];
  /** Saved notes of the selected files that could be selected (they start unselected). */
  available_notes: { note_id: number; file_id: string; version_id: string; kind: 'plain' | 'passage'; text: string; selected: boolean }[];
  /** Whether the chosen connection can run here now (local prerequisites, not authentication). */
  connection: { available: boolean; reason: string | null };
  system_bytes: number;
  system_sha256: string;
  user_bytes: number;
  user_sha256: string;
  limitations: string[];
}

export type FrameType = 'snapshot' | 'progress' | 'partial' | 'report' | 'terminal';

/** One event of an answer's stream (the SSE data of …/answers/{answer_id}/events). */
export interface AnswerFrame {
  sequence: number;
  type: FrameType;
  answer_id: string;
  request_sha256: string;
  project_id: string;
  vault_id: string;
  runtime_id: string;
  data: unknown;
}
