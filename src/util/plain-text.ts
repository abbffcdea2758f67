/**
 * Text from outside (a paper's abstract, a note, a model's answer, a routine's name set over
 * HTTP or MCP) as plain lines: what a terminal would act on (C0 and C1 controls but tab and
 * newline: escapes, a bell, a carriage return) and marks that reorder or hide what is read
 * (zero-width space, bidirectional marks and controls, line and paragraph separators) are
 * dropped; line breaks stay. The zero-width joiner and non-joiner stay: they are part of the
 * text (an emoji sequence such as 👩‍🔬, Persian and Indic spelling).
 * For one line, commands/lib/words.ts oneLine also turns line breaks into spaces.
 */
export function plainText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, '');
}
