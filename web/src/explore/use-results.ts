/**
 * The explorer's pages of papers for one set of filters, loaded by cursor as
 * the reader scrolls: the rows so far (one array appended to in place, with a
 * version to draw again, so a hundred thousand rows are never copied), the
 * first page's answer (mode, fallback, ranking), whether more follow, and the
 * refusal if the service refused. A new set of filters aborts what is in
 * flight and starts again from the first page.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { explorer, type ExplorerFilters, type Paper, type SearchAnswer, type SearchOptions } from '../api/explorer.js';

/** Papers per page: many screens of rows; the next page is asked for a whole page before the reader gets there. */
export const PAGE_SIZE = 200;

export interface Results {
  rows: Paper[];
  version: number;
  first: SearchAnswer | undefined;
  loading: boolean;
  more: boolean;
  error: unknown;
  loadMore: () => void;
  retry: () => void;
}

export function useResults(filters: ExplorerFilters, options: SearchOptions): Results {
  const key = JSON.stringify([filters, options]);
  const rows = useRef<Paper[]>([]);
  const cursor = useRef<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  // A page that failed is not asked for again by scrolling; the reader retries it.
  const failed = useRef(false);
  const [state, setState] = useState<Omit<Results, 'rows' | 'loadMore' | 'retry'>>({ version: 0, first: undefined, loading: true, more: false, error: null });

  const fetchPage = useCallback(
    (fresh: boolean) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      failed.current = false;
      if (fresh) {
        rows.current = [];
        cursor.current = null;
      }
      setState((s) => ({ ...s, loading: true, error: null, ...(fresh ? { first: undefined, more: false, version: s.version + 1 } : {}) }));
      explorer.search(filters, { ...options, cursor: cursor.current, limit: PAGE_SIZE }, controller.signal).then(
        (answer) => {
          if (controller.signal.aborted) return;
          inFlight.current = null;
          for (const paper of answer.papers) rows.current.push(paper);
          cursor.current = answer.next_cursor;
          setState((s) => ({ version: s.version + 1, first: fresh ? answer : s.first, loading: false, more: answer.next_cursor !== null, error: null }));
        },
        (error) => {
          if (controller.signal.aborted || (error as Error)?.name === 'AbortError') return;
          inFlight.current = null;
          failed.current = true;
          setState((s) => ({ ...s, loading: false, error }));
        },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );

  useEffect(() => {
    fetchPage(true);
    return () => inFlight.current?.abort();
  }, [fetchPage]);

  const loadMore = useCallback(() => {
    if (inFlight.current || failed.current || cursor.current === null) return;
    fetchPage(false);
  }, [fetchPage]);

  /** Ask again for the page that failed (the first one, when no row came). */
  const retry = useCallback(() => fetchPage(rows.current.length === 0), [fetchPage]);

  return { ...state, rows: rows.current, loadMore, retry };
}
