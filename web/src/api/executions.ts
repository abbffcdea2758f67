/**
 * Runs (executions) as the backend answers them, and the calls the Search and
 * run pages make: start a dive or a sweep, follow, cancel and restart a run,
 * read its parts, download its references. Components draw; these ask. The
 * search record's shape is the service's, from src/wire/executions.ts.
 */
import type { RunStatus, RunType, SearchRecord } from '../../../src/wire/executions.js';
import { api } from './client.js';
import { download } from './download.js';
import { rememberStartedHere } from '../watch/notifications.js';

export type { HttpTrace, RecordSource, RunStatus, RunType, SearchRecord, WindowRange } from '../../../src/wire/executions.js';

export interface RunRow {
  id: number;
  type: RunType;
  status: RunStatus;
  interrupted_reason: string | null;
  /** The interrupted reason in the service's words. */
  interrupted_reason_meaning: string | null;
  restarted_from: number | null;
  routine_id: number | null;
  query: string;
  repositories: string[];
  started_at_utc: string;
  finished_at_utc: string | null;
  result_count: number;
  new_count: number;
}

export interface RunList {
  executions: RunRow[];
  total: number;
  limit: number;
  offset: number;
}

export interface RunSource {
  source: string;
  name: string;
  status: string;
  record_count: number;
  new_count: number;
  zero_reason: string | null;
  /** The zero reason in the service's words; null for not_recorded (no reason was observed). */
  zero_reason_meaning: string | null;
  message: string | null;
  pages: number;
  started_at_utc: string | null;
  finished_at_utc: string | null;
  ms: number | null;
}

export interface AiLane {
  requested: boolean;
  used: boolean;
  state?: 'pending' | 'writing' | 'written' | 'not_used';
  provider?: string | null;
  model?: string | null;
  documents_considered?: number;
  documents_total?: number;
  instructions_given?: boolean;
  summary?: string | null;
  summary_truncated?: boolean;
  caveat?: string;
  reason_code?: string | null;
  reason?: string | null;
  on_request?: boolean;
  decided_at_utc?: string;
}

export interface RunDetail extends RunRow {
  parameters: {
    query: string;
    keywords: string[];
    date_from: string | null;
    date_to: string | null;
    max_results: number;
    ai_enabled: boolean;
    ai_settings: { model?: string; instructions?: string; max_output_tokens?: number } | null;
    request_id: string | null;
    saved_configuration_id: number | null;
  };
  error: string | null;
  restarted_into: number[];
  timings: { started_at_utc: string; finished_at_utc: string | null; ms: number | null };
  ai_lane: AiLane;
  cancel_requested_at_utc: string | null;
  sources: RunSource[];
}

export interface RunEvent {
  execution_id: number;
  seq: number;
  at_utc: string;
  kind: string;
  level: 'info' | 'warn' | 'error';
  source: string | null;
  message: string;
  data: Record<string, unknown> | null;
}

export const TERMINAL_KINDS = new Set(['execution_completed', 'execution_failed', 'execution_cancelled', 'execution_interrupted']);

export interface RunDocument {
  id: number;
  title: string;
  authors: { name?: string | null; given?: string | null; family?: string | null }[];
  year: number | null;
  venue: string | null;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  url: string | null;
  publication_date: string | null;
  is_retracted: boolean;
  found_by: string[];
  is_new: boolean;
}

export interface RunDocuments {
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  documents: RunDocument[];
}

export interface Delivery {
  id: number;
  routine_id: number | null;
  target_id: number | null;
  channel: string;
  mode: string;
  state: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  next_attempt_at_utc: string | null;
  created_at_utc: string;
  delivered_at_utc: string | null;
}

export interface Submitted {
  id: number;
  status: RunStatus;
  replayed: boolean;
  note?: string | null;
}

export const REFERENCE_FORMATS = ['bibtex', 'ris', 'csv', 'json'] as const;
export type ReferenceFormat = (typeof REFERENCE_FORMATS)[number];

const run = (id: number) => `/api/executions/${id}`;

export const runs = {
  start: (type: 'dive' | 'sweep', body: Record<string, unknown>) =>
    api.post<Submitted>(`/api/search/${type}`, body).then((run) => (rememberStartedHere(run.id), run)),
  list: (query: { status?: string; type?: string; limit: number; offset: number }, signal?: AbortSignal) => api.get<RunList>('/api/executions', { query, signal }),
  get: (id: number, signal?: AbortSignal) => api.get<RunDetail>(run(id), { signal }),
  cancel: (id: number) => api.post<{ cancel_requested: boolean }>(`${run(id)}/cancel`),
  restart: (id: number) => api.post<Submitted>(`${run(id)}/restart`, { request_id: crypto.randomUUID() }),
  documents: (id: number, offset: number, limit: number, signal?: AbortSignal) => api.get<RunDocuments>(`${run(id)}/documents`, { query: { offset, limit }, signal }),
  log: (id: number, signal?: AbortSignal) => api.get<{ events: RunEvent[] }>(`${run(id)}/log`, { signal }),
  report: (id: number, signal?: AbortSignal) => api.get<{ text: string; report_path: string | null }>(`${run(id)}/report`, { signal }),
  searchRecord: (id: number, signal?: AbortSignal) => api.get<SearchRecord>(`${run(id)}/search-record`, { signal }),
  deliveries: (id: number, signal?: AbortSignal) => api.get<{ deliveries: Delivery[] }>(`${run(id)}/deliveries`, { signal }),
  downloadReferences: (id: number, format: ReferenceFormat) => download('GET', `${run(id)}/references`, `svc-execution-${id}.${format === 'bibtex' ? 'bib' : format}`, { query: { format } }),
  downloadSearchRecord: (id: number) => download('GET', `${run(id)}/search-record`, `svc-execution-${id}-search-record.json`),
};
