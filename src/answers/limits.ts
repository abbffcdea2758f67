/**
 * The selected-answer limits (spec 2 "Limits": Answer selection, Answer
 * text, Previews, Operation, Answers, SSE). Services read them from the
 * answers service object so tests can shrink them.
 */
import type { SelectionLimits } from './types.js';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface AnswerLimits {
  membershipsMin: number;
  membershipsMax: number;
  distinctPages: number;
  segments: number;
  notes: number;
  noteCodepoints: number;
  notesBytes: number;
  /** All selected source text together. */
  sourceBytes: number;
  sourceCodepoints: number;
  instructionCodepoints: number;
  instructionBytes: number;
  userBytes: number;
  systemBytes: number;
  /** Previews. */
  assemblyMs: number;
  livePreviews: number;
  previewResidentBytes: number;
  previewTtlMs: number;
  /** Operation. */
  deadlineMs: number;
  cliLineBytes: number;
  cliStdoutBytes: number;
  cliStderrBytes: number;
  apiBodyBytes: number;
  connectMs: number;
  inactivityMs: number;
  modelTextBytes: number;
  /** How long a cancelled run may take to confirm its cleanup. */
  cleanupMs: number;
  /** Answers. */
  answersPerProject: number;
  historyPage: number;
  /** SSE. */
  attachMs: number;
  queueFrames: number;
  queueBytes: number;
}

export const DEFAULT_ANSWER_LIMITS: Readonly<AnswerLimits> = Object.freeze({
  membershipsMin: 1,
  membershipsMax: 5,
  distinctPages: 12,
  segments: 24,
  notes: 8,
  noteCodepoints: 2_000,
  notesBytes: 8 * KiB,
  sourceBytes: 48 * KiB,
  sourceCodepoints: 24_000,
  instructionCodepoints: 4_000,
  instructionBytes: 16 * KiB,
  userBytes: 96 * KiB,
  systemBytes: 16 * KiB,
  assemblyMs: 120_000,
  livePreviews: 4,
  previewResidentBytes: 512 * KiB,
  previewTtlMs: 600_000,
  deadlineMs: 300_000,
  cliLineBytes: 256 * KiB,
  cliStdoutBytes: 1 * MiB,
  cliStderrBytes: 16 * KiB,
  apiBodyBytes: 1 * MiB,
  connectMs: 10_000,
  inactivityMs: 60_000,
  modelTextBytes: 64 * KiB,
  cleanupMs: 65_000,
  answersPerProject: 1_000,
  historyPage: 50,
  attachMs: 30_000,
  queueFrames: 16,
  queueBytes: 256 * KiB,
});

/** The selection and text limits as the history read states them (snake_case, as every envelope). */
export function selectionLimits(l: AnswerLimits): SelectionLimits {
  return {
    memberships_min: l.membershipsMin,
    memberships_max: l.membershipsMax,
    distinct_pages: l.distinctPages,
    segments: l.segments,
    notes: l.notes,
    note_codepoints: l.noteCodepoints,
    notes_bytes: l.notesBytes,
    source_bytes: l.sourceBytes,
    source_codepoints: l.sourceCodepoints,
    instruction_codepoints: l.instructionCodepoints,
    instruction_bytes: l.instructionBytes,
  };
}
