/**
 * The service's extracted text of the page, where notes are made: its
 * characters are exactly the page text (marks only wrap them), so a selection
 * here is a range of the text every anchor points into. Saved passages are
 * marked from the service's highlights; a find match is marked too; the
 * passage a citation opened is one element around its pieces, outlined and
 * labelled "cited passage" by the style sheet (generated content, so the
 * pane's text stays the page text), and focused once when it is shown.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo } from 'preact/hooks';
import type { Highlight } from '../api/reader.js';
import { segmentsOf, unitsByCodepoint, type Mark, type Segment } from './offsets.js';

export interface TextPaneProps {
  text: string;
  highlights: Highlight[];
  /** Find matches, in UTF-16 offsets. */
  matches: { start: number; end: number }[];
  current: number;
  /** The note to point at (from the notes list). */
  focusNote: number | null;
  /** The passage a citation opened, in UTF-16 offsets (see passage.ts). */
  cited: { start: number; end: number } | null;
  paneRef: { current: HTMLDivElement | null };
}

/** A performance measure, read by bench/window-reader.mjs: from the page's marks asked to their being in the page. */
const MEASURE = 'svc-reader-highlights';
export const CITED_ID = 'cited-passage';

function piece(s: Segment, focusNote: number | null, bodies: Map<number, string>): ComponentChildren {
  if (s.notes.length === 0 && !s.find) return s.text;
  const classes = [s.notes.length > 0 && 'hl', s.notes.length > 1 && 'hl-many', s.notes.includes(focusNote ?? -1) && 'hl-focus', s.find].filter(Boolean).join(' ');
  const title = s.notes.map((id) => bodies.get(id) || `Note ${id}`).join('\n');
  return (
    <mark key={s.start} class={classes} data-notes={s.notes.length > 0 ? s.notes.join(' ') : undefined} title={title || undefined}>
      {s.text}
    </mark>
  );
}

export function TextPane({ text, highlights, matches, current, focusNote, cited, paneRef }: TextPaneProps) {
  const segments = useMemo(() => {
    performance.mark(`${MEASURE}-start`);
    const units = unitsByCodepoint(text);
    const marks: Mark[] = highlights.map((h) => ({ start: units[h.start] ?? text.length, end: units[h.end] ?? text.length, kind: 'note', noteId: h.note_id }));
    matches.forEach((m, i) => marks.push({ ...m, kind: i === current ? 'find-current' : 'find' }));
    if (cited) marks.push({ ...cited, kind: 'cited' });
    return segmentsOf(text, marks);
  }, [text, highlights, matches, current, cited?.start, cited?.end]);
  const bodies = useMemo(() => new Map(highlights.map((h) => [h.note_id, h.body])), [highlights]);

  useLayoutEffect(() => {
    performance.measure(MEASURE, `${MEASURE}-start`);
    const el = paneRef.current;
    const target = el?.querySelector(focusNote !== null ? `mark[data-notes~="${focusNote}"]` : 'mark.find-current');
    target?.scrollIntoView({ block: 'nearest' });
  }, [segments, focusNote, paneRef]);

  // A keyboard or screen-reader user lands on the cited passage: focused once per passage and text, not on every redraw (typing in find keeps its focus).
  useEffect(() => {
    const el = cited && paneRef.current?.querySelector<HTMLElement>(`#${CITED_ID}`);
    if (!el) return;
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, cited?.start, cited?.end]);

  const pieces: ComponentChildren[] = [];
  const inside: ComponentChildren[] = [];
  segments.forEach((s, i) => {
    if (!s.cited) return void pieces.push(piece(s, focusNote, bodies));
    inside.push(piece(s, focusNote, bodies));
    if (segments[i + 1]?.cited) return;
    pieces.push(
      <mark key={`cited-${s.start}`} id={CITED_ID} class="cited" tabIndex={-1} data-testid="cited-passage">
        {inside.splice(0)}
      </mark>,
    );
  });

  return (
    <div class="page-text" ref={paneRef} tabIndex={0} role="region" aria-label="Page text" data-testid="page-text">
      {pieces}
    </div>
  );
}
