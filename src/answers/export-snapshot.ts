/**
 * What both answer exports read (spec 2, Exports): one saved answer's public
 * projection (AnswerView), read once from one row. The ZIP and HTML builders
 * are pure functions of it, so an identical snapshot gives identical bytes.
 * Only saved records: nothing is re-extracted, re-validated or repaired here.
 */
import { SvcError } from '../errors.js';
import type { AnswerOutput } from './output-validate.js';
import type { AnswerView, RequestSource } from './types.js';

export const CITATION_NOTICE = 'A citation proves only the identity of the selected text, never that the quote supports the claim.';

/** The validated result of a succeeded answer, else null (everything else is marked unvalidated). */
export function validatedResult(view: AnswerView): AnswerOutput | null {
  return view.state === 'succeeded' && view.output?.validated === true ? view.output.result : null;
}

/** Model text kept without validation (failed output, or the durable prefix of an unfinished answer), or null. */
export function unvalidatedText(view: AnswerView): string | null {
  if (view.output && !view.output.validated) return view.output.text;
  return view.partial_text === '' ? null : view.partial_text;
}

/** For a person: what part of which page a source is. */
export function selectionLabel(s: RequestSource): string {
  const kind = s.media_type === 'application/pdf' ? 'PDF' : 'text';
  const where = `${kind} ${s.page_basis} page ${s.page}${s.page_count === null ? '' : ` of ${s.page_count}`}`;
  return s.segment === 'passage' ? `${where}, codepoints [${s.start_codepoint}, ${s.end_codepoint})` : `${where}, whole page`;
}

/**
 * Where a citation is, for a person: its range in the source's text (what the
 * model cited) and the same range on the page, which is what `svc evidence
 * read` prints. A passage source starts mid-page, so the two differ: [0, 12)
 * of a passage at [27, 54) is page codepoints [27, 39), not [0, 12).
 */
export function citationPlace(c: { source_id: string; start: number; end: number }, s: RequestSource | undefined): string {
  const inSource = `${c.source_id} [${c.start}, ${c.end})`;
  if (!s) return inSource;
  return `${inSource} = page ${s.page} codepoints [${s.start_codepoint + c.start}, ${s.start_codepoint + c.end})`;
}

export const exportLimit = (what: string, limit: number) =>
  new SvcError(413, 'export_limit', `The export's ${what} would exceed ${limit} bytes; nothing was produced.`, { part: what, limit_bytes: limit });
