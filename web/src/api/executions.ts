/**
 * The calls the Search and run pages make: start a dive or a sweep, follow,
 * cancel and restart a run, read its parts, download its references.
 * Components draw; these ask. The answers' shapes are the service's, from
 * src/wire/executions.ts (and a run's deliveries from src/wire/deliveries.ts).
 */
import type { ExecutionDeliveries } from '../../../src/wire/deliveries.js';
import type { CancelAnswer, Restarted, RunDetail, RunDocuments, RunEventKind, RunList, RunLog, RunReport, SearchRecord, Submitted } from '../../../src/wire/executions.js';
import { api } from './client.js';
import { download } from './download.js';
import { rememberStartedHere } from '../watch/notifications.js';

export type {
  ActiveRuns,
  AiLane,
  HttpTrace,
  RecordSource,
  RunDetail,
  RunDocument,
  RunEvent,
  RunRow,
  RunSource,
  RunStatus,
  RunType,
  SearchRecord,
  WindowRange,
} from '../../../src/wire/executions.js';

/** The events after which a run sends nothing more. */
export const TERMINAL_KINDS: ReadonlySet<string> = new Set<RunEventKind>(['execution_completed', 'execution_failed', 'execution_cancelled', 'execution_interrupted']);

export const REFERENCE_FORMATS = ['bibtex', 'ris', 'csv', 'json'] as const;
export type ReferenceFormat = (typeof REFERENCE_FORMATS)[number];

const run = (id: number) => `/api/executions/${id}`;

export const runs = {
  start: (type: 'dive' | 'sweep', body: Record<string, unknown>) =>
    api.post<Submitted>(`/api/search/${type}`, body).then((run) => (rememberStartedHere(run.id), run)),
  list: (query: { status?: string; type?: string; limit: number; offset: number }, signal?: AbortSignal) => api.get<RunList>('/api/executions', { query, signal }),
  get: (id: number, signal?: AbortSignal) => api.get<RunDetail>(run(id), { signal }),
  cancel: (id: number) => api.post<CancelAnswer>(`${run(id)}/cancel`),
  restart: (id: number) => api.post<Restarted>(`${run(id)}/restart`, { request_id: crypto.randomUUID() }),
  documents: (id: number, offset: number, limit: number, signal?: AbortSignal) => api.get<RunDocuments>(`${run(id)}/documents`, { query: { offset, limit }, signal }),
  log: (id: number, signal?: AbortSignal) => api.get<RunLog>(`${run(id)}/log`, { signal }),
  report: (id: number, signal?: AbortSignal) => api.get<RunReport>(`${run(id)}/report`, { signal }),
  searchRecord: (id: number, signal?: AbortSignal) => api.get<SearchRecord>(`${run(id)}/search-record`, { signal }),
  deliveries: (id: number, signal?: AbortSignal) => api.get<ExecutionDeliveries>(`${run(id)}/deliveries`, { signal }),
  downloadReferences: (id: number, format: ReferenceFormat) => download('GET', `${run(id)}/references`, `svc-execution-${id}.${format === 'bibtex' ? 'bib' : format}`, { query: { format } }),
  downloadSearchRecord: (id: number) => download('GET', `${run(id)}/search-record`, `svc-execution-${id}-search-record.json`),
};
