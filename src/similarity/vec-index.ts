/**
 * The nearest-neighbour index: a sqlite-vec vec0 table of binary-quantised
 * vectors (one bit a dimension, Hamming distance; rowid = document id)
 * rebuilt from the canonical vectors. A query takes the RESCORE_FACTOR × k
 * nearest by Hamming distance, then ranks them by exact cosine distance read
 * from the canonical table: answers carry exact distances, and a million
 * vectors are scanned in a fifth of a second instead of seconds. The extension is
 * loaded on first use; when it cannot load, the reason is kept for the status
 * answer and queries fall back to an exact brute-force scan of the canonical
 * table (same distances, slower).
 */
import type { Context } from '../context.js';
import { unavailable } from '../errors.js';
import { claimJob, describeHolder, jobConflict, releaseJob, type JobHolder } from '../claims/jobs.js';
import { isPidAlive } from '../util/pid.js';
import { bumpIndexCount, clearIndexState, countVectors, iterateVectors, readIndexState, writeIndexState, blobToVector } from './repo.js';

export const INDEX_TABLE = 'embedding_index';

export interface ExtensionState {
  loaded: boolean;
  version: string | null;
  reason: string | null;
}

export interface Neighbour {
  document_id: number;
  distance: number;
}

const STATE_KEY = 'similarity.vec-extension';
/** Candidates fetched by Hamming distance per result wanted, before exact rescoring. */
export const RESCORE_FACTOR = 10;
const MIN_CANDIDATES = 200;

/** Load sqlite-vec into the context's connection once; answers whether it loaded and why not. */
export function loadExtension(ctx: Context): Promise<ExtensionState> {
  return ctx.service(STATE_KEY, async (): Promise<ExtensionState> => {
    try {
      const sqliteVec = await import('sqlite-vec');
      sqliteVec.load(ctx.db);
      const { v } = ctx.db.prepare('SELECT vec_version() AS v').get() as { v: string };
      return { loaded: true, version: v, reason: null };
    } catch (err) {
      return { loaded: false, version: null, reason: err instanceof Error ? err.message.slice(0, 300) : String(err) };
    }
  });
}

function indexTableExists(ctx: Context): boolean {
  return ctx.db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(INDEX_TABLE) !== undefined;
}

/** Is the vec0 index usable for `model` right now? */
export async function indexReadyFor(ctx: Context, model: string): Promise<boolean> {
  const ext = await loadExtension(ctx);
  if (!ext.loaded) return false;
  const state = readIndexState(ctx.db);
  return state?.model === model && !building(ctx) && indexTableExists(ctx);
}

/** A rebuild runs in another process (or this one): the index is being replaced, so neither a second rebuild nor a backfill (which writes to it) may start. */
export const indexRebuildingIn = (holder: JobHolder) =>
  unavailable('index_rebuilding', `The vector index is being rebuilt in ${describeHolder(holder)}; try again when it ends (svc embed status).`, { running_in: holder });

const building = (ctx: Context) => ctx.service('similarity.index-building', () => ({ on: false })).on;

/**
 * Drop and rebuild the index from the canonical vectors of `model`, in chunks
 * (each its own transaction, the event loop free between them).
 */
export async function rebuildIndex(ctx: Context, model: string): Promise<{ model: string; vectors: number; dimension: number | null; ms: number }> {
  const ext = await loadExtension(ctx);
  if (!ext.loaded) throw unavailable('extension_unavailable', `The sqlite-vec extension did not load (${ext.reason}); similarity uses an exact scan instead.`, { reason: ext.reason });
  const flag = ctx.service('similarity.index-building', () => ({ on: false }));
  if (flag.on) throw unavailable('index_rebuilding', 'The vector index is being rebuilt already.');
  // One at a time per data directory, and never beside a backfill in any process: the rebuild
  // drops the table the backfill adds to, and would miss vectors written below its position.
  const { holder, job } = claimJob(ctx, 'embeddings.index', 'rebuild', isPidAlive, ['embeddings.backfill']);
  if (holder) {
    if (job === 'embeddings.index') throw indexRebuildingIn(holder);
    throw jobConflict('backfill_already_running', `An embedding backfill is running in ${describeHolder(holder)}; rebuild the index when it ends (svc embed status), or stop it with svc embed cancel.`, holder, { run_id: holder.run_id });
  }
  const started = Date.now();
  flag.on = true;
  try {
    const first = ctx.db.prepare('SELECT dimension FROM embedding_vectors WHERE model = ? LIMIT 1').get(model) as { dimension: number } | undefined;
    ctx.db.exec(`DROP TABLE IF EXISTS ${INDEX_TABLE}`);
    clearIndexState(ctx.db);
    if (!first) return { model, vectors: 0, dimension: null, ms: Date.now() - started };
    if (first.dimension % 8 !== 0) throw unavailable('index_dimension_unsupported', `The index packs one bit a dimension and needs a multiple of 8, not ${first.dimension}; similarity uses an exact scan.`);
    ctx.db.exec(`CREATE VIRTUAL TABLE ${INDEX_TABLE} USING vec0 (embedding bit[${first.dimension}])`);
    const insert = ctx.db.prepare(`INSERT INTO ${INDEX_TABLE} (rowid, embedding) VALUES (?, vec_quantize_binary(?))`);
    const CHUNK = 5000;
    let count = 0;
    let afterId = 0;
    for (;;) {
      const rows = ctx.db
        .prepare('SELECT document_id, vector FROM embedding_vectors WHERE model = ? AND document_id > ? AND dimension = ? ORDER BY document_id LIMIT ?')
        .all(model, afterId, first.dimension, CHUNK) as { document_id: number; vector: Buffer }[];
      if (rows.length === 0) break;
      ctx.db.transaction(() => {
        for (const r of rows) insert.run(BigInt(r.document_id), r.vector);
      })();
      count += rows.length;
      afterId = rows[rows.length - 1]!.document_id;
      await new Promise((r) => setImmediate(r));
    }
    writeIndexState(ctx.db, { model, dimension: first.dimension, vectors: count, built_at_utc: ctx.nowIso() });
    return { model, vectors: count, dimension: first.dimension, ms: Date.now() - started };
  } finally {
    flag.on = false;
    releaseJob(ctx, 'embeddings.index');
  }
}

