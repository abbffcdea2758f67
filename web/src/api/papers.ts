/**
 * A paper's page calls: the paper and why it is here, its lifecycle, similar
 * papers, near-duplicate links and their collapse preview, watch-profile
 * matches, and its place in the reading queue; with the shapes of their
 * answers (only the fields the window reads).
 */
import { api } from './client.js';
import type { Paper } from './explorer.js';

export interface Identifier {
  scheme: string;
  label: string;
  value: string;
  url: string | null;
}

export interface AuthorDetail {
  name: string;
  orcid?: string;
  affiliations?: string[];
}

export interface PaperDetail extends Paper {
  abstract: string | null;
  author_details: AuthorDetail[];
  date_precision: string | null;
  identifiers: Identifier[];
  pdf_url: string | null;
  license: string | null;
  open_access: boolean | null;
}

export interface TermMatch {
  term: string;
  kind: 'query_word' | 'keyword';
  fields: string[];
}

export interface WhyExecution {
  execution_id: number;
  type: string;
  status: string;
  started_at_utc: string;
  routine: { id: number; name: string | null; exists: boolean } | null;
  source: string;
  rank: number;
  first_found_by_this_run: boolean;
  query: string;
  keywords: string[];
  date_window: { date_from: string | null; date_to: string | null };
  author: string | null;
  relevance_ranked: boolean;
  terms: TermMatch[];
  verdict: string;
}

export interface WhyAnswer {
  document_id: number;
  paper: PaperDetail;
  first_seen_at_utc: string | null;
  found_by: { source: string; native_id: string; first_seen_at_utc: string; last_seen_at_utc: string; relevance_ranked: boolean; linked_to_stored_run: boolean }[];
  executions: WhyExecution[];
  cannot_verify: string[];
  method: string;
}

export interface LifecycleEvent {
  id: number;
  kind: string;
  source: string;
  notice_url: string | null;
  notice_doi: string | null;
  label: string | null;
  event_date: string | null;
  detected_at_utc: string;
}

export interface LifecycleAnswer {
  document_id: number;
  is_retracted: boolean;
  askable: boolean;
  checked_at_utc: string | null;
  last_attempt: { at_utc: string; outcome: string; error: string | null } | null;
  events: LifecycleEvent[];
  what_a_kind_means: Record<string, string>;
}

export interface SimilarAnswer {
  document_id: number;
  model: string | null;
  kind: 'lexical' | 'semantic' | null;
  results: { document_id: number; distance: number; title: string; year: number | null; doi: string | null; sources: string[] }[];
  reason: string | null;
  message: string | null;
}

export interface LinkView {
  document_id: number;
  /** same_work or related_version, where the service says it. */
  kind?: string;
  method: string;
  score: number;
  evidence: Record<string, unknown>;
  title: string | null;
  year: number | null;
  doi: string | null;
  sources: string[];
}

export interface LinksAnswer {
  document_id: number;
  links: LinkView[];
  reason: string | null;
  message: string | null;
}

export interface CollapsePreview {
  groups: { keep: number; fold: number[]; methods: string[] }[];
  fold_ids: number[];
  kept_ids: number[];
  unknown_ids: number[];
  note: string;
}

export interface ProfileMatch {
  profile_id: number;
  profile_name: string;
  kind: string;
  basis: string;
  matched_author: string | null;
  evidence: unknown;
}

export interface ProfileMatchesAnswer {
  documents: { document_id: number; matches: ProfileMatch[] }[];
  what_a_basis_means: Record<string, string>;
}

export interface QueueEntry {
  document_id: number;
  status: 'unread' | 'read';
  saved_at_utc: string;
  read_at_utc: string | null;
}

export const papers = {
  why: (id: number, signal?: AbortSignal) => api.get<WhyAnswer>(`/api/documents/${id}/why`, { signal }),
  lifecycle: (id: number, signal?: AbortSignal) => api.get<LifecycleAnswer>(`/api/documents/${id}/lifecycle`, { signal }),
  similar: (id: number, signal?: AbortSignal) => api.get<SimilarAnswer>(`/api/documents/${id}/similar`, { signal, query: { limit: 10 } }),
  links: (id: number, signal?: AbortSignal) => api.get<LinksAnswer>(`/api/documents/${id}/links`, { signal }),
  collapsePreview: (ids: number[]) => api.post<CollapsePreview>('/api/links/collapse-preview', { document_ids: ids }),
  profileMatches: (id: number, signal?: AbortSignal) => api.post<ProfileMatchesAnswer>('/api/profiles/matches/for-documents', { document_ids: [id] }, { signal }),
};

export const readingQueue = {
  /** This paper's entry, or null when it is not saved. */
  entry: (id: number, signal?: AbortSignal) =>
    api.get<{ entries: QueueEntry[] }>('/api/reading-queue', { signal, query: { document_id: id } }).then((a) => a.entries[0] ?? null),
  save: (id: number) => api.post<QueueEntry>('/api/reading-queue', { document_id: id }),
  mark: (id: number, status: QueueEntry['status']) => api.put<QueueEntry>(`/api/reading-queue/${id}`, { status }),
  remove: (id: number) => api.delete(`/api/reading-queue/${id}`),
};
