/**
 * The Library's own guard (spec 2 "Authentication"), run by every Library
 * route after the general guard and before it reads a body or changes
 * anything: exactly one Origin `http://127.0.0.1:<port>` that is an allowed
 * renderer origin, and exactly one `X-Svc-Library: 1`. It defends against
 * browser cross-origin requests only; a local process can send both headers.
 */
import type { H3Event } from 'h3';
import { forbidden } from '../src/errors.js';
import { route, type Handler, type Method, type RouteDef } from './registry.js';
import type { ServerRuntime } from './runtime.js';

const LOOPBACK_ORIGIN = /^http:\/\/127\.0\.0\.1:([1-9][0-9]{0,4})$/;
export const LIBRARY_HEADER = 'x-svc-library';

/**
 * Every value a header was sent with. The Node request's rawHeaders keep
 * repeats apart; the fetch Headers view would join them with a comma.
 */
export function headerValues(event: H3Event, name: string): string[] {
  const raw = event.runtime?.node?.req?.rawHeaders;
  if (!raw) {
    const joined = event.req.headers.get(name);
    return joined === null ? [] : [joined];
  }
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) values.push(raw[i + 1]!);
  return values;
}

export function checkLibraryRequest(event: H3Event, runtime: Pick<ServerRuntime, 'origins'>): void {
  const origins = headerValues(event, 'origin');
  if (origins.length === 0) throw forbidden('library_origin_refused', 'Library requests must carry the Origin of the svc window (http://127.0.0.1:<port>).', { problem: 'missing' });
  if (origins.length > 1) throw forbidden('library_origin_refused', 'Library requests must carry exactly one Origin header.', { problem: 'repeated' });
  const origin = origins[0]!;
  const match = LOOPBACK_ORIGIN.exec(origin);
  if (!match || Number(match[1]) > 65535) throw forbidden('library_origin_refused', 'The Origin must be http://127.0.0.1 with an explicit port.', { problem: origin === 'null' ? 'null' : 'malformed' });
  if (!runtime.origins.allows(origin)) throw forbidden('library_origin_refused', 'This Origin is not an allowed renderer origin.', { problem: 'foreign' });
  const marks = headerValues(event, LIBRARY_HEADER);
  if (marks.length !== 1 || marks[0] !== '1') {
    const problem = marks.length === 0 ? 'missing' : marks.length > 1 ? 'repeated' : 'malformed';
    throw forbidden('library_header_refused', 'Library requests must carry exactly one header X-Svc-Library: 1.', { problem });
  }
}

/**
 * A Library or Evidence route: `route()` whose answers, refusals included, are
 * Cache-Control: no-store, and whose handler runs only after the Library guard.
 */
export function libraryRoute(method: Method, path: string, handler: Handler): RouteDef {
  return route(method, path, (event, deps, params) => {
    event.res.headers.set('cache-control', 'no-store');
    checkLibraryRequest(event, deps.runtime);
    return handler(event, deps, params);
  });
}
