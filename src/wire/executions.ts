/**
 * The JSON of executions (runs) as the routes send them (spec 1, "Search and
 * executions"): the list and one run's read, its events, documents, log and
 * report, the answers of starting, cancelling and restarting one, and its
 * search record (per source the request, window, counts, zero reason, caps
 * and every HTTP exchange). Declared once here, for the service and the
 * window alike; imports nothing but wire files.
 */
import type { StoredDocument } from './documents.js';
import type { RuntimeIdentity } from './instance.js';
import type { EventKind as LifecycleEventKind, LifecycleEvent } from './lifecycle.js';

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

/** A source's state within one run. */
export type SourceStatus = 'pending' | 'running' | 'answered' | 'not_answered' | 'cancelled' | 'interrupted';

/** A run as the list shows it (GET /api/executions), and the head of its own read. */
export interface RunRow {
  id: number;
  type: RunType;
  status: RunStatus;
  interrupted_reason: InterruptedReason | null;
  /** The interrupted reason in the service's words; null when there is none. */
  interrupted_reason_meaning: string | null;
  restarted_from: number | null;
  /** The routine that fired it; null for a dive or sweep started by hand. */
  routine_id: number | null;
  query: string;
  repositories: string[];
  started_at_utc: string;
  finished_at_utc: string | null;
  result_count: number;
  new_count: number;
}

/** GET /api/executions: newest first. */
export interface RunList {
  executions: RunRow[];
  total: number;
  limit: number;
  offset: number;
}

/** One source of a running run, as the active list counts it. */
export interface SourceCount {
  source: string;
  status: SourceStatus;
  record_count: number;
  zero_reason: ZeroReason | null;
}

/** GET /api/executions/active: the runs going now, with who owns them, and the routine fires waiting for a slot. */
export interface ActiveRuns {
  executions: (RunRow & { owner: { pid: number | null; runtime_id: string | null; last_seen_at_utc: string | null }; sources: SourceCount[] })[];
  queued_routine_fires: QueuedRoutineFire[];
}

/** A routine fire waiting in this process for a free run slot, in the order it will start (position 1 first). */
export interface QueuedRoutineFire {
  routine_id: number | null;
  queued_at_utc: string;
  position: number;
}

/** One source's part in a run, on the run's own read. */
export interface RunSource {
  source: string;
  /** The source's name, or its id when it is no longer known. */
  name: string;
  status: SourceStatus;
  record_count: number;
  new_count: number;
  zero_reason: ZeroReason | null;
  /** The zero reason in the service's words; null for not_recorded (no reason was observed: the status says what happened). */
  zero_reason_meaning: string | null;
  message: string | null;
  pages: number;
  started_at_utc: string | null;
  finished_at_utc: string | null;
  ms: number | null;
}

export type LaneState = 'pending' | 'writing' | 'written' | 'not_used';

/** Why no summary was written (with reason, the words of what to do about it). */
export type LaneReasonCode =
  | 'summaries_off'
  | 'provider_none'
  | 'provider_unknown'
  | 'provider_unavailable'
  | 'missing_credential'
  | 'endpoint_invalid'
  | 'upstream_refused'
  | 'upstream_failed'
  | 'timeout'
  | 'empty_answer'
  | 'no_documents'
  | 'run_failed'
  | 'run_cancelled'
  | 'run_interrupted'
  | 'shutdown'
  | 'not_written';

/**
 * The AI lane of one run: whether it asked for a summary, whether one was
 * written, by which provider and model, from how many documents, or why none
 * was. A run that did not ask has only requested and used (both false).
 */
export interface AiLane {
  requested: boolean;
  used: boolean;
  state?: LaneState;
  /** ai.provider when the lane was decided. */
  provider?: string | null;
  /** The model the response reported, else the one asked for. */
  model?: string | null;
  requested_model?: string | null;
  model_reported?: boolean;
  documents_considered?: number;
  documents_total?: number;
  instructions_given?: boolean;
  /** Keys of a stored ai_settings svc does not use (from before they were refused); never their values. */
  ignored_ai_settings?: string[];
  /** The model's words, never checked against the papers: always shown with caveat. */
  summary?: string | null;
  summary_truncated?: boolean;
  caveat?: string;
  reason_code?: LaneReasonCode | null;
  reason?: string | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  ms?: number | null;
  /** While writing: when the attempt gives up (a lane still writing after it was left by a process that died). */
  deadline_utc?: string;
  /** Written by `svc executions summarize` (the researcher asked again), not when the run settled. */
  on_request?: boolean;
  decided_at_utc?: string;
}

