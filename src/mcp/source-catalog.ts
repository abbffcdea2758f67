import type { Backend } from './backend.js';

const CATALOG_PATH = '/api/repositories/catalog';

/** A catalog row as the tools read it (the backend sends more; list_sources passes it all on). */
export interface CatalogRepository {
  id: string;
  name?: string;
  needs_key?: boolean;
  credential?: { name: string; required: boolean } | null;
  /** What a source can do; null for a retired source. */
  capabilities?: { author_search?: boolean } | null;
  [field: string]: unknown;
}

/**
 * The source catalog, asked once per service this process talks to (it changes only with svc
 * itself). A source `ids` names that the kept catalog lacks makes it ask again before any tool
 * says "no such source": the service may have been upgraded without this process noticing yet.
 */
export async function sourceCatalog(backend: Backend, ids: readonly string[] = []): Promise<CatalogRepository[]> {
  const read = async (fresh: boolean) => ((await backend.getStable<{ repositories?: CatalogRepository[] }>(CATALOG_PATH, { fresh })).repositories ?? []);
  const kept = await read(false);
  const known = new Set(kept.map((r) => r.id));
  return ids.every((id) => known.has(id)) ? kept : read(true);
}
