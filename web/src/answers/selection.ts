/**
 * What a person has chosen to send, as data: per pinned file whether it is
 * used, its whole pages (typed as "1, 3-4") and its saved passages; the notes
 * whose bodies go too; and the request body built from it. The counts shown
 * against the service's limits are counted here; whether a selection may run
 * is the service's to say (the preview refuses, with a `loc`).
 */
import type { Member, Note, Segment, Selection } from '../api/answers.js';
import { ApiError } from '../api/errors.js';

export interface FileChoice {
  use: boolean;
  pages: string;
  /** Note ids of the passage notes whose passages are selected. */
  passages: number[];
}

export interface Chosen {
  files: Record<string, FileChoice>;
  noteIds: number[];
}

/** "1, 3-4" → [1, 3, 4]; null when the text is not page numbers and ranges. */
export function parsePages(text: string): number[] | null {
  const pages: number[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:\s*[-–]\s*(\d+))?$/.exec(part);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] ? Number(m[2]) : from;
    if (to < from || to - from > 500) return null;
    for (let p = from; p <= to; p++) pages.push(p);
  }
  return pages;
}

/** The selections of the request body, in member order; the index of each is the `loc` index a refusal names. */
export function selections(members: Member[], notes: Note[], chosen: Chosen): Selection[] {
  const out: Selection[] = [];
  for (const m of members) {
    const c = chosen.files[m.file_id];
    if (!c?.use) continue;
    const segments: Segment[] = (parsePages(c.pages) ?? []).map((page) => ({ kind: 'page', page }));
    for (const id of c.passages) {
      const a = notes.find((n) => n.note_id === id)?.anchor;
      if (a) segments.push({ kind: 'passage', page: a.page, start_codepoint: a.start, end_codepoint: a.end });
    }
    out.push({ file_id: m.file_id, version_id: m.version_id, segments });
  }
  return out;
}

export interface Counts {
  files: number;
  pages: number;
  segments: number;
  notes: number;
}

export function counts(sel: Selection[], chosen: Chosen): Counts {
  const pages = new Set(sel.flatMap((s) => s.segments.map((g) => `${s.file_id}:${g.page}`)));
  return { files: sel.length, pages: pages.size, segments: sel.reduce((n, s) => n + s.segments.length, 0), notes: chosen.noteIds.length };
}

/** Where a refusal points: a 422 item's `loc`, or the `loc` a domain refusal carries in its detail. */
export function refusalLocs(err: unknown): { loc: (string | number)[]; message: string }[] {
  if (!(err instanceof ApiError)) return [];
  if (err.items.length) return err.items.map((i) => ({ loc: i.loc, message: i.msg }));
  const loc = err.detail.loc;
  return Array.isArray(loc) ? [{ loc: loc as (string | number)[], message: err.message }] : [];
}

/** The field a refusal belongs beside: instruction, notes, choices, or the file at selection index i. */
export function fieldOf(loc: (string | number)[], sent: Selection[]): string | null {
  const [where, name, index] = loc;
  if (where !== 'body') return null;
  if (name === 'instruction') return 'instruction';
  if (name === 'note_ids') return 'notes';
  if (name === 'mode') return 'mode';
  if (name === 'choices') return loc[2] === 'model' ? 'model' : loc[2] === 'effort' ? 'effort' : 'connection';
  if (name === 'selections' && typeof index === 'number' && sent[index]) return `file:${sent[index]!.file_id}`;
  return null;
}
