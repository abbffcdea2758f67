/**
 * Find in the page text: every match marked, one of them current (Enter for
 * the next, Shift+Enter for the one before), and the current match is a
 * passage a note can be made on from the keyboard alone.
 */
import { useMemo } from 'preact/hooks';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The UTF-16 ranges of `query` in `text`, ignoring case (a regular expression keeps offsets in the original text). */
export function findAll(text: string, query: string): { start: number; end: number }[] {
  if (!query) return [];
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(new RegExp(escapeRegExp(query), 'giu'))) {
    out.push({ start: m.index, end: m.index + m[0].length });
    if (out.length >= 1000) break;
  }
  return out;
}

export interface FindProps {
  query: string;
  setQuery: (q: string) => void;
  total: number;
  current: number;
  setCurrent: (i: number) => void;
}

export function FindInPage({ query, setQuery, total, current, setCurrent }: FindProps) {
  const said = useMemo(() => (!query ? '' : total === 0 ? 'no match on this page' : `${current + 1} of ${total}`), [query, total, current]);
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || total === 0) return;
    event.preventDefault();
    setCurrent((current + (event.shiftKey ? total - 1 : 1)) % total);
  };
  return (
    <div class="find-in-page" role="search">
      <label for="reader-find">Find in page text</label>
      <input id="reader-find" type="search" data-search-field value={query} onInput={(e) => setQuery(e.currentTarget.value)} onKeyDown={onKey} aria-describedby="reader-find-count" />
      <span id="reader-find-count" class="muted" aria-live="polite">
        {said}
      </span>
      <button type="button" class="quiet" disabled={total === 0} onClick={() => setCurrent((current + total - 1) % total)} aria-label="Previous match">
        ↑
      </button>
      <button type="button" class="quiet" disabled={total === 0} onClick={() => setCurrent((current + 1) % total)} aria-label="Next match">
        ↓
      </button>
    </div>
  );
}
