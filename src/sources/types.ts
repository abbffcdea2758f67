/**
 * The one small interface every repository adapter implements, and the
 * normalized record they all produce. The driver (driver.ts) does the rest:
 * credentials, the date window, paging to max_results, politeness, and turning
 * an empty answer into exactly one zero reason.
 *
 * Order: with query text an adapter asks for the source's relevance ranking, with
 * none (a window or an author alone) for the newest first, so that max_results
 * keeps the best matches, as search answers say (most sources are relevance-ranked).
 */
import type { CapNote } from './cap-record.js';
import type { SourceHttp } from './http.js';
import type { Relation } from '../wire/documents.js';
import type { ZeroReason } from '../wire/executions.js';
import type { DateWindowSupport, PagingStyle } from '../wire/sources.js';

/** Why a source returned nothing: the spec's closed vocabulary of ten. */
export type { ZeroReason } from '../wire/executions.js';

/** The zero reasons that mean the source did not answer at all. */
export const NOT_ANSWERED: readonly ZeroReason[] = ['entity_unsupported', 'missing_key', 'parse_failure', 'retired', 'upstream_failure', 'window_unanswerable'];

export interface Author {
  name: string;
  given?: string;
  family?: string;
  orcid?: string;
  affiliations?: string[];
}

export type DatePrecision = 'day' | 'month' | 'year';

export type { Relation, RelationKind } from '../wire/documents.js';

/** Native identifiers besides the DOI. Keys are stable across adapters. */
export interface NativeIds {
  arxiv?: string; // without version, e.g. 2204.08348 or hep-th/9901001
  arxiv_version?: string; // e.g. v3
  pmid?: string;
  pmcid?: string; // PMC1234567
  openalex?: string; // W123…
  s2?: string; // Semantic Scholar paperId
  s2_corpus?: string;
  dblp?: string;
  biorxiv?: string;
  medrxiv?: string;
  doaj?: string;
  zenodo?: string;
  hal?: string;
  inspire?: string;
  plos?: string;
  core?: string;
  ieee?: string;
  springer?: string;
  scopus?: string;
  ads?: string; // bibcode
  [key: string]: string | undefined;
}

export interface NormalizedRecord {
  /** The adapter that produced the record. */
  source: string;
  /** The source's own id for the record (stable across runs). */
  nativeId: string;
  title: string;
  authors: Author[];
  abstract?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  publicationDate?: string;
  datePrecision?: DatePrecision;
  venue?: string;
  /** Lower case, no URL prefix: 10.1234/abc. */
  doi?: string;
  ids: NativeIds;
  landingUrl?: string;
  pdfUrl?: string;
  categories: string[];
  license?: string;
  openAccess?: boolean;
  /** article, preprint, proceedings, book-chapter, dataset, review, retraction, correction, … */
  type?: string;
  isRetracted?: boolean;
  relations: Relation[];
}

export type { DateWindowSupport, PagingStyle } from '../wire/sources.js';

export interface RateLimit {
  /** Requests allowed per interval. */
  requests: number;
  intervalMs: number;
}

export interface Capabilities {
  keywordQuery: boolean;
  /** exact: day precision; year: only whole years (filtered locally to the day); none: cannot; required: only answers with a window. */
  dateWindow: DateWindowSupport;
  authorSearch: boolean;
  /** The author search also takes an ORCID iD (exact identity, not a byline). */
  orcidSearch?: boolean;
  /** Answers only for an ORCID iD (the ORCID registry): asked without one, it is not asked. */
  orcidOnly?: boolean;
  pageSize: number;
  paging: PagingStyle;
  credential?: { name: string; required: boolean };
  rateLimit: RateLimit;
  /** For sources filtered locally (bioRxiv by keyword): pages scanned at most per run. */
  scanLimitPages?: number;
  /** A faster limit that applies when a key is sent (NCBI: 10/s with a key). */
  rateLimitWithKey?: RateLimit;
}

export interface SearchRequest {
  query: string;
  keywords: string[];
  dateFrom?: string; // YYYY-MM-DD
  dateTo?: string;
  maxResults: number;
  /** An author to search for (name or ORCID); only asked of sources with authorSearch. */
  author?: string;
  apiKey?: string;
  contactEmail?: string;
  /** Base URL: the adapter's default or SVC_SOURCE_<ID>_URL. No trailing slash. */
  baseUrl: string;
  signal: AbortSignal;
}

/** What a pure parser of one answer gives (every adapter exports `parseResponse(text)` returning at least this). */
export interface ParsedPage {
  records: NormalizedRecord[];
  total?: number;
  received: number;
  unusable?: number;
  rightsFiltered?: number;
  /** Values cut to the caps (cap-record.ts), when any were. */
  capped?: CapNote[];
}

export interface PageResult {
  records: NormalizedRecord[];
  /** Total hits the source reported for the query, when it says. */
  total?: number;
  /** Raw entries in the answer, before records that could not be used or were filtered locally. */
  received: number;
  /** Entries dropped because they lacked what a record needs (no title). */
  unusable?: number;
  /** Entries dropped by a local filter (keywords, exact date window). */
  filteredOut?: number;
  /** Entries withheld for rights or licensing reasons, as the source said. */
  rightsFiltered?: number;
  /** The cursor of the next page; absent at the end. */
  next?: string;
  /** What the source said about the query itself (PubMed: a phrase it does not know), for the search record. */
  notice?: string;
  /** Values cut to the caps (cap-record.ts), when any were. */
  capped?: CapNote[];
}

export interface SourceAdapter {
  id: string;
  name: string;
  homepage: string;
  status: 'active';
  description: string;
  capabilities: Capabilities;
  /** Origin and base path every request starts with; SVC_SOURCE_<ID>_URL replaces it. */
  defaultBaseUrl: string;
  /** Sources served by one host share one rate limit (bioRxiv and medRxiv): name the group. */
  throttleGroup?: string;
  /** Fetch one page; `cursor` is undefined for the first. Throw ParseError for answers that cannot be read. */
  fetchPage(req: SearchRequest, cursor: string | undefined, http: SourceHttp): Promise<PageResult>;
}

/** A service users still ask for that no longer exists: listed, never asked. */
export interface RetiredSource {
  id: string;
  name: string;
  homepage: string;
  status: 'retired';
  description: string;
  retiredOn: string;
}

export type CatalogEntry = SourceAdapter | RetiredSource;

/** An answer that could not be read (bad JSON or XML, an unexpected shape). */
export class ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParseError';
  }
}
