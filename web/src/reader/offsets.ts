/**
 * Anchors are Unicode codepoint offsets into the service's page text (spec 2);
 * the DOM counts UTF-16 code units. An astral character (𝐀, an emoji) is one
 * codepoint and two units: every offset crosses this file on its way.
 */

/** Unit offset of every codepoint offset 0…n of `text` (n = its codepoint length). */
export function unitsByCodepoint(text: string): Uint32Array {
  const out = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let unit = 0; unit < text.length; cp++) {
    out[cp] = unit;
    const code = text.charCodeAt(unit);
    unit += code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length ? 2 : 1;
  }
  out[cp] = text.length;
  return out.subarray(0, cp + 1);
}

/** The codepoint offset of UTF-16 unit offset `unit` (a boundary, never inside a pair). */
export function codepointAt(text: string, unit: number): number {
  let cp = 0;
  for (let i = 0; i < unit; cp++) {
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return cp;
}

/** The UTF-16 offsets of the selection inside `container`, or null when it is empty or not wholly in it. */
export function selectionUnits(container: Element, selection: Selection | null): { start: number; end: number } | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  if (!container.contains(range.startContainer) || !container.contains(range.endContainer)) return null;
  const before = document.createRange();
  before.setStart(container, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  return { start, end: start + range.toString().length };
}

/** The range without the blanks at either end (a drag often takes a space or a line end). */
export function trimUnits(text: string, start: number, end: number): { start: number; end: number } {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

export interface Mark {
  /** UTF-16 offsets into the page text. */
  start: number;
  end: number;
  kind: 'note' | 'find' | 'find-current' | 'cited';
  noteId?: number;
}

export interface Segment {
  text: string;
  start: number;
  notes: number[];
  find: 'find' | 'find-current' | null;
  /** Inside the passage a citation opened. */
  cited: boolean;
}

/**
 * The page text cut where a mark begins or ends, each piece with the notes,
 * the find match and the cited passage that cover it (highlights may overlap). Their texts
 * joined are the page text, unit for unit: the pane's text is the anchor's.
 */
export function segmentsOf(text: string, marks: Mark[]): Segment[] {
  const cuts = new Set<number>([0, text.length]);
  for (const m of marks) {
    cuts.add(Math.max(0, Math.min(text.length, m.start)));
    cuts.add(Math.max(0, Math.min(text.length, m.end)));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const byStart = [...marks].sort((a, b) => a.start - b.start);
  const open: Mark[] = [];
  let next = 0;
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i]!;
    const to = points[i + 1]!;
    while (next < byStart.length && byStart[next]!.start <= from) open.push(byStart[next++]!);
    for (let j = open.length - 1; j >= 0; j--) if (open[j]!.end <= from) open.splice(j, 1);
    const covering = open.filter((m) => m.start <= from && m.end >= to);
    const find = covering.some((m) => m.kind === 'find-current') ? 'find-current' : covering.some((m) => m.kind === 'find') ? 'find' : null;
    out.push({ text: text.slice(from, to), start: from, notes: covering.filter((m) => m.kind === 'note').map((m) => m.noteId!), find, cited: covering.some((m) => m.kind === 'cited') });
  }
  return out;
}
