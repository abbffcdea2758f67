/**
 * Similar documents and semantic search over the active model's vectors. An
 * empty answer always says why (embeddings off, no vector yet for this paper,
 * its vector is of another model, nothing else embedded).
 */
import type { Context } from '../context.js';
import { SvcError, notFound } from '../errors.js';
import { isLane, resolveLane } from './lanes.js';
import { countDocuments, countVectors, countVectorsAmong, documentExists, documentSummaries, modelsOfDocument, readVector } from './repo.js';
import { nearest } from './vec-index.js';
import { loadLibrary } from './hnsw.js';
import type { QueryMethod, SimilarAnswer } from '../wire/similar.js';

export const SIMILAR_DEFAULT_LIMIT = 25;
export const SIMILAR_MAX_LIMIT = 100;

const REASONS: Record<string, string> = {
  embeddings_off: 'Embeddings are off (provider none).',
  no_vector_yet: 'This paper has no vector for the active model yet; run a backfill (svc embed backfill).',
  model_changed: 'This paper was embedded with another model; the active model has no vector for it yet; run a backfill (svc embed backfill).',
  nothing_else_embedded: 'No other paper has a vector for the active model yet.',
  lane_unavailable: 'The embedding lane cannot be used right now.',
};

/**
 * The nearest papers to one document.
 * @example similarDocuments(ctx, 42, 10) // → {results: [{document_id: 7, distance: 0.12, …}], reason: null, …}
 */
export async function similarDocuments(ctx: Context, documentId: number, limit = SIMILAR_DEFAULT_LIMIT): Promise<SimilarAnswer> {
  if (!documentExists(ctx.db, documentId)) throw notFound('document_not_found', `No document ${documentId}.`);
  const empty = (reason: string, model: string | null = null, kind: SimilarAnswer['kind'] = null, message?: string): SimilarAnswer => ({
    document_id: documentId,
    model,
    kind,
    results: [],
    reason,
    message: message ?? REASONS[reason] ?? reason,
    query_method: null,
    extension_note: null,
  });
  let lane;
  try {
    lane = resolveLane(ctx);
  } catch (err) {
    if (err instanceof SvcError) return empty('lane_unavailable', null, null, err.message);
    throw err;
  }
  if (!isLane(lane)) return empty('embeddings_off');
  const vector = readVector(ctx.db, lane.key, documentId);
  if (!vector) {
    const others = modelsOfDocument(ctx.db, documentId);
    return empty(others.length ? 'model_changed' : 'no_vector_yet', lane.key, lane.kind);
  }
  const { neighbours, method } = await nearest(ctx, lane.key, vector, limit, { exclude: documentId });
  const lib = await loadLibrary(ctx);
  const extension_note = lib.loaded ? null : `The HNSW library (usearch) did not load (${lib.reason}); answered by an exact scan.`;
  if (neighbours.length === 0) {
    const base = empty('nothing_else_embedded', lane.key, lane.kind);
    return { ...base, query_method: method, extension_note };
  }
  const info = documentSummaries(ctx.db, neighbours.map((n) => n.document_id));
  const results = neighbours
    .filter((n) => info.has(n.document_id))
    .map((n) => {
      const { title, year, doi, arxiv_id, sources } = info.get(n.document_id)!;
      return { document_id: n.document_id, distance: Math.round(n.distance * 1e6) / 1e6, title, year, doi, arxiv_id, sources };
    });
  return { document_id: documentId, model: lane.key, kind: lane.kind, results, reason: null, message: null, query_method: method, extension_note };
}

export type SemanticSearchAnswer =
  | {
      model: string;
      kind: 'lexical' | 'semantic';
      results: { document_id: number; distance: number }[];
      query_method: QueryMethod;
      /** Candidates (the given ids, else the corpus) with no vector for the model: left out of the ranking. */
      unranked: number;
    }
  | { unavailable: string; message: string };

/**
 * Rank documents by distance to a free-text query with the active lane, for
 * the explorer's semantic mode and the tool surface. With `documentIds`, only
 * those documents are ranked (through the index, or an exact scan of their
 * vectors when they are few: vec-index.ts nearest); documents without a
 * vector are simply absent from the results.
 * @example await semanticSearch(ctx, 'protein folding', { limit: 20 })
 */
export async function semanticSearch(ctx: Context, query: string, options: { limit: number; documentIds?: number[] }): Promise<SemanticSearchAnswer> {
  let lane;
  try {
    lane = resolveLane(ctx);
  } catch (err) {
    if (err instanceof SvcError) return { unavailable: err.reason, message: err.message };
    throw err;
  }
  if (!isLane(lane)) return { unavailable: 'embeddings_off', message: REASONS.embeddings_off! };
  if (countVectors(ctx.db, lane.key) === 0) return { unavailable: 'no_vectors', message: 'No paper has a vector for the active model yet; run a backfill (svc embed backfill).' };
  if (!query.trim()) return { unavailable: 'empty_query', message: 'A semantic search needs a query.' };
  let vector: Float32Array;
  try {
    vector = await lane.embedQuery(query);
  } catch (err) {
    if (err instanceof SvcError) return { unavailable: err.reason, message: err.message };
    throw err;
  }
  const { neighbours, method } = await nearest(ctx, lane.key, vector, options.limit, { ids: options.documentIds });
  return {
    model: lane.key,
    kind: lane.kind,
    results: neighbours.map((n) => ({ document_id: n.document_id, distance: Math.round(n.distance * 1e6) / 1e6 })),
    query_method: method,
    unranked: options.documentIds
      ? options.documentIds.length - countVectorsAmong(ctx.db, lane.key, options.documentIds)
      : countDocuments(ctx.db) - countVectors(ctx.db, lane.key),
  };
}
