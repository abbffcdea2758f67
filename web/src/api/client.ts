/**
 * The only code that calls the backend. Every request carries the session's
 * bearer token in the Authorization header (never in a URL) and goes straight
 * to the backend's origin, cross-origin, through the spec's guard. A token the
 * backend no longer takes (the daemon restarted, a fallback was replaced) is
 * renewed once through the shell, then the request is sent again.
 */
import { currentSession, renewSession } from '../session.js';
import { ApiError, errorFromBody, Unreachable } from './errors.js';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null | (string | number)[]>;
  signal?: AbortSignal;
  /** Answer the raw Response (streams, downloads) instead of parsed JSON. */
  raw?: boolean;
  headers?: Record<string, string>;
}

function urlFor(baseUrl: string, path: string, query: RequestOptions['query']): string {
  const url = new URL(path, baseUrl);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
  }
  return url.toString();
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const session = currentSession();
  const headers: Record<string, string> = { authorization: `Bearer ${session.token}`, ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof Blob || options.body instanceof ArrayBuffer) body = options.body as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  try {
    return await fetch(urlFor(session.baseUrl, path, options.query), { method, headers, body, signal: options.signal, cache: 'no-store' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new Unreachable(session.baseUrl);
  }
}

const tokenRefused = (response: Response) => response.status === 401;

/** One call to the backend; refusals throw ApiError with the service's reason and words. */
export async function request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await send(method, path, options);
    if (tokenRefused(response)) {
      await renewSession();
      response = await send(method, path, options);
    }
  } catch (err) {
    if (!(err instanceof Unreachable)) throw err;
    // The backend may have been replaced (a new daemon, a restarted fallback): ask the shell once.
    if (!(await renewSession().then(() => true, () => false))) throw err;
    response = await send(method, path, options);
  }
  if (!response.ok) {
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    throw errorFromBody(response.status, parsed);
  }
  if (options.raw) return response as T;
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const api = {
  get: <T = unknown>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T = unknown>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};

export { ApiError };
