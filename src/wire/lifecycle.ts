/**
 * The JSON of a paper's lifecycle as the routes send it (spec 1,
 * "Lifecycle"): the retractions, published versions and new versions a check
 * recorded, and when the paper was last asked about. Declared once here, for
 * the service and the window alike; imports nothing but wire files.
 */

export type EventKind = 'retraction' | 'preprint_to_published' | 'version_change';

/** One recorded event, with the notice that says so. */
export interface LifecycleEvent {
  id: number;
  document_id: number;
  title: string | null;
  doi: string | null;
  kind: EventKind;
  source: string;
  notice_url: string;
  notice_doi: string | null;
  label: string | null;
  event_date: string | null;
  detected_at_utc: string;
  run_id: number | null;
  /** What the source said, as it said it. */
  detail: Record<string, unknown>;
}

export type AskOutcome = 'answered' | 'not_found' | 'failed' | 'skipped';

/** What one source answered when a check asked it about a paper; reason says why it failed or was skipped. */
export interface Asked {
  source: string;
  outcome: AskOutcome;
  reason?: string;
}

/** The last time a check asked about the paper, and how that went. */
export interface LastAttempt {
  at_utc: string;
  run_id: number | null;
  outcome: 'checked' | 'partial' | 'failed' | 'nothing_to_ask';
  asked: Asked[];
  error: string | null;
}

/** When the paper was last checked (null: never completed) and last attempted (null: never). */
export interface CheckState {
  checked_at_utc: string | null;
  last_attempt: LastAttempt | null;
}

/** GET /api/documents/{document_id}/lifecycle. */
export interface LifecycleAnswer extends CheckState {
  document_id: number;
  title: string;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  type: string | null;
  is_retracted: boolean;
  /** Whether the paper has a DOI, arXiv id or PMID to ask about. */
  askable: boolean;
  events: LifecycleEvent[];
  what_a_kind_means: Record<EventKind, string>;
}
