/**
 * The one read snapshot both answer exports are built from (spec 2, Exports):
 * a saved answer with its immutable request, selected excerpts and notes, and
 * its result. Built once per export from one saved row; the ZIP and HTML
 * functions are pure over it, so an identical snapshot gives identical bytes.
 * Only saved records: nothing is re-extracted, re-validated or repaired here.
 */
import { SvcError } from '../errors.js';
import type { AnswerOutput, NoteId } from './output-validate.js';

export const ANSWER_STATES = ['admitted', 'running', 'succeeded', 'refused', 'failed', 'cancelled', 'interrupted'] as const;
export type AnswerState = (typeof ANSWER_STATES)[number];

export interface ExportSource {
  source_id: string;
  file_id: string;
  version_id: string;
  filename: string;
  /** What was selected, for a person: "PDF page 3", "text page 1", "codepoints [10, 40) of page 1". */
  selection: string;
  text: string;
  source_sha256: string;
}

export interface ExportNote {
  note_id: NoteId;
  file_id: string;
  version_id: string;
  body: string;
}

export interface ExportSnapshot {
  answer_id: string;
  vault_id: string;
  project_id: string;
  state: AnswerState;
  mode: string;
  request_sha256: string;
  instruction: string;
  created_at_utc: string;
  finished_at_utc: string | null;
  sources: ExportSource[];
  notes: ExportNote[];
  /** The validated result; present only for a succeeded answer. */
  result: AnswerOutput | null;
  /** Model text kept as unvalidated (failed, interrupted or partial answers), or null. */
  unvalidated_output: string | null;
  /** Public reports (usage with provenance, limitations), as saved. */
  reports: unknown;
}

export const CITATION_NOTICE = 'A citation proves only the identity of the selected text, never that the quote supports the claim.';

/** Only a succeeded answer with a result is validated; everything else is marked unvalidated. */
export const isValidated = (s: ExportSnapshot) => s.state === 'succeeded' && s.result !== null;

export const exportLimit = (what: string, limit: number) =>
  new SvcError(413, 'export_limit', `The export's ${what} would exceed ${limit} bytes; nothing was produced.`, { part: what, limit_bytes: limit });
