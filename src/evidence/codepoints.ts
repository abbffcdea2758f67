/**
 * Offsets, lengths and limits in Unicode codepoints (never UTF-16 units): an
 * astral character such as U+1D400 counts one.
 */
const LONE_SURROGATE = /\p{Cs}/u;

export function codepointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The codepoints [start, end) of `text` (end exclusive). */
export function sliceCodepoints(text: string, start: number, end: number): string {
  return [...text].slice(start, end).join('');
}

/** Whether the string holds an unpaired surrogate (not representable in UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
