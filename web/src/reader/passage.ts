/**
 * The cited passage a selected answer's citation opens
 * (`?page=N&passage=<start>-<end>`): codepoint offsets, end exclusive, in the
 * page text the reader route answers. It is shown only when it is exactly a
 * range of that text; anything else is said, never clamped or guessed.
 */
import { unitsByCodepoint } from './offsets.js';

export type Cited =
  /** UTF-16 offsets into the page text, for the DOM; the codepoint offsets as the address gave them. */
  | { ok: true; start: number; end: number; codepoints: { start: number; end: number } }
  | { ok: false; why: string };

/** The `passage` parameter against the page's text (null when the page has none). */
export function citedPassage(param: string, text: string | null): Cited {
  const m = /^(\d{1,9})-(\d{1,9})$/.exec(param);
  if (!m) return { ok: false, why: `“${param.slice(0, 40)}” is not a passage (two codepoint offsets, start-end)` };
  const [start, end] = [Number(m[1]), Number(m[2])];
  if (start >= end) return { ok: false, why: `it starts at ${start}, not before its end ${end}` };
  if (text === null) return { ok: false, why: 'this page has no text to show it in' };
  const units = unitsByCodepoint(text);
  const length = units.length - 1;
  if (end > length) return { ok: false, why: `characters ${start}–${end} are beyond this page’s text, which has ${length}` };
  return { ok: true, start: units[start]!, end: units[end]!, codepoints: { start, end } };
}
