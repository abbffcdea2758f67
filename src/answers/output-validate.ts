/**
 * Strict validation of a model's output (spec 2, "Selected answer" and the
 * Output limits). The output is one JSON object and nothing else: no fences,
 * no prose around it, no repair. Shape (every field required unless marked):
 *
 *   { version: 1, request_sha256, mode, status: "answer" | "insufficient_evidence",
 *     sections: [{ kind: summary|details|limitations|questions, title?: string, items: [item] }],
 *     limitations: [string] }
 *   item = { kind: "source_statement" | "interpretation", text, citations: [citation, ≥1] }
 *        | { kind: "note_summary", text, note_ids: [selected note id, ≥1] }
 *        | { kind: "question", text }
 *   citation = { source_id: "S01".."S24", quote, start?, end? }
 *
 * A citation is exact: `quote` (1 to 1,000 codepoints) must occur verbatim in
 * the selected text of `source_id`. `start`/`end` are optional Unicode codepoint
 * offsets (end exclusive); when given they must locate the quote exactly, when
 * absent the first occurrence is taken. The validated result always carries both,
 * so exports can link each citation to its saved source and position. A
 * citation proves only the identity of the selected text, never support.
 * Any unknown field anywhere is refused. Section kinds do not restrict item kinds.
 */
import { parseStrictJson } from './canonical-json.js';
import { SvcError } from '../errors.js';
import { codepointLength } from '../evidence/codepoints.js';
import type { AnswerOutput, Citation, NoteId, OutputItem, OutputSection, OutputStatus, SectionKind } from '../wire/answers.js';

export const OUTPUT_LIMITS = {
  modelTextBytes: 64 * 1024,
  sections: 6,
  items: 36,
  citations: 72,
  quoteCodepoints: 1000,
  visibleCodepoints: 20_000,
  depth: 8,
} as const;

export const SECTION_KINDS = ['summary', 'details', 'limitations', 'questions'] as const satisfies readonly SectionKind[];
export const ITEM_KINDS = ['source_statement', 'interpretation', 'note_summary', 'question'] as const satisfies readonly OutputItem['kind'][];
export const OUTPUT_STATUSES = ['answer', 'insufficient_evidence'] as const satisfies readonly OutputStatus[];

export type { AnswerOutput, Citation, NoteId, OutputItem, OutputSection } from '../wire/answers.js';
/** The little of a saved request the validator needs (kept local: no dependency on the answer records). */
export interface OutputRequest {
  request_sha256: string;
  mode: string;
  sources: { source_id: string; text: string }[];
  notes: { note_id: NoteId }[];
}

export type OutputValidation =
  | { ok: true; result: AnswerOutput }
  | { ok: false; reason: string; detail: string; path: string };

class Refusal extends Error {
  constructor(readonly reason: string, readonly detail: string, readonly path: string) {
    super(detail);
  }
}
const refuse = (reason: string, path: string, detail: string): never => {
  throw new Refusal(reason, `${detail} (at ${path})`, path);
};

const SOURCE_ID = /^S(0[1-9]|1[0-9]|2[0-4])$/;

/**
 * @example validateAnswerOutput(modelText, { request_sha256, mode: 'answer', sources: [{ source_id: 'S01', text }], notes: [] })
 */
export function validateAnswerOutput(outputText: string, request: OutputRequest): OutputValidation {
  try {
    return { ok: true, result: validate(outputText, request) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.reason, detail: err.detail, path: err.path };
    throw err;
  }
}

