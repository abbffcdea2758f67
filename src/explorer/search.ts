/**
 * Explorer search over the whole corpus. Keyword mode filters (full-text
 * query, authors, categories, sources, date window) and orders by the corpus
 * order (publication date descending, then id descending) or, with sort
 * "relevance", by the FTS5 bm25 rank (over the most recently added
 * RANK_BOUND matches when more match, unless asked to be exhaustive); pages
 * seek with an opaque cursor.
 * Semantic mode ranks by embedding distance through semantic.ts, and falls
 * back to keyword (saying why) when it cannot.
 */
import type { Context } from '../context.js';
import { cursorRefused, decodeCursor, encodeCursor, fingerprint, type CursorKey } from './cursor.js';
import type { Filters, SearchRequest } from './filters.js';
import { ftsExpression } from './fts-query.js';
import { PAPER_COLUMNS, paperView, papersByIds, type Paper, type PaperRow } from './paper.js';
import { ensureIndexed, filterWhere, newestDocumentId, newestPlan, prepared, rankedIds, rankFloor } from './repo.js';
import { semanticSearchOf, unavailableReason } from './semantic.js';
import type { Ranking, SearchAnswer } from '../wire/explorer.js';

export const SEARCH_NOTE =
  'Most sources rank by relevance, so papers in the corpus may match none of the words their search asked for; GET /api/documents/{doc_id}/why says what can be verified.';

export type { SearchAnswer } from '../wire/explorer.js';

/**
 * Past this many matches a relevance page is ranked among the most recently
 * added RANK_BOUND of them unless the request is exhaustive: FTS5 bm25 scores
 * every match it ranks (about half a microsecond each here), so a word found in
 * a tenth of a million-paper corpus costs 60–110 ms to rank in full, against
 * a few milliseconds within the bound (bench/explorer-scale.mjs). The facets
 * count over the same most recently added papers past their own bound.
 */
export const RANK_BOUND = 10_000;

export type { Ranking } from '../wire/explorer.js';

const BOUNDED_MESSAGE = `More than ${RANK_BOUND.toLocaleString('en-US')} papers match, so these are ranked among the ${RANK_BOUND.toLocaleString('en-US')} most recently added of them; add words or filters to narrow the match, or send exhaustive: true to rank every match (slower).`;

interface KeywordPage {
  papers: Paper[];
  last: CursorKey | null;
  more: boolean;
  ranking?: Ranking;
}

function keywordPage(ctx: Context, filters: Filters, sort: SearchRequest['sort'], limit: number, after: CursorKey | null, exhaustive: boolean): KeywordPage {
  ensureIndexed(ctx.db);
  if (sort === 'relevance' && filters.query) {
    // Ranked in the full-text index alone; the documents are read only when a date window needs
    // them, and only the page's papers are read in full. Later pages rank the first page's papers
    // (ids up to its ceiling, above its floor) and skip the ones already given.
    const dated = Boolean(filters.dateFrom || filters.dateTo);
    const where = filterWhere(filters, 'query', { id: 'r.id' });
    const from = after?.kind === 'rank' ? after : null;
    const ceiling = from ? from.ceiling : newestDocumentId(ctx.db);
    const floor = exhaustive ? null : from ? (from.floor ?? null) : rankFloor(ctx.db, filters, dated, where, RANK_BOUND);
    const seen = from?.seen ?? 0;
    const ids = rankedIds(ctx.db, filters, dated, where, { ceiling, floor, offset: seen, limit: limit + 1 });
    const page = ids.slice(0, limit);
    return {
      papers: papersByIds(ctx.db, page),
      last: { kind: 'rank', seen: seen + page.length, ceiling, ...(floor === null ? {} : { floor }) },
      more: ids.length > limit,
      ranking: floor === null ? { exhaustive: true, ranked_papers: null, message: null } : { exhaustive: false, ranked_papers: RANK_BOUND, message: BOUNDED_MESSAGE },
    };
  }
  const plan = newestPlan(ctx.db, filters);
  const walking = plan !== 'set';
  const where = filterWhere(filters, undefined, { probe: walking, probeQuery: plan === 'probe' });
  const seek = after?.kind === 'date' ? ' AND (d.sort_date, d.id) < (?, ?)' : '';
  const walk = walking ? ' INDEXED BY documents_by_date' : '';
  const sql = `SELECT ${PAPER_COLUMNS} FROM documents d${walk} WHERE ${where.sql}${seek} ORDER BY d.sort_date DESC, d.id DESC LIMIT ?`;
  const seekArgs = after?.kind === 'date' ? [after.date, after.id] : [];
  const rows = prepared(ctx.db, sql).all(...where.args, ...seekArgs, limit + 1) as PaperRow[];
  const page = rows.slice(0, limit);
  const tail = page[page.length - 1];
  return { papers: page.map(paperView), last: tail ? { kind: 'date', date: tail.sort_date, id: tail.id } : null, more: rows.length > limit };
}

