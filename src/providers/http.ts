/** The one place a lane calls fetch: failures become scrubbed UpstreamErrors. */
import { unreachable, upstreamFailure, UpstreamError } from './errors.js';
import type { FetchLike } from './types.js';

export interface CallOptions {
  provider: string;
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: unknown;
  secrets: readonly (string | undefined)[];
  fetch?: FetchLike;
  signal?: AbortSignal;
}

export async function call(options: CallOptions): Promise<Response> {
  const doFetch = options.fetch ?? globalThis.fetch;
  let res: Response;
  try {
    res = await doFetch(options.url, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw unreachable(options.provider, err, options.secrets);
  }
  if (!res.ok) throw await upstreamFailure(options.provider, res, options.secrets);
  return res;
}

export async function callJson(options: CallOptions): Promise<any> {
  const res = await call(options);
  try {
    return await res.json();
  } catch {
    throw new UpstreamError('malformed', res.status, `${options.provider} answered something that is not JSON.`);
  }
}

/** Join a base URL and a path with exactly one slash. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}

/** A reported model id worth recording: a nonblank string of at most 512 characters without controls. */
export function validModel(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 512 && !/\p{Cc}/u.test(value);
}

/** Emits a model report only when the claimed model changes (repeated identical claims are one report). */
export function modelReporter() {
  let last: string | undefined;
  return (value: unknown): string | undefined => {
    if (!validModel(value) || value === last) return undefined;
    last = value;
    return value;
  };
}
