/**
 * The service's extracted text of the page, where notes are made: its
 * characters are exactly the page text (marks only wrap them), so a selection
 * here is a range of the text every anchor points into. Saved passages are
 * marked from the service's highlights; a find match is marked too.
 */
import { useLayoutEffect, useMemo } from 'preact/hooks';
import type { Highlight } from '../api/reader.js';
import { segmentsOf, unitsByCodepoint, type Mark } from './offsets.js';

export interface TextPaneProps {
  text: string;
  highlights: Highlight[];
  /** Find matches, in UTF-16 offsets. */
  matches: { start: number; end: number }[];
  current: number;
  /** The note to point at (from the notes list). */
  focusNote: number | null;
  paneRef: { current: HTMLDivElement | null };
}

/** A performance measure, read by bench/window-reader.mjs: from the page's marks asked to their being in the page. */
const MEASURE = 'svc-reader-highlights';

export function TextPane({ text, highlights, matches, current, focusNote, paneRef }: TextPaneProps) {
  const segments = useMemo(() => {
    performance.mark(`${MEASURE}-start`);
    const units = unitsByCodepoint(text);
    const marks: Mark[] = highlights.map((h) => ({ start: units[h.start] ?? text.length, end: units[h.end] ?? text.length, kind: 'note', noteId: h.note_id }));
    matches.forEach((m, i) => marks.push({ ...m, kind: i === current ? 'find-current' : 'find' }));
    return segmentsOf(text, marks);
  }, [text, highlights, matches, current]);
  const bodies = useMemo(() => new Map(highlights.map((h) => [h.note_id, h.body])), [highlights]);

  useLayoutEffect(() => {
    performance.measure(MEASURE, `${MEASURE}-start`);
    const el = paneRef.current;
    const target = el?.querySelector(focusNote !== null ? `mark[data-notes~="${focusNote}"]` : 'mark.find-current');
    target?.scrollIntoView({ block: 'nearest' });
  }, [segments, focusNote, paneRef]);

  return (
    <div class="page-text" ref={paneRef} tabIndex={0} role="region" aria-label="Page text" data-testid="page-text">
      {segments.map((s) => {
        if (s.notes.length === 0 && !s.find) return s.text;
        const classes = [s.notes.length > 0 && 'hl', s.notes.length > 1 && 'hl-many', s.notes.includes(focusNote ?? -1) && 'hl-focus', s.find].filter(Boolean).join(' ');
        const title = s.notes.map((id) => bodies.get(id) || `Note ${id}`).join('\n');
        return (
          <mark key={s.start} class={classes} data-notes={s.notes.length > 0 ? s.notes.join(' ') : undefined} title={title || undefined}>
            {s.text}
          </mark>
        );
      })}
    </div>
  );
}
