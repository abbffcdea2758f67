/**
 * The JSON of the explorer as the routes send it (spec 1, "Similarity,
 * embeddings, links, explorer, reading queue"): a paper as a list row shows
 * it, a page of search results, and the facets. Declared once here, for the
 * service and the window alike; imports nothing but wire files.
 */

/** The compact view of a paper in explorer pages and the reading queue. */
export interface Paper {
  id: number;
  title: string;
  authors: string[];
  publication_date: string | null;
  year: number | null;
  venue: string | null;
  doi: string | null;
  url: string | null;
  /** The first of `sources` (alphabetically), null when none. */
  source: string | null;
  sources: string[];
  categories: string[];
  type: string | null;
  is_retracted: boolean;
}

/** A paper on a search page. Asked in semantic mode, it carries its distance to the query (null when the page fell back to keyword); in keyword mode, none. */
export interface SearchPaper extends Paper {
  distance?: number | null;
}

/** How a relevance page was ranked: every match, or the most recently added RANK_BOUND (exhaustive false). */
export interface Ranking {
  exhaustive: boolean;
  ranked_papers: number | null;
  message: string | null;
}

/** POST /api/explorer/search. */
export interface SearchAnswer {
  mode: 'keyword' | 'semantic';
  requested_mode: 'keyword' | 'semantic';
  mode_unavailable: { reason: string; message: string } | null;
  sort: string;
  limit: number;
  papers: SearchPaper[];
  next_cursor: string | null;
  ranked_count?: number;
  unranked_count?: number;
  model?: string | null;
  /** With model: lexical (shared words, not meaning) or semantic; null when unknown or fallen back. */
  kind?: 'lexical' | 'semantic' | null;
  /** Keyword pages sorted by relevance: whether every match was ranked. */
  ranking?: Ranking;
  note: string;
}

export interface FacetValue {
  value: string;
  count: number;
  selected: boolean;
  /** An author's spelling as stored (author values are lower-cased keys). */
  label?: string;
}

export interface Facet {
  /** Distinct values among the counted papers (all of them, not only those listed). */
  distinct_values: number;
  values: FacetValue[];
  /** False when the matching papers were more than the count bound: counts are then over the most recently added of them. */
  exact: boolean;
  /** How many papers the counts are over. */
  counted_papers: number;
}

export type FacetName = 'authors' | 'categories' | 'sources' | 'years';

/** POST /api/explorer/facets. */
export interface FacetsAnswer {
  total: number;
  limit_per_facet: number;
  exact: boolean;
  facets: Record<FacetName, Facet>;
  method: string;
}
