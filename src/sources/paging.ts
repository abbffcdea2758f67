/**
 * The paging adapters share: how many entries one page asks for, and the
 * fetchPage of a source paged by offset (start, rows), so that an adapter
 * says only how to ask for the page at an offset. The driver (page-loop.ts)
 * decides when to stop asking; this decides what the next page is.
 */
import type { SourceHttp } from './http.js';
import type { PageResult, ParsedPage, SearchRequest, SourceAdapter } from './types.js';

export interface OffsetLimits {
  /** Offsets count from 1 (IEEE's start_record, Springer's s) instead of 0. */
  base?: 0 | 1;
  /** The deepest offset the source serves (CORE, Scopus, PubMed's esearch); none beyond. */
  ceiling?: number;
  /**
   * A page with no usable record ends paging (ADS: every entry is asked with what a record needs,
   * so a page where none had it says the rest will not either).
   */
  endsWithoutRecords?: boolean;
}

export interface OffsetPaging extends OffsetLimits {
  /** The most entries the source answers in one page. */
  pageSize: number;
}

/** The entries to ask in one page: max_results when that is fewer than a full page, and at least one. */
export function pageSizeFor(req: Pick<SearchRequest, 'maxResults'>, pageSize: number): number {
  return Math.min(pageSize, Math.max(1, req.maxResults));
}

/**
 * The cursor of the page after one that began at `start`: start plus what
 * came back, while the page was not empty and the reported total says more
 * remain. Counted from what was asked, so a source echoing a stale offset can
 * never make paging stand still.
 */
export function nextOffset(start: number, page: Pick<ParsedPage, 'received' | 'total'> & Partial<Pick<ParsedPage, 'records'>>, limits: OffsetLimits = {}): string | undefined {
  const next = start + page.received;
  const came = limits.endsWithoutRecords ? (page.records?.length ?? 0) : page.received;
  const more = came > 0 && page.total !== undefined && next - (limits.base ?? 0) < page.total && (limits.ceiling === undefined || next < limits.ceiling);
  return more ? String(next) : undefined;
}

/** One page of an offset-paged source: the page at `start`, asked for `size` entries. */
export type PageAt = (req: SearchRequest, start: number, size: number, http: SourceHttp) => Promise<Omit<PageResult, 'next'>>;

/**
 * The fetchPage of a source paged by offset: the page at the cursor (the
 * first at `base`), `pageSizeFor` entries, and the cursor after it from what
 * came back (nextOffset).
 *
 * @example
 * fetchPage: offsetPaged({ pageSize: 100, ceiling: 10_000 }, async (req, start, size, http) =>
 *   http.parse(PAGE, await http.get(`${req.baseUrl}/search?start=${start}&rows=${size}`))),
 */
export function offsetPaged(paging: OffsetPaging, pageAt: PageAt): SourceAdapter['fetchPage'] {
  return async (req, cursor, http) => {
    const start = cursor ? Number(cursor) : (paging.base ?? 0);
    const page = await pageAt(req, start, pageSizeFor(req, paging.pageSize), http);
    return { ...page, next: nextOffset(start, page, paging) };
  };
}
