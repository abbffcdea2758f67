/**
 * The reading queue as the backend answers it, and the calls the board makes:
 * a page of one status (with the board's filter), move a paper to another
 * status, remove it, save it again. Components draw; these ask.
 */
import { api } from './client.js';

/** A saved paper as the queue answers it (the explorer's compact view). */
export interface QueuePaper {
  id: number;
  title: string;
  authors: string[];
  publication_date: string | null;
  year: number | null;
  venue: string | null;
  doi: string | null;
  url: string | null;
  sources: string[];
  type: string | null;
  is_retracted: boolean;
}

export interface QueueEntry {
  document_id: number;
  status: string;
  saved_at_utc: string;
  read_at_utc: string | null;
  updated_at_utc: string;
  /** null when the paper is gone from the corpus. */
  paper: QueuePaper | null;
}

export interface QueuePage {
  status: string;
  query: string | null;
  /** The papers of this status that match the filter. */
  total: number;
  /** The whole queue per status: its keys are the statuses the service has. */
  counts: Record<string, number>;
  /** Per status, the papers that match the filter (the counts when there is none). */
  matching: Record<string, number>;
  limit: number;
  offset: number;
  next_offset: number | null;
  entries: QueueEntry[];
}

export const readingQueue = {
  page: (params: { status?: string; q?: string; limit: number; offset?: number }, signal?: AbortSignal) =>
    api.get<QueuePage>('/api/reading-queue', { query: params, signal }),
  move: (documentId: number, status: string) => api.put<QueueEntry & { changed: boolean }>(`/api/reading-queue/${documentId}`, { status }),
  remove: (documentId: number) => api.delete<{ document_id: number; removed: true }>(`/api/reading-queue/${documentId}`),
  save: (documentId: number) => api.post<QueueEntry & { created: boolean }>('/api/reading-queue', { document_id: documentId }),
};
