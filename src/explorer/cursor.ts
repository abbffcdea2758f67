/**
 * The explorer's opaque cursor: where the last page ended in its order, plus
 * a fingerprint of the filters, sort and mode it belongs to (a cursor sent
 * with other filters is refused rather than silently paging something else).
 *
 * newest: keyset (sort_date, id), exact under concurrent inserts: every paper
 * present at the first page is returned once, in order; papers added later
 * appear only if they sort after the cursor. relevance: the position in the
 * ranking of the papers present at the first page (CursorKey rank). semantic:
 * keyset (distance, id).
 */
import { createHash } from 'node:crypto';
import { invalid } from '../errors.js';
import type { ExplorerMode, ExplorerSort, Filters } from './filters.js';

/**
 * rank: a relevance page's place, by position (seen) among the papers with ids
 * up to ceiling (the newest id when the first page was read) and, for a bounded
 * ranking, above floor. bm25 scores move with the corpus statistics, so a
 * keyset on the score repeated or skipped whole runs of tied papers when any
 * were added between pages. A position in a fixed set of papers keeps ties in
 * id order; it is not exact either: the statistics (the average length of every
 * paper) still move, and two papers scoring almost alike can swap across a page
 * boundary (svc-corpus(1) says so).
 */
export type CursorKey =
  | { kind: 'date'; date: string; id: number }
  | { kind: 'rank'; seen: number; ceiling: number; floor?: number }
  | { kind: 'distance'; distance: number; id: number; seen: number };

interface Payload {
  v: 1;
  f: string;
  k: CursorKey;
}

export function fingerprint(filters: Filters, sort: ExplorerSort, mode: ExplorerMode, exhaustive = false): string {
  // exhaustive joins the print only when set, so the cursors of every other request keep their prints.
  const canonical = JSON.stringify([filters.query, [...filters.authors].sort(), [...filters.categories].sort(), [...filters.sources].sort(), filters.dateFrom, filters.dateTo, sort, mode, ...(exhaustive ? ['exhaustive'] : [])]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeCursor(print: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify({ v: 1, f: print, k: key } satisfies Payload)).toString('base64url');
}

/** Why a cursor was refused (ctx.cause of the 422 issue), so each door can say what to do in its own words. */
export type CursorRefusal = 'empty' | 'foreign' | 'other_request' | 'semantic_unavailable';

const START_OVER = 'or leave cursor out to start from the first page';
const REFUSALS: Record<CursorRefusal, string> = {
  empty: `An empty cursor is not one this server gave out; leave cursor out (or send null) to start from the first page`,
  foreign: `The cursor is not one this server gave out; send the previous page's next_cursor as it was, ${START_OVER}`,
  other_request: `The cursor belongs to other filters, sort, mode or exhaustive; send the ones of the page that gave it, ${START_OVER}`,
  semantic_unavailable: `The cursor pages a semantic ranking, which is no longer available (ctx.reason says why); leave cursor out to start from the first page, which is a keyword search until it is available again`,
};

/** The 422 for a refused cursor: type cursor_invalid, at body.cursor. */
export const cursorRefused = (raw: string, cause: CursorRefusal, more: Record<string, unknown> = {}) =>
  invalid(['body', 'cursor'], REFUSALS[cause], 'cursor_invalid', raw.slice(0, 100), { cause, ...more });

const KINDS: CursorKey['kind'][] = ['date', 'rank', 'distance'];

export function decodeCursor(raw: string, print: string, kind: CursorKey['kind'] | CursorKey['kind'][]): CursorKey {
  const kinds = Array.isArray(kind) ? kind : [kind];
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw cursorRefused(raw, 'foreign');
  }
  const k = payload?.k as CursorKey | undefined;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  // Any well-formed key is checked against the request first, so a cursor of another sort reads as
  // belonging to another request, not as one svc never gave out.
  const keyValid = (key: CursorKey): boolean =>
    KINDS.includes(key.kind) &&
    (key.kind === 'date'
      ? typeof key.date === 'string' && Number.isSafeInteger(key.id)
      : key.kind === 'rank'
        ? count(key.seen) && count(key.ceiling) && (key.floor === undefined || count(key.floor))
        : Number.isFinite(key.distance) && Number.isSafeInteger(key.id) && count(key.seen));
  const valid = payload?.v === 1 && typeof payload.f === 'string' && typeof k === 'object' && k !== null && keyValid(k);
  if (!valid) throw cursorRefused(raw, 'foreign');
  if (payload.f !== print) throw cursorRefused(raw, 'other_request');
  if (!kinds.includes(k!.kind)) throw cursorRefused(raw, 'foreign');
  return k!;
}
