/**
 * Explorer search over the whole corpus. Keyword mode filters (full-text
 * query, authors, categories, sources, date window) and orders by the corpus
 * order (publication date descending, then id descending) or, with sort
 * "relevance", by the FTS5 bm25 rank; pages seek with an opaque cursor.
 * Semantic mode ranks by embedding distance through semantic.ts, and falls
 * back to keyword (saying why) when it cannot.
 */
import type { Context } from '../context.js';
import { decodeCursor, encodeCursor, fingerprint, type CursorKey } from './cursor.js';
import type { Filters, SearchRequest } from './filters.js';
import { ftsExpression } from './fts-query.js';
import { PAPER_COLUMNS, paperView, papersByIds, type Paper, type PaperRow } from './paper.js';
import { ensureIndexed, filterWhere, newestPlan, prepared } from './repo.js';
import { semanticSearchOf, unavailableReason } from './semantic.js';

export const SEARCH_NOTE =
  'Most sources rank by relevance, so papers in the corpus may match none of the words their search asked for; GET /api/documents/{doc_id}/why says what can be verified.';

export interface SearchAnswer {
  mode: 'keyword' | 'semantic';
  requested_mode: 'keyword' | 'semantic';
  mode_unavailable: { reason: string; message: string } | null;
  sort: string;
  limit: number;
  papers: (Paper & { distance?: number | null })[];
  next_cursor: string | null;
  ranked_count?: number;
  unranked_count?: number;
  model?: string | null;
  /** With model: lexical (shared words, not meaning) or semantic; null when unknown or fallen back. */
  kind?: 'lexical' | 'semantic' | null;
  note: string;
}

function keywordPage(ctx: Context, filters: Filters, sort: SearchRequest['sort'], limit: number, after: CursorKey | null): { papers: Paper[]; last: CursorKey | null; more: boolean } {
  ensureIndexed(ctx.db);
  if (sort === 'relevance' && filters.query) {
    // Ranked in the full-text index alone; the documents are read only when a date window needs
    // them, and only the page's papers are read in full.
    const dated = Boolean(filters.dateFrom || filters.dateTo);
    const where = filterWhere(filters, 'query', { id: 'r.id' });
    const seek = after?.kind === 'score' ? ' AND (r.score > ? OR (r.score = ? AND r.id > ?))' : '';
    const sql = `SELECT r.id, r.score FROM (SELECT rowid AS id, rank AS score FROM documents_fts WHERE documents_fts MATCH ?) r
      ${dated ? 'JOIN documents d ON d.id = r.id ' : ''}WHERE ${where.sql}${seek} ORDER BY r.score, r.id LIMIT ?`;
    const seekArgs = after?.kind === 'score' ? [after.score, after.score, after.id] : [];
    const rows = prepared(ctx.db, sql).all(ftsExpression(filters.query), ...where.args, ...seekArgs, limit + 1) as { id: number; score: number }[];
    const ranked = rows.slice(0, limit);
    const tail = ranked[ranked.length - 1];
    return {
      papers: papersByIds(ctx.db, ranked.map((r) => r.id)),
      last: tail ? { kind: 'score', score: tail.score, id: tail.id } : null,
      more: rows.length > limit,
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
    const print = fingerprint(filters, request.sort, 'semantic');
    if (!filters.query) declined = unavailableReason('no_query');
    else {
      // A cursor from a keyword fallback page keeps paging that fallback.
      const key = request.cursor ? decodeCursor(request.cursor, print, ['distance', 'date', 'score']) : null;
      const after = key?.kind === 'distance' ? key : null;
      let candidates: Set<number> | undefined;
      if (hasNonQueryFilter(filters)) {
        ensureIndexed(ctx.db);
        const where = filterWhere(filters, 'query');
        candidates = new Set(prepared(ctx.db, `SELECT d.id FROM documents d WHERE ${where.sql}`).pluck().all(...where.args) as number[]);
      }
      const seen = after?.seen ?? 0;
      const answer = await semanticSearchOf(ctx)(ctx, filters.query, { limit: seen + limit + 1, documentIds: candidates ? [...candidates] : undefined });
      if ('unavailable' in answer) declined = unavailableReason(answer.unavailable, answer.message);
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
  const print = fingerprint(filters, request.sort, mode);
  const kind = sort === 'relevance' ? 'score' : 'date';
  const after = request.cursor ? decodeCursor(request.cursor, print, kind) : null;
  const page = keywordPage(ctx, filters, sort, limit, after);
  const answer: SearchAnswer = {
    ...base,
    // The order the page is in: relevance asked for with no query to rank by falls back to newest.
    sort,
    mode: 'keyword',
    mode_unavailable: declined,
    papers: page.papers,
    next_cursor: page.more && page.last ? encodeCursor(print, page.last) : null,
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
