/**
 * The vector index's files in <data dir>/vector-index/: one generation is
 * <file_id>.usearch (the HNSW graph) and <file_id>.json (its sidecar: model,
 * dimension, vector count, byte size and the change seq it holds everything
 * up to). The database's embedding_index_state names the live generation; a
 * file whose sidecar disagrees with that row (another database restored,
 * another model, a crash before the row was written) or whose size is not the
 * one recorded is never used. A generation is written under a temporary name
 * and renamed into place, the graph before its sidecar, so a crash at any
 * point leaves either the old generation or the new one whole, never half of
 * one.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import type { IndexState } from './repo.js';

/** 2: 16-bit vectors, 32 links a node (hnsw.ts); files of format 1 (8-bit, 16 links) are rebuilt. */
export const INDEX_FORMAT = 2;

export interface Sidecar {
  format: number;
  file_id: string;
  model: string;
  dimension: number;
  vectors: number;
  bytes: number;
  through_seq: number;
  built_at_utc: string;
}

export const indexDir = (ctx: Context) => path.join(ctx.paths.dataDir, 'vector-index');
export const graphPath = (dir: string, fileId: string) => path.join(dir, `${fileId}.usearch`);
const sidecarPath = (dir: string, fileId: string) => path.join(dir, `${fileId}.json`);
/** Where a build writes before the rename; the pid keeps two processes' builds apart. */
export const buildPath = (dir: string, fileId: string) => path.join(dir, `${fileId}.usearch.${process.pid}.tmp`);

/** Why the files cannot serve `state`, or null when they can. */
export function filesProblem(dir: string, state: IndexState): 'missing' | 'stale' | 'corrupt' | null {
  if (!state.file_id) return 'missing';
  let sidecar: Sidecar;
  let size: number;
  try {
    sidecar = JSON.parse(fs.readFileSync(sidecarPath(dir, state.file_id), 'utf8')) as Sidecar;
    size = fs.statSync(graphPath(dir, state.file_id)).size;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'corrupt';
  }
  const same =
    sidecar.format === INDEX_FORMAT &&
    sidecar.file_id === state.file_id &&
    sidecar.model === state.model &&
    sidecar.dimension === state.dimension &&
    sidecar.vectors === state.vectors &&
    sidecar.through_seq === state.through_seq;
  if (!same) return 'stale';
  return sidecar.bytes === size && state.bytes === size ? null : 'corrupt';
}

function fsyncPath(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Move a finished build into place: graph, then sidecar, each synced before its rename. */
export function publishFiles(dir: string, built: string, sidecar: Omit<Sidecar, 'format' | 'bytes'>): Sidecar {
  const full: Sidecar = { format: INDEX_FORMAT, ...sidecar, bytes: fs.statSync(built).size };
  fsyncPath(built);
  fs.renameSync(built, graphPath(dir, full.file_id));
  const tmp = `${sidecarPath(dir, full.file_id)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(full));
  fsyncPath(tmp);
  fs.renameSync(tmp, sidecarPath(dir, full.file_id));
  fsyncPath(dir);
  return full;
}

/** Remove every generation but `keep` (and temporary files of builds that died). */
export function removeOtherGenerations(dir: string, keep: string | null, ownBuild?: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (keep && name.startsWith(`${keep}.`) && !name.endsWith('.tmp')) continue;
    if (ownBuild && path.join(dir, name) === ownBuild) continue;
    fs.rmSync(path.join(dir, name), { force: true });
  }
}
