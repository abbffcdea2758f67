/**
 * The explorer's request bodies as the spec writes them (ExplorerFilters,
 * ExplorerSearchBody, ExplorerExportBody), validated once for both doors.
 *
 * Where the mode is chosen: ExplorerSearchBody takes `mode` ("keyword", the
 * default, or "semantic"), the same argument name the MCP tool search_corpus
 * uses. An `offset` is refused: the explorer pages by its opaque cursor only.
 */
import * as v from 'valibot';
import { isoDate } from '../executions/request.js';
import { invalid } from '../errors.js';
import { parseWith } from '../util/validate.js';
import { cursorRefused } from './cursor.js';

export const EXPLORER_LIMIT = { min: 1, max: 500, default: 50 } as const;
export const FACET_LIMIT = { min: 1, max: 200, default: 20 } as const;
export const EXPLORER_SORTS = ['newest', 'relevance'] as const;
export const EXPLORER_MODES = ['keyword', 'semantic'] as const;
export type ExplorerSort = (typeof EXPLORER_SORTS)[number];
export type ExplorerMode = (typeof EXPLORER_MODES)[number];

/** Longest query, in characters (after trimming). */
export const QUERY_MAX = 1000;

const values = v.optional(v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(300))), v.maxLength(100)), []);

const filterEntries = {
  query: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(QUERY_MAX, (issue) => `A query is at most ${QUERY_MAX} characters; this one has ${issue.received}`))), null),
  authors: values,
  categories: values,
  sources: values,
  date_from: v.optional(v.nullable(isoDate), null),
  date_to: v.optional(v.nullable(isoDate), null),
};

export const ExplorerFilters = v.object({ ...filterEntries, limit_per_facet: v.optional(v.pipe(v.number(), v.integer(), v.minValue(FACET_LIMIT.min), v.maxValue(FACET_LIMIT.max)), FACET_LIMIT.default) });
export const ExplorerSearchBody = v.object({
  ...filterEntries,
  cursor: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000))), null),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(EXPLORER_LIMIT.min), v.maxValue(EXPLORER_LIMIT.max)), EXPLORER_LIMIT.default),
  sort: v.optional(v.picklist(EXPLORER_SORTS), 'newest'),
  mode: v.optional(v.picklist(EXPLORER_MODES), 'keyword'),
  // Relevance over every match, however many (search.ts RANK_BOUND: more than that are otherwise ranked among the most recently added).
  exhaustive: v.optional(v.boolean(), false),
});
export const ExplorerExportBody = v.object({ ...filterEntries, format: v.optional(v.string(), 'bibtex'), include_ids: v.optional(v.boolean(), false) });

/** The filters every explorer operation shares, normalized (empty query → null). */
export interface Filters {
  query: string | null;
  authors: string[];
  categories: string[];
  sources: string[];
  dateFrom: string | null;
  dateTo: string | null;
}

function refuseOffset(body: unknown): void {
  if (Array.isArray(body)) throw invalid(['body'], 'Input should be a valid object', 'object_type', null);
  if (typeof body === 'object' && body !== null && 'offset' in body) {
    throw invalid(['body', 'offset'], 'The explorer pages with the opaque cursor from next_cursor; an offset is not accepted', 'extra_forbidden', (body as { offset: unknown }).offset);
  }
}

function toFilters(body: v.InferOutput<typeof ExplorerFilters> | v.InferOutput<typeof ExplorerSearchBody>): Filters {
  if (body.date_from && body.date_to && body.date_from > body.date_to) throw invalid(['body', 'date_to'], 'date_to is before date_from', 'date_order', body.date_to);
  const unique = (list: string[]) => [...new Set(list)];
  return {
    query: body.query ? body.query : null,
    authors: unique(body.authors),
    categories: unique(body.categories),
    sources: unique(body.sources),
    dateFrom: body.date_from,
    dateTo: body.date_to,
  };
}

export interface SearchRequest {
  filters: Filters;
  cursor: string | null;
  limit: number;
  sort: ExplorerSort;
  mode: ExplorerMode;
  exhaustive: boolean;
}

export function parseSearchBody(body: unknown): SearchRequest {
  refuseOffset(body);
  const parsed = parseWith(ExplorerSearchBody, body, ['body']);
  // The cursor is opaque: an empty one was never given out, and reading it as "first page" would hide a lost cursor.
  if (parsed.cursor === '') throw cursorRefused('', 'empty');
  const filters = toFilters(parsed);
  if (parsed.sort === 'relevance' && !filters.query && parsed.mode === 'keyword') throw invalid(['body', 'sort'], 'Sorting by relevance needs a query', 'relevance_without_query', parsed.sort);
  // Said rather than ignored, as svc explore --exhaustive is: a newest-first page would look like an answer to it.
  if (parsed.exhaustive && parsed.sort !== 'relevance') throw invalid(['body', 'exhaustive'], 'exhaustive ranks every match of a relevance search; send it with sort relevance', 'exhaustive_without_relevance', parsed.exhaustive);
  return { filters, cursor: parsed.cursor, limit: parsed.limit, sort: parsed.sort, mode: parsed.mode, exhaustive: parsed.exhaustive };
}

export function parseFacetsBody(body: unknown): { filters: Filters; limitPerFacet: number } {
  refuseOffset(body);
  const parsed = parseWith(ExplorerFilters, body, ['body']);
  return { filters: toFilters(parsed), limitPerFacet: parsed.limit_per_facet };
}

export function parseExportBody(body: unknown): { filters: Filters; format: string; includeIds: boolean } {
  refuseOffset(body);
  const parsed = parseWith(ExplorerExportBody, body, ['body']);
  return { filters: toFilters({ ...parsed, limit_per_facet: FACET_LIMIT.default }), format: parsed.format, includeIds: parsed.include_ids };
}
