/**
 * The JSON of the source catalog as the routes send it (spec 1, "Search and
 * executions"): the static facts of every source svc knows (never a secret),
 * and whether each can be searched now with the keys stored. Declared once
 * here, for the service and the window alike; imports nothing but wire files.
 */
import type { CredentialStatus } from './credentials.js';

/** exact: day precision; year: whole years only (filtered locally to the day); none: cannot filter; required: answers only with a window. */
export type DateWindowSupport = 'exact' | 'year' | 'none' | 'required';
export type PagingStyle = 'offset' | 'page' | 'cursor' | 'none';

/** Requests allowed per interval. */
export interface RateLimit {
  requests: number;
  interval_ms: number;
}

/** What an active source can be asked, and how politely. */
export interface SourceCapabilities {
  keyword_query: boolean;
  date_window: DateWindowSupport;
  author_search: boolean;
  /** The author search also takes an ORCID iD (exact identity, not a byline). */
  orcid_search: boolean;
  page_size: number;
  paging: PagingStyle;
  rate_limit: RateLimit;
  /** A faster limit when a key is sent (NCBI: 10/s with a key); null when the key changes nothing. */
  rate_limit_with_key: RateLimit | null;
  /** For sources filtered locally (bioRxiv by keyword): pages scanned at most per run; null for the others. */
  scan_limit_pages: number | null;
}

interface RepositoryFacts {
  id: string;
  name: string;
  homepage: string;
  description: string;
}

/** A source svc asks. */
export interface ActiveRepository extends RepositoryFacts {
  status: 'active';
  /** The credential is required (a source it is optional for works without it, more slowly). */
  needs_key: boolean;
  /** The credential's name (for `svc credentials set`), never its value; null for a source that takes none. */
  credential: { name: string; required: boolean } | null;
  capabilities: SourceCapabilities;
}

/** A service people still ask for that no longer exists: listed, never asked. */
export interface RetiredRepository extends RepositoryFacts {
  status: 'retired';
  retired_on: string;
  needs_key: false;
  credential: null;
  capabilities: null;
}

export type Repository = ActiveRepository | RetiredRepository;

/** GET /api/repositories/catalog. */
export interface Catalog {
  repositories: Repository[];
}

/** Why a source cannot be searched now: its key is missing or unreadable, it was retired, it answers only for an ORCID, or it cannot answer the date window asked. */
export type UnsearchableReason = 'missing_key' | 'retired' | 'entity_unsupported' | 'window_unanswerable';

/** Whether a source can be searched now, and why not in the service's words. */
export interface SearchRepository {
  id: string;
  name: string;
  searchable: boolean;
  /** null when searchable. */
  reason: UnsearchableReason | null;
  /** The sentence a run would record for it; null when searchable. */
  message: string | null;
  /** The status of its credential (present, absent, unreadable), never its value; null for a source that takes none (or is retired). */
  key_status: CredentialStatus | null;
}

/** GET /api/search/repositories (window=given or none: also judged against the date window a run would ask). */
export interface SearchRepositories {
  repositories: SearchRepository[];
  /** The ids of the searchable ones, in catalog order. */
  searchable: string[];
}