/** The ai_settings a run was asked with, as far as svc uses them (never a key). */
export interface RunAiSettings {
  model?: string;
  max_output_tokens?: number;
  instructions?: string;
}

/** A lifecycle event a follow fire reported, with why its paper matched the profile. */
export interface FollowEvent extends LifecycleEvent {
  basis: string | null;
  matched_author: string | null;
}

/** What a fire of a routine following a profile for retractions checked, and the new notices it reported. */
export interface FollowNews {
  profile_id: number;
  profile_name: string;
  mode: 'retractions';
  papers: number;
  checked: number;
  failed: number;
  /** Matched papers this fire did not reach (the bound, or a stop): the next fires take them first. */
  not_reached: number;
  check_limit: number;
  lookup_errors: string[];
  error: string | null;
  events: FollowEvent[];
  kinds_reported: readonly LifecycleEventKind[];
  what_a_kind_means: Record<string, string>;
}

/** GET /api/executions/{exec_id}: the run with its parameters, timings, AI lane and per-source account. */
export interface RunDetail extends RunRow {
  parameters: {
    query: string;
    keywords: string[];
    date_from: string | null;
    date_to: string | null;
    max_results: number;
    ai_enabled: boolean;
    ai_settings: RunAiSettings | null;
    /** The id a resubmission is replayed by. */
    request_id: string | null;
    saved_configuration_id: number | null;
  };
  error: string | null;
  /** The runs restarted from this one. */
  restarted_into: number[];
  timings: { started_at_utc: string; finished_at_utc: string | null; ms: number | null };
  ai_lane: AiLane;
  /** The process that owns (or owned) the run. */
  owner: { pid: number | null; runtime_id: string | null; role: string | null; last_seen_at_utc: string | null };
  cancel_requested_at_utc: string | null;
  report_path: string | null;
  sources: RunSource[];
  /** A fire of a routine following a profile for retractions; null for any other run. */
  follow: FollowNews | null;
  identity: RuntimeIdentity;
}

export type RunEventKind =
  | 'execution_started'
  | 'source_started'
  | 'source_page'
  | 'source_finished'
  | 'log'
  | 'execution_completed'
  | 'execution_failed'
  | 'execution_cancelled'
  | 'execution_interrupted';

/** One event of a run's log, its polled progress and its stream; seq numbers them per run. */
export interface RunEvent {
  execution_id: number;
  seq: number;
  at_utc: string;
  kind: RunEventKind;
  level: 'info' | 'warn' | 'error';
  /** The source the event is about; null for the run as a whole. */
  source: string | null;
  message: string;
  data: Record<string, unknown> | null;
}

/** GET /api/executions/{exec_id}/log: every event, and the same as text. */
export interface RunLog {
  execution_id: number;
  status: RunStatus;
  events: RunEvent[];
  text: string;
}

/** GET /api/executions/{exec_id}/progress/events: the events after `after`. */
export interface RunProgress {
  execution_id: number;
  status: RunStatus;
  events: RunEvent[];
  /** Ask again with after=next_after for what comes next. */
  next_after: number;
  /** The run has settled and every event has been read. */
  done: boolean;
  /** A terminal event is among these. */
  terminal: boolean;
}

/** GET /api/executions/{exec_id}/report. */
export interface RunReport {
  execution_id: number;
  status: RunStatus;
  format: 'text';
  /** Where the report was written on disk; null until it is. */
  report_path: string | null;
  text: string;
}

/** A paper a run found, as stored, with the sources that found it in that run. */
export interface RunDocument extends StoredDocument {
  found_by: string[];
  /** The run added it to the corpus (no run before had found it). */
  is_new: boolean;
}

/** GET /api/executions/{exec_id}/documents: in corpus order (publication date, then id, descending). */
export interface RunDocuments {
  execution_id: number;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  documents: RunDocument[];
}

/** POST /api/search/dive and /api/search/sweep: the run started (202), or the one already going with that request_id (replayed, 200). */
export interface Submitted {
  id: number;
  status: RunStatus;
  replayed: boolean;
}

/** POST /api/executions/{exec_id}/restart: a new run from the old one's parameters. */
export interface Restarted extends Submitted {
  restarted_from: number;
  /** Sources the old run asked with a key given for that run only (never stored): the restart uses the stored key, if any. */
  ephemeral_credentials_not_reused: string[];
  /** Those sources in a sentence; null when there are none. */
  note: string | null;
}

/** POST /api/executions/{exec_id}/cancel: cancellation is cooperative, the status says where the run is now. */
export interface CancelAnswer {
  id: number;
  status: RunStatus;
  cancel_requested: boolean;
}

/** DELETE /api/executions/{exec_id}. */
export interface RunDeleted {
  id: number;
  deleted: true;
}