function validate(outputText: string, request: OutputRequest): AnswerOutput {
  if (Buffer.byteLength(outputText, 'utf8') > OUTPUT_LIMITS.modelTextBytes) {
    refuse('output_too_large', '$', `The model text exceeds ${OUTPUT_LIMITS.modelTextBytes} bytes`);
  }
  let parsed: unknown;
  try {
    parsed = parseStrictJson(outputText);
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    const kind = String(err.extra.kind ?? 'syntax');
    refuse(kind === 'syntax' ? 'not_json' : kind, '$', kind === 'syntax' ? 'The output is not one JSON value' : err.message);
  }
  const depth = depthOf(parsed);
  if (depth > OUTPUT_LIMITS.depth) refuse('too_deep', '$', `The output nests ${depth} levels; at most ${OUTPUT_LIMITS.depth}`);
  const ctx = new Walk(request);
  const top = object(parsed, '$', ['version', 'request_sha256', 'mode', 'status', 'sections', 'limitations']);
  if (top.version !== 1) refuse('version_mismatch', '$.version', 'version must be 1');
  const sha = string(top.request_sha256, '$.request_sha256');
  if (sha !== request.request_sha256) refuse('request_mismatch', '$.request_sha256', 'request_sha256 is not the hash of this request');
  const mode = string(top.mode, '$.mode');
  if (mode !== request.mode) refuse('mode_mismatch', '$.mode', 'mode is not the mode of this request');
  const status = oneOf(top.status, '$.status', OUTPUT_STATUSES, 'status_invalid');
  const sections = array(top.sections, '$.sections').map((s, i) => ctx.section(s, `$.sections[${i}]`));
  if (sections.length > OUTPUT_LIMITS.sections) refuse('too_many_sections', '$.sections', `At most ${OUTPUT_LIMITS.sections} sections`);
  const limitations = array(top.limitations, '$.limitations').map((l, i) => ctx.visible(text(l, `$.limitations[${i}]`), `$.limitations[${i}]`));
  if (status === 'answer' && ctx.items === 0) refuse('empty_answer', '$.sections', 'An answer has at least one item; with nothing to say the status is insufficient_evidence');
  return { version: 1, request_sha256: sha, mode, status, sections, limitations };
}

class Walk {
  items = 0;
  citations = 0;
  visibleCodepoints = 0;
  private readonly sources = new Map<string, string[]>();
  private readonly notes: string[];

  constructor(request: OutputRequest) {
    for (const s of request.sources) this.sources.set(s.source_id, [...s.text]);
    this.notes = request.notes.map((n) => JSON.stringify(n.note_id));
  }

  section(value: unknown, path: string): OutputSection {
    const s = object(value, path, ['kind', 'items'], ['title']);
    const kind = oneOf(s.kind, `${path}.kind`, SECTION_KINDS, 'section_kind_invalid');
    const out: OutputSection = { kind, items: [] };
    if (s.title !== undefined) out.title = this.visible(text(s.title, `${path}.title`), `${path}.title`);
    out.items = array(s.items, `${path}.items`).map((item, i) => this.item(item, `${path}.items[${i}]`));
    return out;
  }

  item(value: unknown, path: string): OutputItem {
    this.items++;
    if (this.items > OUTPUT_LIMITS.items) refuse('too_many_items', path, `At most ${OUTPUT_LIMITS.items} items in all sections`);
    const probe = object(value, path, ['kind'], ['text', 'citations', 'note_ids']);
    const kind = oneOf(probe.kind, `${path}.kind`, ITEM_KINDS, 'item_kind_invalid');
    if (kind === 'note_summary') {
      if (probe.citations !== undefined) refuse('note_summary_cites_source', `${path}.citations`, 'A note summary cites selected notes only, never document sources');
      const it = object(value, path, ['kind', 'text', 'note_ids']);
      const body = this.visible(text(it.text, `${path}.text`), `${path}.text`);
      const ids = array(it.note_ids, `${path}.note_ids`);
      if (ids.length === 0) refuse('note_required', `${path}.note_ids`, 'A note summary names at least one selected note');
      const noteIds = ids.map((id, i) => this.note(id, `${path}.note_ids[${i}]`));
      return { kind, text: body, note_ids: noteIds };
    }
    if (kind === 'question') {
      const it = object(value, path, ['kind', 'text']);
      return { kind, text: this.visible(text(it.text, `${path}.text`), `${path}.text`) };
    }
    const it = object(value, path, ['kind', 'text', 'citations']);
    const body = this.visible(text(it.text, `${path}.text`), `${path}.text`);
    const list = array(it.citations, `${path}.citations`);
    if (list.length === 0) refuse('citation_required', `${path}.citations`, `A ${kind} needs at least one citation of selected text`);
    return { kind, text: body, citations: list.map((c, i) => this.citation(c, `${path}.citations[${i}]`)) };
  }

