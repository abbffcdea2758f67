/** Small wording helpers shared by the human views. */

export { count } from '../../src/util/words.js';
/** A multi-line body (abstract, note, answer) from outside: line breaks kept, what a terminal acts on dropped. */
export { plainText } from '../../src/util/plain-text.js';

/** At most `max` characters, ending in "…" when cut (never a cut that looks like the whole text, nor a trailing space). */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/**
 * Stored or upstream text (a routine's name written through MCP, a paper's title) on one
 * terminal line: line breaks and tabs become a space; other control characters and the
 * bidirectional controls are dropped, since they move the cursor, recolour the terminal or
 * reorder what follows them.
 */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ').replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '');
}