/** Keep a ready index in step with vectors just written (vec0 has no upsert: delete, then insert). */
export async function addToIndex(ctx: Context, model: string, rows: { id: number; vector: Float32Array }[]): Promise<void> {
  if (rows.length === 0 || !(await indexReadyFor(ctx, model))) return;
  const state = readIndexState(ctx.db)!;
  const del = ctx.db.prepare(`DELETE FROM ${INDEX_TABLE} WHERE rowid = ?`);
  const insert = ctx.db.prepare(`INSERT INTO ${INDEX_TABLE} (rowid, embedding) VALUES (?, vec_quantize_binary(?))`);
  let added = 0;
  ctx.db.transaction(() => {
    for (const r of rows) {
      if (r.vector.length !== state.dimension) continue;
      added += del.run(BigInt(r.id)).changes === 0 ? 1 : 0;
      insert.run(BigInt(r.id), Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength));
    }
    bumpIndexCount(ctx.db, added);
  })();
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Exact nearest neighbours by scanning the canonical table (cosine distance on unit vectors). */
export function bruteForce(ctx: Context, model: string, query: Float32Array, k: number, ids?: number[], exclude?: number): Neighbour[] {
  let best: Neighbour[] = [];
  for (const row of iterateVectors(ctx.db, model, ids)) {
    if (row.document_id === exclude) continue;
    const v = blobToVector(row.vector);
    if (v.length !== query.length) continue;
    best.push({ document_id: row.document_id, distance: 1 - dot(query, v) });
    if (best.length > k * 4 + 64) best = best.sort((a, b) => a.distance - b.distance).slice(0, k);
  }
  return best.sort((a, b) => a.distance - b.distance || a.document_id - b.document_id).slice(0, k);
}

/**
 * The k nearest documents to `query` under `model`: the vec0 index when it is
 * ready for that model, else the exact scan. Answers which way was used.
 */
export async function nearest(
  ctx: Context,
  model: string,
  query: Float32Array,
  k: number,
  options: { ids?: number[]; exclude?: number } = {},
): Promise<{ neighbours: Neighbour[]; method: 'vec0' | 'exact_scan' }> {
  if (options.ids || !(await indexReadyFor(ctx, model))) return { neighbours: bruteForce(ctx, model, query, k, options.ids, options.exclude), method: 'exact_scan' };
  // Candidates by Hamming distance, then exact cosine from the canonical table (which also drops
  // index rows whose canonical vector is gone: a folded or re-embedded document).
  const fetchK = Math.min(4096, Math.max(k * RESCORE_FACTOR, MIN_CANDIDATES));
  const hits = ctx.db
    .prepare(`SELECT rowid AS document_id FROM ${INDEX_TABLE} WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`)
    .all(Buffer.from(query.buffer, query.byteOffset, query.byteLength), fetchK) as { document_id: number }[];
  const candidates = hits.map((h) => h.document_id).filter((id) => id !== options.exclude);
  return { neighbours: bruteForce(ctx, model, query, k, candidates, options.exclude), method: 'vec0' };
}

/** The index part of the status answer. */
export async function indexStatus(ctx: Context, model: string | null): Promise<Record<string, unknown>> {
  const ext = await loadExtension(ctx);
  const state = readIndexState(ctx.db);
  const canonical = model ? countVectors(ctx.db, model) : 0;
  let stateName: string;
  if (!ext.loaded) stateName = 'unavailable';
  else if (building(ctx)) stateName = 'building';
  else if (!state || !indexTableExists(ctx)) stateName = 'missing';
  else if (state.model !== model) stateName = 'other_model';
  else stateName = state.vectors < canonical ? 'behind' : 'ready';
  return {
    state: stateName,
    model: state?.model ?? null,
    dimension: state?.dimension ?? null,
    vectors: state?.vectors ?? 0,
    canonical_vectors: canonical,
    built_at_utc: state?.built_at_utc ?? null,
    query_method: stateName === 'ready' || stateName === 'behind' ? 'vec0' : 'exact_scan',
  };
}
