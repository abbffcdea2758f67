/**
 * A paper's page calls: the paper and why it is here, its lifecycle, similar
 * papers, near-duplicate links and their collapse preview, watch-profile
 * matches (its place in the reading queue: api/queue.ts). The answers' shapes
 * are the service's, from src/wire/ (papers.ts, lifecycle.ts, similar.ts,
 * links.ts, profiles.ts).
 */
import type { LifecycleAnswer } from '../../../src/wire/lifecycle.js';
import type { CollapsePreview, LinksAnswer } from '../../../src/wire/links.js';
import type { WhyAnswer } from '../../../src/wire/papers.js';
import type { MatchesForDocuments } from '../../../src/wire/profiles.js';
import type { SimilarAnswer } from '../../../src/wire/similar.js';
import { api } from './client.js';

export type { CollapsePreview, LinkView } from '../../../src/wire/links.js';
export type { PaperDetail, TermMatch, WhyAnswer, WhyExecution } from '../../../src/wire/papers.js';
export type { DocumentProfileMatch, MatchesForDocuments } from '../../../src/wire/profiles.js';

export const papers = {
  why: (id: number, signal?: AbortSignal) => api.get<WhyAnswer>(`/api/documents/${id}/why`, { signal }),
  lifecycle: (id: number, signal?: AbortSignal) => api.get<LifecycleAnswer>(`/api/documents/${id}/lifecycle`, { signal }),
  similar: (id: number, signal?: AbortSignal) => api.get<SimilarAnswer>(`/api/documents/${id}/similar`, { signal, query: { limit: 10 } }),
  links: (id: number, signal?: AbortSignal) => api.get<LinksAnswer>(`/api/documents/${id}/links`, { signal }),
  collapsePreview: (ids: number[]) => api.post<CollapsePreview>('/api/links/collapse-preview', { document_ids: ids }),
  profileMatches: (id: number, signal?: AbortSignal) => api.post<MatchesForDocuments>('/api/profiles/matches/for-documents', { document_ids: [id] }, { signal }),
};
