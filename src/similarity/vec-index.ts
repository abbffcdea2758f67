/**
 * Nearest neighbours: an HNSW graph (hnsw.ts) in a file beside the database
 * (index-files.ts), derived from the canonical vectors and written by
 * index-build.ts. Each process maps the live file read-only (the page cache
 * holds it, not the heap) and, at every query, reads the vector changes made
 * since the file was written (by any process: embedding_vector_changes) from
 * the canonical table: those documents are compared exactly and their stale
 * entries in the graph are skipped. So a backfill's vectors are found the
 * moment they are written, and a crash between a write and a new file loses
 * nothing. The graph proposes OVERFETCH × k candidates; every distance
 * answered is the exact cosine distance of the canonical vectors.
 *
 * Without a usable file (none yet, another model's, one that does not match
 * this database, or the library not loading) queries scan every canonical
 * vector exactly, and a build starts in the background (index-build.ts).
 */
import type { Context } from '../context.js';
import { blobToVector, changesSince, countChangesSince, countVectors, iterateVectors, readIndexState, readVectors } from './repo.js';
import { HNSW, loadLibrary, type HnswIndex } from './hnsw.js';
import { filesProblem, graphPath, indexDir } from './index-files.js';
import { buildingHere, maintainIndex, pendingLimit } from './index-build.js';
import { jobHolder } from '../claims/jobs.js';
import type { QueryMethod } from '../wire/similar.js';

export { rebuildIndex, indexRebuildingIn } from './index-build.js';

export interface Neighbour {
  document_id: number;
  distance: number;
}

/** Graph candidates per result wanted, before exact rescoring (bench/similarity.mjs: recall@25 against this). */
export const OVERFETCH = 4;
const MIN_CANDIDATES = 64;
/** A filtered query widens its candidates up to this many, then scans the filtered set exactly. */
const MAX_CANDIDATES = 20_000;

interface OpenIndex {
  fileId: string;
  model: string;
  dimension: number;
  graph: HnswIndex;
  /** embedding_vector_changes read up to this seq. */
  seen: number;
  /** Documents changed since the file: their canonical vector now, or null when they have none. */
  changed: Map<number, Float32Array | null>;
  /** How many of `changed` the file holds (their graph entries are stale). */
  shadowed: number;
  fileVectors: number;
}

type Slot = { open: OpenIndex | null };
const slot = (ctx: Context) => ctx.service('similarity.vector-index', (): Slot => ({ open: null }));

export type IndexProblem = 'unavailable' | 'missing' | 'stale' | 'corrupt' | 'other_model';

function readChanges(ctx: Context, open: OpenIndex): void {
  const { documentIds, through } = changesSince(ctx.db, open.model, open.seen);
  if (documentIds.length === 0) return;
  const now = readVectors(ctx.db, open.model, documentIds);
  for (const id of documentIds) {
    if (!open.changed.has(id) && open.graph.contains(BigInt(id))) open.shadowed++;
    const v = now.get(id);
    open.changed.set(id, v && v.length === open.dimension ? v : null);
  }
  open.seen = through;
}

