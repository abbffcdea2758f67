/**
 * The calls the reading-queue board makes: a page of one status (with the
 * board's filter), move a paper to another status, remove it, save it again.
 * Components draw; these ask. The answers' shapes are the service's, from
 * src/wire/queue.ts.
 */
import type { QueueEntry, QueuePage } from '../../../src/wire/queue.js';
import { api } from './client.js';

export type { QueueEntry, QueuePage } from '../../../src/wire/queue.js';

export const readingQueue = {
  page: (params: { status?: string; q?: string; limit: number; offset?: number }, signal?: AbortSignal) =>
    api.get<QueuePage>('/api/reading-queue', { query: params, signal }),
  move: (documentId: number, status: string) => api.put<QueueEntry & { changed: boolean }>(`/api/reading-queue/${documentId}`, { status }),
  remove: (documentId: number) => api.delete<{ document_id: number; removed: true }>(`/api/reading-queue/${documentId}`),
  save: (documentId: number) => api.post<QueueEntry & { created: boolean }>('/api/reading-queue', { document_id: documentId }),
};
