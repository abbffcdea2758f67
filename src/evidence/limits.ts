/**
 * The Evidence limits (spec 2 "Limits", "Reader" and "Bundle"). Services take
 * them from the Evidence service object, so tests can shrink them.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export interface EvidenceLimits {
  projects: number;
  membersPerProject: number;
  notesPerProject: number;
  nameChars: number;
  /** Note body and passage quote, in codepoints. */
  bodyChars: number;
  jsonBodyBytes: number;
  listDefault: number;
  listMax: number;
  /** PDF reader. */
  pdfBytes: number;
  pdfPages: number;
  pdfTimeoutMs: number;
  /** How long a new child may take to load pdfjs and say it is ready (not part of a page's timeout). */
  pdfStartMs: number;
  pdfCodepoints: number;
  pdfJsonBytes: number;
  pdfTreeNodes: number;
  pdfTreeDepth: number;
  pdfForms: number;
  /** A warm child is replaced after this many pages (it never outlives a refusal). */
  pdfChildPages: number;
  /** Bundle. */
  bundleFilesMax: number;
  bundleBytes: number;
  bundleManifestBytes: number;
  bundleNotesBytes: number;
}

export const DEFAULT_EVIDENCE_LIMITS: Readonly<EvidenceLimits> = Object.freeze({
  projects: 100,
  membersPerProject: 1_000,
  notesPerProject: 5_000,
  nameChars: 120,
  bodyChars: 20_000,
  jsonBodyBytes: 256 * KiB,
  listDefault: 50,
  listMax: 50,
  pdfBytes: 16 * MiB,
  pdfPages: 200,
  pdfTimeoutMs: 20_000,
  pdfStartMs: 20_000,
  pdfCodepoints: 200_000,
  pdfJsonBytes: 1 * MiB,
  pdfTreeNodes: 2_000,
  pdfTreeDepth: 32,
  pdfForms: 100,
  pdfChildPages: 500,
  bundleFilesMax: 20,
  bundleBytes: 256 * MiB,
  bundleManifestBytes: 4 * MiB,
  bundleNotesBytes: 4 * MiB,
});
