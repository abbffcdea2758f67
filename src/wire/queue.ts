/**
 * The JSON of the reading queue as the routes send it (spec 1, "reading
 * queue"): one saved paper, and a page of them. Declared once here, for the
 * service and the window alike; imports nothing but wire files.
 */
import type { Paper } from './explorer.js';

export type QueueStatus = 'unread' | 'read';
/** The list filter: a status, or all (the same as omitting it). */
export type QueueFilter = 'all' | QueueStatus;

export interface QueueEntry {
  document_id: number;
  status: QueueStatus;
  saved_at_utc: string;
  read_at_utc: string | null;
  updated_at_utc: string;
  /** null when the paper is gone from the corpus. */
  paper: Paper | null;
}

/** GET /api/reading-queue. */
export interface QueuePage {
  status: QueueFilter;
  /** The filter's words, lower-cased, or null when there is none. */
  query: string | null;
  /** The papers of this status that match the filter. */
  total: number;
  /** The whole queue per status. */
  counts: Record<QueueStatus, number>;
  /** Per status, the papers that match the filter (the counts when there is none). */
  matching: Record<QueueStatus, number>;
  limit: number;
  offset: number;
  next_offset: number | null;
  entries: QueueEntry[];
}

/** POST /api/reading-queue: 201 with created true, or 200 and the row unchanged when the paper was saved already. */
export interface QueueSaved extends QueueEntry {
  created: boolean;
}

/** PUT /api/reading-queue/{document_id}: changed false when the paper had that status already. */
export interface QueueMarked extends QueueEntry {
  changed: boolean;
}

/** DELETE /api/reading-queue/{document_id}: off the queue; the paper stays in the corpus. */
export interface QueueRemoved {
  document_id: number;
  removed: true;
}
