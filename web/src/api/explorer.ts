/**
 * The explorer's calls: a page of papers, the facets, and the export of every
 * matching paper; with the shapes of their answers (spec 1, "Similarity,
 * embeddings, links, explorer, reading queue"; only the fields the window reads).
 */
import { api } from './client.js';
import { download } from './download.js';

/** The filters every explorer call shares, as the service takes them. */
export interface ExplorerFilters {
  query: string | null;
  authors: string[];
  categories: string[];
  sources: string[];
  date_from: string | null;
  date_to: string | null;
}

export interface SearchOptions {
  mode?: string;
  sort?: string;
  exhaustive?: boolean;
  cursor?: string | null;
  limit?: number;
}

/** A paper as a list row shows it. */
export interface Paper {
  id: number;
  title: string;
  authors: string[];
  publication_date: string | null;
  year: number | null;
  venue: string | null;
  doi: string | null;
  url: string | null;
  source: string | null;
  sources: string[];
  categories: string[];
  type: string | null;
  is_retracted: boolean;
  /** Semantic pages: the distance to the query (null on a keyword fallback). */
  distance?: number | null;
}

export interface SearchAnswer {
  mode: 'keyword' | 'semantic';
  requested_mode: string;
  mode_unavailable: { reason: string; message: string } | null;
  sort: string;
  limit: number;
  papers: Paper[];
  next_cursor: string | null;
  ranked_count?: number;
  unranked_count?: number;
  model?: string | null;
  kind?: 'lexical' | 'semantic' | null;
  ranking?: { exhaustive: boolean; ranked_papers: number | null; message: string | null };
}

export interface FacetValue {
  value: string;
  count: number;
  selected: boolean;
  label?: string;
}

export interface Facet {
  distinct_values: number;
  values: FacetValue[];
  exact: boolean;
  counted_papers: number;
}

export type FacetName = 'authors' | 'categories' | 'sources' | 'years';

export interface FacetsAnswer {
  total: number;
  limit_per_facet: number;
  exact: boolean;
  facets: Record<FacetName, Facet>;
  method: string;
}

/** The formats a reference export takes (spec 1: bibtex, ris, csv, json), with the extension of the saved file. */
export const EXPORT_FORMATS = [
  { id: 'bibtex', label: 'BibTeX', extension: 'bib' },
  { id: 'ris', label: 'RIS', extension: 'ris' },
  { id: 'csv', label: 'CSV', extension: 'csv' },
  { id: 'json', label: 'JSON', extension: 'json' },
] as const;

export const explorer = {
  search: (filters: ExplorerFilters, options: SearchOptions, signal?: AbortSignal) =>
    api.post<SearchAnswer>('/api/explorer/search', { ...filters, ...options }, { signal }),
  facets: (filters: ExplorerFilters, limitPerFacet: number | undefined, signal?: AbortSignal) =>
    api.post<FacetsAnswer>('/api/explorer/facets', { ...filters, ...(limitPerFacet ? { limit_per_facet: limitPerFacet } : {}) }, { signal }),
  /** Every paper matching the filters (not the page), saved as a file; answers the file's name. */
  export: (filters: ExplorerFilters, format: (typeof EXPORT_FORMATS)[number]) =>
    download('POST', '/api/explorer/export', `svc-explorer.${format.extension}`, { body: { ...filters, format: format.id } }),
};
