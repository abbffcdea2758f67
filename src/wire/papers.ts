/**
 * The JSON of a paper's own page as the routes send it (spec 1, "why is this
 * paper here"): the paper in full with its identifiers, and why it is in the
 * corpus. Declared once here, for the service and the window alike; imports
 * nothing but wire files.
 */
import type { Paper } from './explorer.js';

/** One identifier of a paper, with the page it opens (null where no stable address is known). */
export interface Identifier {
  scheme: string;
  label: string;
  value: string;
  url: string | null;
}

/** An author as the sources gave them. */
export interface AuthorDetail {
  name: string;
  given?: string;
  family?: string;
  orcid?: string;
  affiliations?: string[];
}

/** A paper as its own page shows it: the list view and everything the sources gave about it. */
export interface PaperDetail extends Paper {
  abstract: string | null;
  author_details: AuthorDetail[];
  date_precision: string | null;
  identifiers: Identifier[];
  pdf_url: string | null;
  license: string | null;
  open_access: boolean | null;
}

/** The fields of a source's record a run's words are looked for in. */
export type WhyField = 'title' | 'abstract' | 'authors' | 'venue' | 'categories';

/** One of a run's words or keywords, and the fields of the record it occurs in (none: it did not match). */
export interface TermMatch {
  term: string;
  kind: 'query_word' | 'keyword';
  fields: WhyField[];
}

export type WhyVerdict = 'record_missing' | 'no_terms' | 'all_terms_matched' | 'some_terms_matched' | 'no_term_matched';

/** The routine behind a run; exists is false (and name null) when it was deleted since. */
export interface WhyRoutine {
  id: number;
  name: string | null;
  exists: boolean;
}

/** One run that found the paper, what it asked, and which of its words the source's record holds. */
export interface WhyExecution {
  execution_id: number;
  type: string;
  status: string;
  started_at_utc: string;
  routine: WhyRoutine | null;
  source: string;
  rank: number;
  first_found_by_this_run: boolean;
  query: string;
  keywords: string[];
  date_window: { date_from: string | null; date_to: string | null };
  author: string | null;
  relevance_ranked: boolean;
  terms: TermMatch[];
  verdict: WhyVerdict;
}

/** A source record svc keeps for the paper. */
export interface FoundBy {
  source: string;
  native_id: string;
  first_seen_at_utc: string;
  last_seen_at_utc: string;
  relevance_ranked: boolean;
  linked_to_stored_run: boolean;
}

/**
 * One thing that cannot be verified here. A reason about how a run's words matched is said as
 * "Execution N: text": `execution_id` is that run and `text` the words after it, so a reason several
 * runs share (a routine repeats it every run) can be said once. Any other reason (about a kept
 * record, the abstracts, an author search, which names its run in its own words) has a null
 * `execution_id` and is said whole.
 */
export interface Unverifiable {
  execution_id: number | null;
  text: string;
}

/** GET /api/documents/{doc_id}/why. */
export interface WhyAnswer {
  document_id: number;
  paper: PaperDetail;
  first_seen_at_utc: string | null;
  found_by: FoundBy[];
  executions: WhyExecution[];
  /** The routines behind those runs, each once. */
  routines: WhyRoutine[];
  /** Each of cannot_verify_items as one sentence. */
  cannot_verify: string[];
  cannot_verify_items: Unverifiable[];
  method: string;
}
