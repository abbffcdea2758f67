import type { SearchRequest } from './types.js';

/**
 * A value an adapter derives from the request (its query string, its sort) built once per search
 * instead of once per page: the page loop hands every page of one search the same request object.
 */
export function perSearch<T>(build: (req: SearchRequest) => T): (req: SearchRequest) => T {
  const built = new WeakMap<SearchRequest, T>();
  return (req) => {
    if (!built.has(req)) built.set(req, build(req));
    return built.get(req)!;
  };
}