/** The live index of `model`, caught up with every change, or why there is none. */
async function currentIndex(ctx: Context, model: string): Promise<OpenIndex | IndexProblem> {
  const lib = await loadLibrary(ctx);
  if (!lib.usearch) return 'unavailable';
  const s = slot(ctx);
  const state = readIndexState(ctx.db);
  if (!state || !state.file_id) return (s.open = null), 'missing';
  if (state.model !== model) return (s.open = null), 'other_model';
  if (s.open?.fileId !== state.file_id) {
    s.open = null;
    const dir = indexDir(ctx);
    const problem = filesProblem(dir, state);
    if (problem) return problem;
    const graph = HNSW.open(lib.usearch, state.dimension);
    try {
      graph.view(graphPath(dir, state.file_id));
    } catch {
      return 'corrupt';
    }
    if (graph.size() !== state.vectors || graph.dimensions() !== state.dimension) return 'corrupt';
    s.open = { fileId: state.file_id, model, dimension: state.dimension, graph, seen: state.through_seq, changed: new Map(), shadowed: 0, fileVectors: state.vectors };
  }
  readChanges(ctx, s.open);
  return s.open;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

const byDistance = (a: Neighbour, b: Neighbour) => a.distance - b.distance || a.document_id - b.document_id;

/** Exact nearest neighbours by scanning the canonical table (cosine distance on unit vectors). */
export function bruteForce(ctx: Context, model: string, query: Float32Array, k: number, ids?: number[], exclude?: number): Neighbour[] {
  let best: Neighbour[] = [];
  for (const row of iterateVectors(ctx.db, model, ids)) {
    if (row.document_id === exclude) continue;
    const v = blobToVector(row.vector);
    if (v.length !== query.length) continue;
    best.push({ document_id: row.document_id, distance: 1 - dot(query, v) });
    if (best.length > k * 4 + 64) best = best.sort(byDistance).slice(0, k);
  }
  return best.sort(byDistance).slice(0, k);
}

/** The k nearest through the graph: `fetch` candidates, the changed documents, exact distances; and whether the graph ran out. */
function searchIndex(ctx: Context, open: OpenIndex, query: Float32Array, k: number, fetch: number, admit: (id: number) => boolean): { neighbours: Neighbour[]; exhausted: boolean } {
  const found = open.graph.search(query, fetch, 1);
  const candidates: number[] = [];
  for (const key of found.keys) {
    const id = Number(key);
    if (!open.changed.has(id) && admit(id)) candidates.push(id);
  }
  let scored: Neighbour[] = [];
  for (const [id, v] of readVectors(ctx.db, open.model, candidates)) scored.push({ document_id: id, distance: 1 - dot(query, v) });
  scored = scored.sort(byDistance).slice(0, k);
  // The changed documents are compared exactly; only those nearer than the k-th so far can enter.
  let bound = scored.length < k ? Infinity : scored[k - 1]!.distance;
  for (const [id, v] of open.changed) {
    if (!v || !admit(id)) continue;
    const distance = 1 - dot(query, v);
    if (distance > bound) continue;
    scored.push({ document_id: id, distance });
    if (scored.length >= 2 * k) {
      scored = scored.sort(byDistance).slice(0, k);
      bound = scored[k - 1]!.distance;
    }
  }
  return { neighbours: scored.sort(byDistance).slice(0, k), exhausted: found.keys.length < fetch };
}

/**
 * The k nearest documents to `query` under `model`, nearest first, with
 * exact distances. `ids` restricts the answer to those documents (the
 * explorer's filters): a small set is scanned exactly; a large one takes more
 * graph candidates in proportion, widening until k pass the filter, and is
 * scanned exactly when even MAX_CANDIDATES do not give k.
 */
export async function nearest(
  ctx: Context,
  model: string,
  query: Float32Array,
  k: number,
  options: { ids?: number[]; exclude?: number } = {},
): Promise<{ neighbours: Neighbour[]; method: QueryMethod }> {
  const exact = (): { neighbours: Neighbour[]; method: QueryMethod } => ({ neighbours: bruteForce(ctx, model, query, k, options.ids, options.exclude), method: 'exact_scan' });
  const open = await currentIndex(ctx, model);
  if (typeof open === 'string') {
    await maintainIndex(ctx, model);
    return exact();
  }
  if (open.dimension !== query.length) return exact();
  const allowed = options.ids ? new Set(options.ids) : null;
  if (allowed && allowed.size <= ctx.tuning.vectorIndexExactFilteredMax) return exact();
  const admit = (id: number) => id !== options.exclude && (!allowed || allowed.has(id));
  const reach = Math.max(1, open.fileVectors - open.shadowed);
  const share = allowed ? Math.min(1, allowed.size / reach) : 1;
  let fetch = Math.max(MIN_CANDIDATES, Math.ceil((k * OVERFETCH) / share) + (options.exclude === undefined ? 0 : 1));
  for (;;) {
    fetch = Math.min(fetch, MAX_CANDIDATES);
    const { neighbours, exhausted } = searchIndex(ctx, open, query, k, fetch, admit);
    if (neighbours.length >= k || exhausted) {
      if (open.changed.size > pendingLimit(ctx, open.fileVectors)) void maintainIndex(ctx, model);
      return { neighbours, method: 'hnsw' };
    }
    if (fetch >= MAX_CANDIDATES) return exact();
    fetch *= 4;
  }
}

/** The index part of the status answer. */
export async function indexStatus(ctx: Context, model: string | null): Promise<Record<string, unknown>> {
  const lib = await loadLibrary(ctx);
  const state = readIndexState(ctx.db) ?? null;
  const canonical = model ? countVectors(ctx.db, model) : 0;
  const open = model ? await currentIndex(ctx, model) : 'missing';
  const building = buildingHere(ctx) || jobHolder(ctx, 'embeddings.index') !== null;
  const stateName = !lib.loaded ? 'unavailable' : typeof open === 'string' ? (building ? 'building' : open) : 'ready';
  return {
    state: stateName,
    model: state?.model ?? null,
    dimension: state?.dimension ?? null,
    /** Vectors in the index file. */
    vectors: state?.vectors ?? 0,
    /** Vector changes since the file was written, read from the canonical table by each query until the next file. */
    pending_changes: state && typeof open !== 'string' ? countChangesSince(ctx.db, open.model, state.through_seq) : 0,
    canonical_vectors: canonical,
    bytes: state?.bytes ?? 0,
    built_at_utc: state?.built_at_utc ?? null,
    rebuilding: building,
    query_method: typeof open === 'string' ? 'exact_scan' : 'hnsw',
  };
}
