/**
 * HTTP for adapters, with politeness built in: the source's rate limit, a
 * timeout per request, bounded retries with jittered backoff on 429, 5xx,
 * timeouts and dropped connections (never on a missing host or a refused
 * connection: those fail at once, naming the cause), Retry-After honoured, a
 * User-Agent naming svc with a contact address. Every request is traced for the search record with
 * any key replaced by ***; keys never reach a log or an error.
 */
import { ofetch } from 'ofetch';
import { ParseError, type RateLimit } from './types.js';
import type { Throttle } from './throttle.js';
import { sleep } from '../util/sleep.js';
import { networkCause, requestProblem, type NetworkKind } from './net-cause.js';
import { readBodyBounded } from '../util/bounded-body.js';

export interface HttpTrace {
  method: string;
  url: string;
  status: number | null;
  ms: number;
  bytes: number;
  attempt: number;
  error?: string;
  retry_after_ms?: number;
}

/** The source did not answer usably: HTTP status or the exception class is the evidence. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly exceptionClass: string,
    readonly retryAfterMs?: number,
    /** Set when no HTTP answer came at all: what kind of network failure it was. */
    readonly networkKind?: NetworkKind,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface HttpOptions {
  headers?: Record<string, string>;
  /** Statuses to hand back to the adapter instead of failing (an error document it wants to read). */
  acceptStatus?: number[];
}

export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
}

export interface SourceHttp {
  get(url: string, options?: HttpOptions): Promise<HttpAnswer>;
  getJson<T = any>(url: string, options?: HttpOptions): Promise<T>;
  readonly traces: HttpTrace[];
}

/** The HTTP of one source request: also `redact`, for messages built from what the source answered. */
export interface RedactingSourceHttp extends SourceHttp {
  /** `text` with every spelling of the key replaced by ***. */
  redact(text: string): string;
}

export interface SourceHttpDeps {
  fetch: typeof globalThis.fetch;
  throttle: Throttle;
  rate: RateLimit;
  userAgent: string;
  signal: AbortSignal;
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  maxRetryAfterMs: number;
  /** Values to blank out of traced URLs (the API key). */
  secrets: string[];
  /** The environment variable the base URL came from (SVC_SOURCE_PUBMED_URL), when one overrides the default: named when fetch refuses the URL. */
  urlSetting?: string;
  random?: () => number;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * The most one answer may hold. The largest recorded page of any source (test/fixtures) is about
 * 0.3 MB and the biggest page a source can be asked for (200 PubMed or OpenAlex records with
 * abstracts) stays in single MBs; 64 MiB is far beyond any real page. Without a bound a broken
 * proxy, a wrong SVC_SOURCE_*_URL or a hostile endpoint could stream gigabytes into memory
 * before the timeout, which bounds time, not size.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Thrown inside one attempt when the answer passes the bound; never retried (it would only do it again). */
class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super('too large');
  }
}

/**
 * The reason a source gave in an error body, one line and short: Solr's error.msg (PLOS, HAL),
 * ORCID's user-message, a top-level message or error string (Semantic Scholar, OpenAlex, NCBI),
 * error.message, detail, errors[0]. Nothing for bodies that are not JSON or say nothing readable
 * (Crossref's exception stack is an object, not a sentence).
 */
export function errorBodyReason(text: string): string | undefined {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object') return undefined;
  const first = Array.isArray(body.errors) ? body.errors[0] : undefined;
  const candidates = [body.error?.msg, body['user-message'], body.message, body.error, body.error?.message, body.detail, first?.message, first?.detail, first?.title, first];
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '') as string | undefined;
  if (!found) return undefined;
  const line = found.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** Retry-After in ms: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * Blank every spelling of the keys in a text: a key reaches a URL raw, through
 * encodeURIComponent, or through URLSearchParams (which also escapes ~ ! ' ( )
 * and writes spaces as +), and a source may quote any of them back.
 */
export function keyRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const spellings = secrets
    .filter((s): s is string => Boolean(s))
    .flatMap((s) => [...new Set([s, encodeURIComponent(s), new URLSearchParams([['', s]]).toString().slice(1)])])
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const s of spellings) out = out.split(s).join('***');
    return out;
  };
}