  citation(value: unknown, path: string): Citation {
    this.citations++;
    if (this.citations > OUTPUT_LIMITS.citations) refuse('too_many_citations', path, `At most ${OUTPUT_LIMITS.citations} citations`);
    const c = object(value, path, ['source_id', 'quote'], ['start', 'end']);
    const sourceId = string(c.source_id, `${path}.source_id`);
    if (!SOURCE_ID.test(sourceId)) refuse('citation_source_invalid', `${path}.source_id`, 'source_id is S01 to S24');
    const source = this.sources.get(sourceId);
    if (!source) refuse('citation_source_unknown', `${path}.source_id`, `${sourceId} is not a selected source of this request`);
    const quote = string(c.quote, `${path}.quote`);
    const length = codepointLength(quote);
    if (length === 0) refuse('quote_empty', `${path}.quote`, 'A quote is at least one codepoint');
    if (length > OUTPUT_LIMITS.quoteCodepoints) refuse('quote_too_long', `${path}.quote`, `A quote is at most ${OUTPUT_LIMITS.quoteCodepoints} codepoints`);
    this.visible(quote, `${path}.quote`);
    const cps = source as string[];
    let start: number;
    if (c.start !== undefined) {
      start = offset(c.start, `${path}.start`);
      if (!matchesAt(cps, quote, start, length)) refuse('citation_offset_mismatch', `${path}.start`, `The quote is not the text of ${sourceId} at this start`);
      if (c.end !== undefined && offset(c.end, `${path}.end`) !== start + length) {
        refuse('citation_offset_mismatch', `${path}.end`, 'end is not start plus the quote length in codepoints');
      }
    } else {
      if (c.end !== undefined) refuse('citation_offset_mismatch', `${path}.end`, 'end is given only with start');
      start = findCodepoints(cps, quote, length);
      if (start < 0) refuse('citation_quote_not_found', `${path}.quote`, `The quote does not occur exactly in the selected text of ${sourceId}`);
    }
    return { source_id: sourceId, quote, start, end: start + length };
  }

  note(value: unknown, path: string): NoteId {
    if (typeof value !== 'number' && typeof value !== 'string') refuse('wrong_type', path, 'A note id is a number or a string');
    if (!this.notes.includes(JSON.stringify(value))) refuse('note_unknown', path, 'This note is not a selected note of this request');
    return value as NoteId;
  }

  visible(value: string, path: string): string {
    this.visibleCodepoints += codepointLength(value);
    if (this.visibleCodepoints > OUTPUT_LIMITS.visibleCodepoints) {
      refuse('visible_text_too_long', path, `The output's visible text exceeds ${OUTPUT_LIMITS.visibleCodepoints} codepoints`);
    }
    return value;
  }
}

function matchesAt(cps: string[], quote: string, start: number, length: number): boolean {
  if (start + length > cps.length) return false;
  return cps.slice(start, start + length).join('') === quote;
}

/** First codepoint offset where `quote` occurs, or -1; never matches half of a surrogate pair. */
function findCodepoints(cps: string[], quote: string, length: number): number {
  const first = [...quote][0];
  for (let i = 0; i + length <= cps.length; i++) {
    if (cps[i] === first && matchesAt(cps, quote, i, length)) return i;
  }
  return -1;
}

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const child of Array.isArray(value) ? value : Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

function object(value: unknown, path: string, required: string[], optional: string[] = []): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) refuse(path === '$' ? 'not_object' : 'wrong_type', path, 'Expected a JSON object');
  const rec = value as Record<string, unknown>;
  for (const key of Object.keys(rec)) {
    if (!required.includes(key) && !optional.includes(key)) refuse('unknown_field', `${path}.${key}`, `Unknown field "${key.slice(0, 64)}"`);
  }
  for (const key of required) if (!Object.hasOwn(rec, key)) refuse('missing_field', `${path}.${key}`, `Missing field "${key}"`);
  return rec;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) refuse('wrong_type', path, 'Expected a JSON array');
  return value as unknown[];
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') refuse('wrong_type', path, 'Expected a string');
  return value as string;
}

/** Non-empty visible text (not only whitespace). */
function text(value: unknown, path: string): string {
  const s = string(value, path);
  if (s.trim() === '') refuse('text_empty', path, 'Text must not be empty');
  return s;
}

function offset(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) refuse('wrong_type', path, 'An offset is an integer of at least 0');
  return value as number;
}

function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[], reason: string): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) refuse(reason, path, `Expected one of ${allowed.join(', ')}`);
  return value as T;
}
