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
