/**
 * The calls the reading-queue board and a paper's page make: a page of one
 * status (with the board's filter), one paper's entry, move a paper to another
 * status, remove it, save it (again).
 * Components draw; these ask. The answers' shapes are the service's, from
 * src/wire/queue.ts.
 */
import type { QueueMarked, QueuePage, QueueRemoved, QueueSaved } from '../../../src/wire/queue.js';
import { api } from './client.js';

export type { QueueEntry, QueuePage } from '../../../src/wire/queue.js';

export const readingQueue = {
  page: (params: { status?: string; q?: string; limit: number; offset?: number }, signal?: AbortSignal) =>
    api.get<QueuePage>('/api/reading-queue', { query: params, signal }),
  /** One paper's entry (a paper's page), or null when it is not saved. */
  entry: (documentId: number, signal?: AbortSignal) =>
    api.get<QueuePage>('/api/reading-queue', { signal, query: { document_id: documentId } }).then((a) => a.entries[0] ?? null),
  // A status by its name: the board takes its columns from the service's counts (a widening, never a cast down).
  move: (documentId: number, status: string) => api.put<QueueMarked>(`/api/reading-queue/${documentId}`, { status }),
  remove: (documentId: number) => api.delete<QueueRemoved>(`/api/reading-queue/${documentId}`),
  save: (documentId: number) => api.post<QueueSaved>('/api/reading-queue', { document_id: documentId }),
};
