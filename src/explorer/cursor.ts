/**
 * The explorer's opaque cursor: where the last page ended in its order, plus
 * a fingerprint of the filters, sort and mode it belongs to (a cursor sent
 * with other filters is refused rather than silently paging something else).
 *
 * newest: keyset (sort_date, id), exact under concurrent inserts: every paper
 * present at the first page is returned once, in order; papers added later
 * appear only if they sort after the cursor. relevance: keyset (bm25 score,
 * id); the score depends on corpus statistics, so pages read while papers are
 * being added follow the current statistics. semantic: keyset (distance, id).
 */
import { createHash } from 'node:crypto';
import { invalid } from '../errors.js';
import type { ExplorerMode, ExplorerSort, Filters } from './filters.js';

export type CursorKey = { kind: 'date'; date: string; id: number } | { kind: 'score'; score: number; id: number } | { kind: 'distance'; distance: number; id: number; seen: number };

interface Payload {
  v: 1;
  f: string;
  k: CursorKey;
}

export function fingerprint(filters: Filters, sort: ExplorerSort, mode: ExplorerMode): string {
  const canonical = JSON.stringify([filters.query, [...filters.authors].sort(), [...filters.categories].sort(), [...filters.sources].sort(), filters.dateFrom, filters.dateTo, sort, mode]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeCursor(print: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify({ v: 1, f: print, k: key } satisfies Payload)).toString('base64url');
}

const bad = (raw: string, msg: string) => invalid(['body', 'cursor'], msg, 'cursor_invalid', raw.slice(0, 100));

export function decodeCursor(raw: string, print: string, kind: CursorKey['kind'] | CursorKey['kind'][]): CursorKey {
  const kinds = Array.isArray(kind) ? kind : [kind];
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Payload;
  } catch {
    throw bad(raw, 'The cursor is not one this server gave out');
  }
  const k = payload?.k as CursorKey | undefined;
  const keyValid = (key: CursorKey): boolean =>
    kinds.includes(key.kind) &&
    Number.isSafeInteger(key.id) &&
    (key.kind === 'date' ? typeof key.date === 'string' : key.kind === 'score' ? Number.isFinite(key.score) : Number.isFinite(key.distance) && Number.isSafeInteger(key.seen));
  const valid = payload?.v === 1 && typeof payload.f === 'string' && typeof k === 'object' && k !== null && keyValid(k);
  if (!valid) throw bad(raw, 'The cursor is not one this server gave out');
  if (payload.f !== print) throw bad(raw, 'The cursor belongs to other filters, sort or mode; start again without a cursor');
  return k!;
}
