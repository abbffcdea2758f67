/**
 * The HNSW library (usearch: Apache-2.0, its binary inside the npm tarball)
 * and the one shape of graph svc builds with it. Cosine distance; vectors
 * held as 16-bit floats (half of float32's bytes): the graph only proposes
 * candidates, every answer's distance is recomputed exactly from the
 * canonical float32 vector, so the rounding costs no accuracy in the
 * distances.
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
/**
 * Neighbours per node (M) and candidates weighed while inserting (efConstruction). On 100,000 clustered
 * vectors (bench/similarity.mjs's) 8-bit vectors, M 16 and 64 gave recall@25 0.97 (0.83 to 0.88 at
 * 1,000,000, where the graph limited it); 16-bit, M 32 and 128 gave 1.00 for three times the build time.
 */
const CONNECTIVITY = 32;
const EXPANSION_ADD = 128;
/** Candidates weighed while searching (ef; at least the number asked). */
const EXPANSION_SEARCH = 256;

export const HNSW = {
  /** An empty graph of `dimension`, or one to load a saved file into. */
  open(usearch: Usearch, dimension: number): HnswIndex {
    return new usearch.Index({
      dimensions: dimension,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.F16,
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
