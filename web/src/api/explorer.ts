/**
 * The explorer's calls: a page of papers, the facets, and the export of every
 * matching paper (spec 1, "Similarity, embeddings, links, explorer, reading
 * queue"); the shapes of their answers are the service's, from src/wire/explorer.ts.
 */
import type { FacetsAnswer, SearchAnswer } from '../../../src/wire/explorer.js';
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

export type { Facet, FacetName, FacetsAnswer, FacetValue, SearchPaper as Paper, SearchAnswer } from '../../../src/wire/explorer.js';

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
