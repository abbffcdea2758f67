/**
 * The explorer's one door to semantic ranking: the similarity area's
 * semanticSearch (loaded lazily: the HNSW library is heavy). When it declines
 * (embeddings off, no vectors yet, the lane failing), the explorer falls back
 * to keyword search and says why. Results are nearest first; `documentIds`,
 * when given, restricts the candidates (the other filters). Tests may swap the
 * function with useSemanticSearch(ctx, fn).
 */
import type { Context } from '../context.js';

export interface SemanticHit {
  document_id: number;
  distance: number;
}

/** kind: lexical (shared words) or semantic (meaning), when the search says; a lexical ranking must not pass for meaning. */
/** unranked: candidates with no vector for the model, so left out of the ranking (0 when not said). */
export type SemanticAnswer = { model: string; kind?: 'lexical' | 'semantic' | null; results: SemanticHit[]; unranked?: number } | { unavailable: string; message?: string };

export interface SemanticOptions {
  limit: number;
  documentIds?: number[];
}

export type SemanticSearch = (ctx: Context, query: string, options: SemanticOptions) => Promise<SemanticAnswer>;

export const SEMANTIC_SEARCH_SERVICE = 'explorer.semantic-search';

const builtinSemanticSearch: SemanticSearch = async (ctx, query, options) => {
  const { semanticSearch } = await import('../similarity/similar.js');
  return semanticSearch(ctx, query, options);
};

const MESSAGES: Record<string, string> = {
  fallback_continued: 'This cursor continues a keyword fallback page; start again without a cursor for a semantic ranking.',
  no_query: 'Semantic ranking needs a query to compare papers with; the answer is the filtered corpus in keyword mode instead.',
};

const holder = (ctx: Context) => ctx.service<{ search: SemanticSearch }>(SEMANTIC_SEARCH_SERVICE, () => ({ search: builtinSemanticSearch }));

/** The semantic search this process uses (the built-in one unless something set another). */
export function semanticSearchOf(ctx: Context): SemanticSearch {
  return holder(ctx).search;
}

/** Use another semantic search in this process (tests; or the embeddings area at start-up). */
export function useSemanticSearch(ctx: Context, search: SemanticSearch): void {
  holder(ctx).search = search;
}

/** mode_unavailable as answers carry it: a stable reason code and a sentence. */
export function unavailableReason(reason: string, said?: string): { reason: string; message: string } {
  const code = /^[a-z][a-z0-9_]{0,63}$/.test(reason) ? reason : 'semantic_unavailable';
  if (said && code === reason) return { reason: code, message: `${said.replace(/\.?$/, '.')} The answer is a keyword search instead.` };
  return { reason: code, message: MESSAGES[code] ?? (code === reason ? `Semantic ranking is unavailable (${reason}); the answer is a keyword search instead.` : `Semantic ranking is unavailable: ${reason.slice(0, 300)}. The answer is a keyword search instead.`) };
}
