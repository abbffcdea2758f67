/**
 * The reading queue: save a paper to read later (once; saving it again answers
 * the saved row unchanged), mark it read or unread, remove it (the paper stays
 * in the corpus), list it newest saved first, filtered by status.
 */
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { papersByIds } from '../explorer/paper.js';
import type { QueueEntry, QueueFilter, QueueMarked, QueuePage, QueueRemoved, QueueStatus } from '../wire/queue.js';
import { queueStatements, type QueueRow } from './repo.js';

export type { QueueEntry, QueueFilter, QueuePage, QueueStatus } from '../wire/queue.js';

export const QUEUE_STATUSES = ['unread', 'read'] as const satisfies readonly QueueStatus[];
export const QUEUE_FILTERS = ['all', ...QUEUE_STATUSES] as const satisfies readonly QueueFilter[];
export const QUEUE_LIST_LIMIT = { min: 1, max: 500, default: 50 } as const;

function entry(ctx: Context, row: QueueRow): QueueEntry {
  return { ...row, paper: papersByIds(ctx.db, [row.document_id])[0] ?? null };
}

/**
 * One saved paper with its title, or 404: document_not_found for an unknown paper,
 * not_in_queue for one that is not saved. `svc queue remove` reads it before asking.
 * @example getQueueEntry(ctx, 5).paper?.title
 */
export function getQueueEntry(ctx: Context, documentId: number): QueueEntry {
  return entry(ctx, requireEntry(ctx, documentId));
}

function requireEntry(ctx: Context, documentId: number): QueueRow {
  const st = queueStatements(ctx.db);
  const row = st.get.get(documentId) as QueueRow | undefined;
  if (row) return row;
  if (!st.documentExists.get(documentId)) throw notFound('document_not_found', `No document ${documentId}.`);
  throw notFound('not_in_queue', `Document ${documentId} is not in the reading queue.`);
}

/** Save a paper; `created` is false when it was already saved (the row is answered unchanged). */
export function saveToQueue(ctx: Context, documentId: number): { created: boolean; entry: QueueEntry } {
  const st = queueStatements(ctx.db);
  if (!st.documentExists.get(documentId)) throw notFound('document_not_found', `No document ${documentId}.`);
  const now = ctx.nowIso();
  const created = st.insert.run(documentId, now, now).changes > 0;
  return { created, entry: entry(ctx, st.get.get(documentId) as QueueRow) };
}

/** Mark read or unread; marking with the current status changes nothing (not even updated_at_utc). */
export function setQueueStatus(ctx: Context, documentId: number, status: QueueStatus): QueueMarked {
  requireEntry(ctx, documentId);
  const st = queueStatements(ctx.db);
  const changed = st.setStatus.run({ status, now: ctx.nowIso(), id: documentId }).changes > 0;
  return { ...entry(ctx, st.get.get(documentId) as QueueRow), changed };
}

/** Remove from the queue; the paper itself is untouched. */
export function removeFromQueue(ctx: Context, documentId: number): QueueRemoved {
  requireEntry(ctx, documentId);
  queueStatements(ctx.db).remove.run(documentId);
  return { document_id: documentId, removed: true };
}

export const QUEUE_QUERY_MAX_LENGTH = 200;

/** The words of a queue filter, lower-cased (SQLite's lower() folds ASCII letters only, so other letters must match their case). */
const wordsOf = (query: string) => [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];

/**
 * A page of the queue, newest saved first. `query` keeps the papers whose title or authors contain
 * every one of its words; `total` and `matching` then count those, `counts` the whole queue.
 * With `documentId`, only that paper's entry (none when it is not saved, or not with that status;
 * `query` is then not applied): how a paper's page learns whether it is queued without paging
 * the whole queue (total is then 0 or 1).
 */
export function listQueue(ctx: Context, options: { status?: QueueFilter; limit: number; offset: number; query?: string; documentId?: number }): QueuePage {
  const st = queueStatements(ctx.db);
  const status = options.status ?? 'all';
  const words = options.documentId === undefined ? wordsOf(options.query ?? '') : [];
  const counts = { unread: 0, read: 0 };
  for (const { status: s, n } of st.counts.all() as { status: QueueStatus; n: number }[]) counts[s] = n;
  let rows: QueueRow[];
  let matching = counts;
  if (options.documentId !== undefined) {
    const row = st.get.get(options.documentId) as QueueRow | undefined;
    matching = { unread: 0, read: 0 };
    if (row) matching[row.status] = 1;
    rows = row && (status === 'all' || row.status === status) ? [row].slice(options.offset, options.offset + options.limit) : [];
  } else if (words.length) {
    const params = { status, words: JSON.stringify(words), limit: options.limit, offset: options.offset };
    rows = st.pageMatching.all(params) as QueueRow[];
    matching = { unread: 0, read: 0 };
    for (const { status: s, n } of st.countsMatching.all(params) as { status: QueueStatus; n: number }[]) matching[s] = n;
  } else {
    rows = (status === 'all' ? st.pageAll.all(options.limit, options.offset) : st.pageByStatus.all(status, options.limit, options.offset)) as QueueRow[];
  }
  const total = status === 'all' ? matching.unread + matching.read : matching[status];
  const end = options.offset + rows.length;
  return {
    status,
    query: words.length ? words.join(' ') : null,
    total,
    counts,
    matching,
    limit: options.limit,
    offset: options.offset,
    next_offset: end < total ? end : null,
    entries: rows.map((row) => entry(ctx, row)),
  };
}
