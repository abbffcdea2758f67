/** The paging tail adapters with offset paging share. */
import type { ParsedPage } from './types.js';

export interface OffsetLimits {
  /** Offsets count from 1 (IEEE's start_record) instead of 0. */
  base?: 0 | 1;
  /** The deepest offset the source serves (CORE, Scopus); none beyond. */
  ceiling?: number;
}

/**
 * The cursor of the page after one that began at `start`: start plus what
 * came back, while the page was not empty and the reported total says more
 * remain. Counted from what was asked, so a source echoing a stale offset can
 * never make paging stand still.
 */
export function nextOffset(start: number, page: Pick<ParsedPage, 'received' | 'total'>, limits: OffsetLimits = {}): string | undefined {
  const next = start + page.received;
  const more = page.received > 0 && page.total !== undefined && next - (limits.base ?? 0) < page.total && (limits.ceiling === undefined || next < limits.ceiling);
  return more ? String(next) : undefined;
}
