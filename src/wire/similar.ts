/**
 * The JSON of a paper's similar papers as the route sends it (spec 1,
 * "Similarity, embeddings, links, explorer, reading queue"). Declared once
 * here, for the service and the window alike; imports nothing but wire files.
 */

/** How the nearest vectors were found: the HNSW index, or an exact scan of every vector. */
export type QueryMethod = 'hnsw' | 'exact_scan';

export interface SimilarPaper {
  document_id: number;
  distance: number;
  title: string;
  year: number | null;
  doi: string | null;
  arxiv_id: string | null;
  sources: string[];
}

/** GET /api/documents/{document_id}/similar. */
export interface SimilarAnswer {
  document_id: number;
  model: string | null;
  /** lexical (shared words, not meaning) or semantic; null when no lane answered. */
  kind: 'lexical' | 'semantic' | null;
  results: SimilarPaper[];
  /** Why the list is empty; null when it is not. */
  reason: string | null;
  message: string | null;
  query_method: QueryMethod | null;
  /** Set when the HNSW library did not load (the exact scan answered instead). */
  extension_note: string | null;
}
