/**
 * The explorer's state is its address: /explore?q=…&mode=…&author=…&category=…
 * &source=…&from=…&to=…&sort=… (list filters repeat their parameter). This
 * file reads the address into the service's filters and writes a changed state
 * back as an address; nothing here judges a value (the service refuses what
 * it does not take, and the page shows why).
 */
import { signal } from '@preact/signals';
import type { ExplorerFilters, SearchOptions } from '../api/explorer.js';
import { href } from '../router.js';

export interface ExploreState {
  q: string;
  mode: string;
  sort: string;
  authors: string[];
  categories: string[];
  sources: string[];
  from: string;
  to: string;
  /** Rank every match of a relevance search, past the service's bound. */
  exhaustive: boolean;
}

export type ListFilter = 'authors' | 'categories' | 'sources';

/** The parameter each list filter repeats in the address. */
export const LIST_PARAM: Record<ListFilter, string> = { authors: 'author', categories: 'category', sources: 'source' };

export function readState(query: URLSearchParams): ExploreState {
  return {
    q: query.get('q') ?? '',
    mode: query.get('mode') ?? '',
    sort: query.get('sort') ?? '',
    authors: query.getAll('author'),
    categories: query.getAll('category'),
    sources: query.getAll('source'),
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
    exhaustive: query.get('exhaustive') === '1',
  };
}

export function stateHref(state: ExploreState): string {
  return href('/explore', {
    q: state.q,
    mode: state.mode,
    sort: state.sort,
    author: state.authors,
    category: state.categories,
    source: state.sources,
    from: state.from,
    to: state.to,
    exhaustive: state.exhaustive ? '1' : '',
  });
}

export function filtersOf(state: ExploreState): ExplorerFilters {
  return {
    query: state.q.trim() || null,
    authors: state.authors,
    categories: state.categories,
    sources: state.sources,
    date_from: state.from || null,
    date_to: state.to || null,
  };
}

/** What the search call adds to the filters; left out, the service's defaults apply. */
export function searchOptionsOf(state: ExploreState): SearchOptions {
  return { ...(state.mode ? { mode: state.mode } : {}), ...(state.sort ? { sort: state.sort } : {}), ...(state.exhaustive ? { exhaustive: true } : {}) };
}

/** The state with one value of a list filter added or taken away. */
export function toggled(state: ExploreState, filter: ListFilter, value: string): ExploreState {
  const list = state[filter];
  return { ...state, [filter]: list.includes(value) ? list.filter((v) => v !== value) : [...list, value] };
}

/** A publication year as a date window (the years facet counts by year; the service filters by dates). */
export const yearWindow = (year: string) => ({ from: `${year}-01-01`, to: `${year}-12-31` });

export const isYearWindow = (state: ExploreState, year: string) => state.from === `${year}-01-01` && state.to === `${year}-12-31`;

export const hasFilters = (state: ExploreState) =>
  Boolean(state.q.trim() || state.authors.length || state.categories.length || state.sources.length || state.from || state.to);

/** The explorer's address as last shown in this tab: a paper's page links back to it, filters and all. */
export const lastExplore = signal('/explore');
