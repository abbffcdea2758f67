/**
 * Page navigation: previous and next, a page number field, and the keys a
 * PDF reader answers — PageUp/PageDown and ←/→ — wherever the focus is not in
 * a field. The page count is the service's when it knows it.
 */
import { useEffect, useState } from 'preact/hooks';

export interface PageNavProps {
  page: number;
  count: number | null;
  go: (page: number) => void;
}

const TYPING = ['INPUT', 'TEXTAREA', 'SELECT'];

export function usePageKeys(page: number, count: number | null, go: (page: number) => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || TYPING.includes(target.tagName))) return;
      const step = event.key === 'PageDown' || event.key === 'ArrowRight' ? 1 : event.key === 'PageUp' || event.key === 'ArrowLeft' ? -1 : 0;
      if (step === 0) return;
      const next = page + step;
      if (next < 1 || (count !== null && next > count)) return;
      event.preventDefault();
      go(next);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [page, count, go]);
}

export function PageNav({ page, count, go }: PageNavProps) {
  const [typed, setTyped] = useState(String(page));
  useEffect(() => setTyped(String(page)), [page]);
  const last = count ?? Infinity;
  const commit = (event: Event) => {
    event.preventDefault();
    const n = Number(typed);
    if (Number.isInteger(n) && n >= 1 && n <= last) go(n);
    else setTyped(String(page));
  };
  return (
    <form class="page-nav" onSubmit={commit} aria-label="Pages">
      <button type="button" class="quiet" onClick={() => go(page - 1)} disabled={page <= 1} aria-label="Previous page" title="Previous page (PageUp, ←)">
        ‹ Previous
      </button>
      <label for="reader-page">Page</label>
      <input id="reader-page" type="number" inputMode="numeric" min={1} max={count ?? undefined} value={typed} onInput={(e) => setTyped(e.currentTarget.value)} onBlur={commit} />
      <span>{count !== null ? `of ${count}` : ''}</span>
      <button type="button" class="quiet" onClick={() => go(page + 1)} disabled={page >= last} aria-label="Next page" title="Next page (PageDown, →)">
        Next ›
      </button>
    </form>
  );
}