export function createSourceHttp(deps: SourceHttpDeps): RedactingSourceHttp {
  const traces: HttpTrace[] = [];
  const random = deps.random ?? Math.random;
  const limit = MAX_RESPONSE_BYTES;
  // 'stream': ofetch hands the body over unread, so readBounded can stop it at the bound.
  const fetcher = ofetch.create({ retry: 0, ignoreResponseError: true, responseType: 'stream' }, { fetch: deps.fetch });
  const redact = keyRedactor(deps.secrets);

  /** One attempt: an answer, or an UpstreamError saying whether it may be retried and after how long. */
  async function attempt(url: string, options: HttpOptions, n: number): Promise<HttpAnswer | { error: UpstreamError; retry: boolean; waitMs?: number }> {
    await deps.throttle.acquire(deps.rate, deps.signal);
    const started = Date.now();
    const trace: HttpTrace = { method: 'GET', url: redact(url), status: null, ms: 0, bytes: 0, attempt: n };
    traces.push(trace);
    let response;
    let text: string;
    try {
      response = await fetcher.raw(url, {
        headers: { 'user-agent': deps.userAgent, accept: 'application/json, application/xml;q=0.9, */*;q=0.5', ...options.headers },
        signal: AbortSignal.any([deps.signal, AbortSignal.timeout(deps.timeoutMs)]),
      });
      // Read inside the try: a timeout or a dropped connection while the body streams is the same failure as before it.
      const read = await readBodyBounded(response, limit);
      if (read.text === null) throw new TooLarge(read.bytes);
      text = read.text;
      trace.bytes = read.bytes;
    } catch (err) {
      trace.ms = Date.now() - started;
      if (deps.signal.aborted) throw deps.signal.reason;
      if (err instanceof TooLarge) {
        // The source answered, badly: upstream_failure with its status, like any unusable answer. No URL in the message.
        trace.status = response!.status;
        trace.bytes = err.bytes;
        trace.error = 'ResponseTooLarge';
        const said = err.bytes === 0 ? 'announced an answer' : 'sent an answer';
        return { error: new UpstreamError(`${said} over ${limit / 1024 / 1024} MiB; svc stopped reading it`, response!.status, 'ResponseTooLarge'), retry: false };
      }
      const e = err as Error & { cause?: { name?: string } };
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || e.cause?.name === 'TimeoutError';
      const cause = networkCause(timedOut ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : err, url, deps.timeoutMs);
      if (!cause) {
        // Refused before sending (a bad URL, scheme or port: retrying cannot help), or a cause with no code.
        const problem = requestProblem(err, url, deps.urlSetting);
        trace.error = problem.code;
        return { error: new UpstreamError(redact(problem.text), null, problem.code), retry: problem.retry };
      }
      // The code names the cause (ENOTFOUND, ECONNREFUSED, a TLS code, TimeoutError); a missing
      // host or a refused connection will not change in a second, so it is not retried.
      trace.error = cause.code;
      return { error: new UpstreamError(cause.text, null, cause.code, undefined, cause.kind), retry: cause.retry };
    }
    trace.status = response.status;
    trace.ms = Date.now() - started;
    if (response.ok || options.acceptStatus?.includes(response.status)) return { status: response.status, text, headers: response.headers };
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    if (retryAfterMs !== undefined) trace.retry_after_ms = retryAfterMs;
    // The source's own words, when its error body has some (redacted: a source may quote the key).
    const said = errorBodyReason(text);
    const status = `HTTP ${response.status}${said ? `: ${redact(said)}` : ''}`;
    if (!RETRY_STATUS.has(response.status)) return { error: new UpstreamError(status, response.status, 'HTTPStatusError'), retry: false };
    if (retryAfterMs !== undefined && retryAfterMs > deps.maxRetryAfterMs) {
      const error = new UpstreamError(`${status}; asked to wait ${Math.round(retryAfterMs / 1000)} s`, response.status, 'HTTPStatusError', retryAfterMs);
      return { error, retry: false };
    }
    return { error: new UpstreamError(status, response.status, 'HTTPStatusError', retryAfterMs), retry: true, waitMs: retryAfterMs };
  }

  async function get(url: string, options: HttpOptions = {}): Promise<HttpAnswer> {
    for (let n = 1; ; n++) {
      const result = await attempt(url, options, n);
      if (!('error' in result)) return result;
      if (!result.retry || n >= deps.maxAttempts) throw result.error;
      const backoff = deps.retryBaseMs * 2 ** (n - 1);
      await sleep(Math.max(result.waitMs ?? 0, backoff / 2 + random() * backoff), deps.signal);
    }
  }

  return {
    traces,
    redact,
    get,
    async getJson(url, options) {
      const answer = await get(url, options);
      try {
        return JSON.parse(answer.text);
      } catch {
        throw new ParseError(`The answer of ${redact(url).split('?')[0]} is not JSON.`);
      }
    },
  };
}
