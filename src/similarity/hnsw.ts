/**
 * The HNSW library (usearch: Apache-2.0, its binary inside the npm tarball)
 * and the one shape of graph svc builds with it. Cosine distance; vectors
 * held as 8-bit integers (a quarter of float32's bytes, and faster to
 * compare): the graph only proposes candidates, every answer's distance is
 * recomputed exactly from the canonical float32 vector, so the rounding costs
 * no accuracy in the distances.
 * The library loads on first use; when it cannot (a platform without a
 * prebuilt binary and no compiler), the reason is kept for the status answer
 * and every query is an exact scan.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Context } from '../context.js';

export type Usearch = (typeof import('usearch'))['default'];
export type HnswIndex = InstanceType<Usearch['Index']>;

export interface LibraryState {
  loaded: boolean;
  version: string | null;
  reason: string | null;
  usearch: Usearch | null;
}

// A file is read with the settings it was built with: changing CONNECTIVITY, EXPANSION_ADD or the
// quantization needs a new INDEX_FORMAT (index-files.ts), so files of before are rebuilt.
/** Neighbours per node (M). */
const CONNECTIVITY = 16;
/** Candidates weighed while inserting (efConstruction): build time against graph quality. */
const EXPANSION_ADD = 64;
/**
 * Candidates weighed while searching (ef; at least the number asked). At 1,000,000 clustered vectors
 * (bench/similarity.mjs) 96 gave recall@25 0.86 and 256 gave 0.88 for the same search time; the
 * graph, not the search, limits recall there (1,024 gives 0.91).
 */
const EXPANSION_SEARCH = 256;

export const HNSW = {
  /** An empty graph of `dimension`, or one to load a saved file into. */
  open(usearch: Usearch, dimension: number): HnswIndex {
    return new usearch.Index({
      dimensions: dimension,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.I8,
      connectivity: CONNECTIVITY,
      expansion_add: EXPANSION_ADD,
      expansion_search: EXPANSION_SEARCH,
      multi: false,
    });
  },
};

export const LIBRARY_SERVICE = 'similarity.hnsw-library';

/**
 * usearch's CommonJS build: it finds its binary from its own folder, where
 * the ES module build guesses its folder from a stack trace (and loops
 * forever where the caller has no file, as in `node -e`).
 */
export function requireUsearch(): Usearch {
  return (createRequire(import.meta.url)('usearch') as { default: Usearch }).default;
}

/** Load usearch once per process; answers whether it loaded and why not. */
export function loadLibrary(ctx: Context): Promise<LibraryState> {
  return ctx.service(LIBRARY_SERVICE, async (): Promise<LibraryState> => {
    try {
      const usearch = requireUsearch();
      // A tiny graph proves the native part loads on this machine, not only the JavaScript.
      HNSW.open(usearch, 8).size();
      // The package exports no package.json; it sits three folders above the CommonJS entry.
      const entry = createRequire(import.meta.url).resolve('usearch');
      const version = (JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '../../../package.json'), 'utf8')) as { version: string }).version;
      return { loaded: true, version, reason: null, usearch };
    } catch (err) {
      return { loaded: false, version: null, reason: err instanceof Error ? err.message.slice(0, 300) : String(err), usearch: null };
    }
  });
}
