/**
 * The JSON of an execution's search record as the routes send it (spec 1,
 * "Executions"): per source the request, window, counts, zero reason, caps
 * and every HTTP exchange.
 * Declared once here, for the service and the window alike; imports nothing
 * but wire files.
 */

export type RunType = 'dive' | 'sweep' | 'routine';
export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled' | 'interrupted';
/** Why a run was interrupted; null on a run never interrupted or whose reason was never recorded (never a guess). */
export type InterruptedReason = 'owner_dead' | 'daemon_restart' | 'unknown';

/** One HTTP exchange with a source, any key in its address replaced by ***. */
export interface HttpTrace {
  method: string;
  url: string;
  status: number | null;
  ms: number;
  bytes: number;
  attempt: number;
  error?: string;
  retry_after_ms?: number;
}

/** The zero reasons (spec 1): why a source returned no results; not_recorded means none was observed. */
export type ZeroReason =
  | 'missing_key'
  | 'retired'
  | 'window_unanswerable'
  | 'upstream_failure'
  | 'parse_failure'
  | 'rights_filtered'
  | 'records_unusable'
  | 'entity_unsupported'
  | 'answered_empty'
  | 'not_recorded';

/** A date window's bounds, YYYY-MM-DD; null where open. */
export interface WindowRange {
  from: string | null;
  to: string | null;
}

/** The request a source was sent: no key, only whether one was used and from where. */
export interface SourceRequest {
  query: string;
  keywords: string[];
  date_from: string | null;
  date_to: string | null;
  max_results: number;
  author: string | null;
  base_url: string;
  key: 'ephemeral' | 'stored' | 'none';
}

/** One value cut to its cap, or left out, from a source's record. */
export interface CapNote {
  /** The source's id of the record (cut to 200 characters when it is itself over its cap). */
  record: string;
  /** title, abstract, authors, author name, affiliations, affiliation, venue, doi, ids.pmid, … or record (its whole size). */
  field: string;
  /** cut: shortened to the cap; left_out: dropped (an identifier, or the record when its own id is over the cap). */
  action: 'cut' | 'left_out';
  cap: number;
  unit: 'bytes' | 'names' | 'items';
  /** The largest value found over the cap, in that unit. */
  had: number;
  /** How many values of the field were over it (several author names of one record). */
  count: number;
}

/** The page cap that applied (null when the source was not asked), and the values cut to the caps: the first 100 noted, all counted. */
export interface RecordCaps {
  page_bytes: number | null;
  cut: CapNote[];
  cut_total: number;
}

/** One source's row of a search record. */
export interface RecordSource {
  source: string;
  name: string;
  status: string;
  answered: boolean;
  /** null when the source was never asked (its run stopped first). */
  request: SourceRequest | null;
  window: { asked: WindowRange | null; answered: WindowRange | null; support: string | null };
  pages: number;
  counts: { records: number; new_to_corpus: number; received: number | null; unusable: number | null; filtered_out: number | null; rights_filtered: number | null; total_reported: number | null };
  timings: { started_at_utc: string | null; finished_at_utc: string | null; ms: number | null };
  zero_reason: ZeroReason | null;
  zero_reason_meaning: string | null;
  message: string | null;
  evidence: { http_status: number | null; exception_class: string | null; retry_after_ms: number | null; scan_limit_reached: boolean } | null;
  /** A later page failed after earlier pages answered. */
  partial_failure: { exception_class: string; http_status: number | null; message: string } | null;
  /** null for runs recorded before the caps. */
  caps: RecordCaps | null;
  http: HttpTrace[];
}

/** GET /api/executions/{exec_id}/search-record: the complete dated account of one search. */
export interface SearchRecord {
  execution_id: number;
  recorded_at_utc: string;
  execution: {
    type: RunType;
    status: RunStatus;
    interrupted_reason: InterruptedReason | null;
    started_at_utc: string;
    finished_at_utc: string | null;
    query: string;
    keywords: string[];
    window_asked: WindowRange | null;
    max_results: number;
    repositories: string[];
    result_count: number;
    new_count: number;
  };
  sources: RecordSource[];
  /** Per source, the zero reason observed (never not_recorded). */
  zero_reasons: Record<string, ZeroReason>;
}