const hasNonQueryFilter = (f: Filters) => f.authors.length > 0 || f.categories.length > 0 || f.sources.length > 0 || f.dateFrom !== null || f.dateTo !== null;

/**
 * @example searchExplorer(ctx, parseSearchBody({ query: 'soil carbon', sort: 'relevance' }))
 */
export async function searchExplorer(ctx: Context, request: SearchRequest): Promise<SearchAnswer> {
  const { filters, limit, mode } = request;
  const base = { requested_mode: mode, sort: request.sort, limit, note: SEARCH_NOTE };
  let declined: { reason: string; message: string } | null = null;

  if (mode === 'semantic') {
    const print = fingerprint(filters, request.sort, 'semantic', request.sort === 'relevance' && request.exhaustive);
    if (!filters.query) declined = unavailableReason('no_query');
    else {
      // A cursor from a keyword fallback page keeps paging that fallback.
      const key = request.cursor ? decodeCursor(request.cursor, print, ['distance', 'date', 'rank']) : null;
      const after = key?.kind === 'distance' ? key : null;
      let candidates: Set<number> | undefined;
      if (hasNonQueryFilter(filters)) {
        ensureIndexed(ctx.db);
        const where = filterWhere(filters, 'query');
        candidates = new Set(prepared(ctx.db, `SELECT d.id FROM documents d WHERE ${where.sql}`).pluck().all(...where.args) as number[]);
      }
      const seen = after?.seen ?? 0;
      const answer = await semanticSearchOf(ctx)(ctx, filters.query, { limit: seen + limit + 1, documentIds: candidates ? [...candidates] : undefined });
      if ('unavailable' in answer) {
        declined = unavailableReason(answer.unavailable, answer.message);
        // A semantic page's cursor cannot go on as a keyword page (another order), nor is it a forgery.
        if (after) throw cursorRefused(request.cursor!, 'semantic_unavailable', { reason: declined.reason });
      }
      else if (key && key.kind !== 'distance') declined = unavailableReason('fallback_continued');
      else {
        const hits = answer.results
          .filter((h) => !candidates || candidates.has(h.document_id))
          .sort((a, b) => a.distance - b.distance || a.document_id - b.document_id)
          .filter((h) => !after || h.distance > after.distance || (h.distance === after.distance && h.document_id > after.id));
        const byId = new Map(papersByIds(ctx.db, hits.slice(0, limit + 1).map((h) => h.document_id)).map((p) => [p.id, p]));
        const ranked = hits.filter((h) => byId.has(h.document_id));
        const page = ranked.slice(0, limit);
        const tail = page[page.length - 1];
        return {
          ...base,
          mode: 'semantic',
          mode_unavailable: null,
          papers: page.map((h) => ({ ...byId.get(h.document_id)!, distance: h.distance })),
          next_cursor: ranked.length > limit && tail ? encodeCursor(print, { kind: 'distance', distance: tail.distance, id: tail.document_id, seen: seen + page.length }) : null,
          ranked_count: page.length,
          // Papers the filters admit that have no vector for the model: not on any page, but not hidden either.
          unranked_count: answer.unranked ?? 0,
          model: answer.model,
          kind: answer.kind ?? null,
        };
      }
    }
  }

  // Keyword mode, asked for or fallen back to. A fallback keeps the semantic fingerprint so its cursor stays its own.
  const sort = request.sort === 'relevance' && !filters.query ? 'newest' : request.sort;
  const print = fingerprint(filters, request.sort, mode, sort === 'relevance' && request.exhaustive);
  const kind = sort === 'relevance' ? 'rank' : 'date';
  const after = request.cursor ? decodeCursor(request.cursor, print, kind) : null;
  const page = keywordPage(ctx, filters, sort, limit, after, request.exhaustive);
  const answer: SearchAnswer = {
    ...base,
    // The order the page is in: relevance asked for with no query to rank by falls back to newest.
    sort,
    mode: 'keyword',
    mode_unavailable: declined,
    papers: page.papers,
    next_cursor: page.more && page.last ? encodeCursor(print, page.last) : null,
    ...(page.ranking ? { ranking: page.ranking } : {}),
  };
  if (mode === 'semantic') {
    answer.papers = page.papers.map((p) => ({ ...p, distance: null }));
    answer.ranked_count = 0;
    answer.unranked_count = page.papers.length;
    answer.model = null;
    answer.kind = null;
  }
  return answer;
}
