/**
 * HTTP for adapters, with politeness built in: the source's rate limit, a
 * timeout per request, bounded retries with jittered backoff on 429, 5xx,
 * timeouts and dropped connections (never on a missing host or a refused
 * connection: those fail at once, naming the cause), Retry-After honoured, a
 * User-Agent naming svc with a contact address. Every request is traced for the search record with
 * any key replaced by ***; keys never reach a log or an error. An answer is read up to its page cap
 * (caps.ts) and parsed by `parse` (parse-page.ts), off the event loop when it is large.
 */
import { ofetch } from 'ofetch';
import { ParseError, type RateLimit } from './types.js';
import type { Throttle } from './throttle.js';
import { sleep } from '../util/sleep.js';
import { networkCause, requestProblem, type NetworkKind } from './net-cause.js';
import { decodeChunks, readBodyChunks } from '../util/bounded-body.js';
import { sizeWords } from '../util/words.js';
import type { SourceCaps } from './caps.js';
import { parsePage, type PageParser, type Parsed, type ParseInput } from './parse-page.js';
import type { HttpTrace } from '../wire/executions.js';

export type { HttpTrace } from '../wire/executions.js';

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

/** The answer passed its page cap (caps.ts): parse_failure naming the cap, with the status it came with. Never retried. */
export class PageOverCapError extends ParseError {
  readonly exceptionClass = 'PageOverCap';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PageOverCapError';
  }
}

/** An answer: its body decoded when `text` is first read, or handed to a worker by `parse`. */
export interface HttpAnswer extends ParseInput {
  status: number;
  headers: Headers;
}

export interface SourceHttp {
  get(url: string, options?: HttpOptions): Promise<HttpAnswer>;
  /** `answer` (or any text) read by `parser` with the records cut to the caps: in a worker when it is large. */
  parse<A extends unknown[], T>(parser: PageParser<A, T>, answer: ParseInput, ...args: A): Promise<Parsed<T>>;
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
  /** What one answer and its records may hold (caps.ts), and this source's page cap from them. */
  caps: SourceCaps;
  pageCapBytes: number;
  /** The environment variable the base URL came from (SVC_SOURCE_PUBMED_URL), when one overrides the default: named when fetch refuses the URL. */
  urlSetting?: string;
  random?: () => number;
}

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * An error answer is read this far at most: only a reason is wanted from it (errorBodyReason), and a
 * broken endpoint may answer an error with a body that never ends.
 */
const ERROR_BODY_BYTES = 64 * 1024;

/** Thrown inside one attempt when the answer passes its page cap. */
class OverCap extends Error {
  constructor(
    readonly bytes: number,
    readonly announced: number | undefined,
  ) {
    super('over cap');
  }
}

/** An answer whose body is decoded on first read, unless `takeChunks` handed it to a worker first. */
function answerOf(status: number, headers: Headers, chunks: Uint8Array[], size: number): HttpAnswer {
  let text: string | undefined;
  let taken = false;
  return {
    status,
    headers,
    size,
    get text() {
      if (text !== undefined) return text;
      if (taken) throw new Error('the answer was handed to a parser; read its text before parsing it');
      return (text = decodeChunks(chunks));
    },
    takeChunks() {
      if (taken) throw new Error('the answer was already handed to a parser');
      taken = true;
      return chunks;
    },
  };
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
  const limit = deps.pageCapBytes;
  // 'stream': ofetch hands the body over unread, so readBodyChunks can stop it at the cap.
  // What else ofetch offers does not fit a source: its retry waits out a delay that no signal can cut
  // short, asks again after a missing host or a refused connection, and knows no throttle or
  // Retry-After ceiling (get() below does); its timeout applies only to a request without a signal,
  // and every request here has the run's; its typed error for a failed status would only move where
  // the status is looked at (an error answer is still read here, for its reason, 64 KiB at most).
  const fetcher = ofetch.create({ retry: 0, ignoreResponseError: true, responseType: 'stream' }, { fetch: deps.fetch });
  const redact = keyRedactor(deps.secrets);

  /** One attempt: an answer, or an UpstreamError saying whether it may be retried and after how long. */
  async function attempt(url: string, options: HttpOptions, n: number): Promise<HttpAnswer | { error: UpstreamError | PageOverCapError; retry: boolean; waitMs?: number }> {
    await deps.throttle.acquire(deps.rate, deps.signal);
    const started = Date.now();
    const trace: HttpTrace = { method: 'GET', url: redact(url), status: null, ms: 0, bytes: 0, attempt: n };
    traces.push(trace);
    let response;
    let chunks: Uint8Array[];
    let acceptable = false;
    try {
      response = await fetcher.raw(url, {
        headers: { 'user-agent': deps.userAgent, accept: 'application/json, application/xml;q=0.9, */*;q=0.5', ...options.headers },
        signal: AbortSignal.any([deps.signal, AbortSignal.timeout(deps.timeoutMs)]),
      });
      acceptable = response.ok || (options.acceptStatus?.includes(response.status) ?? false);
      // Read inside the try: a timeout or a dropped connection while the body streams is the same failure as before it.
      // An error answer is read only for its reason, a short way; a page up to its cap.
      const read = await readBodyChunks(response, acceptable ? limit : ERROR_BODY_BYTES);
      if (read.chunks === null && acceptable) throw new OverCap(read.bytes, read.announced);
      chunks = read.chunks ?? [];
      trace.bytes = read.bytes;
    } catch (err) {
      trace.ms = Date.now() - started;
      if (deps.signal.aborted) throw deps.signal.reason;
      if (err instanceof OverCap) {
        // The source answered something svc will not read: parse_failure with its status, naming the cap. No URL in the message.
        trace.status = response!.status;
        trace.bytes = err.bytes;
        trace.error = 'PageOverCap';
        const cap = `the ${sizeWords(limit)} page cap`;
        const said = err.announced !== undefined ? `the answer announced ${sizeWords(err.announced)}, over ${cap}; svc did not read it` : `the answer passed ${cap}; svc stopped reading it`;
        return { error: new PageOverCapError(`${said} (svc-search(1), SOURCE CAPS)`, response!.status), retry: false };
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
    if (acceptable) return answerOf(response.status, response.headers, chunks, trace.bytes);
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    if (retryAfterMs !== undefined) trace.retry_after_ms = retryAfterMs;
    // The source's own words, when its error body has some (redacted: a source may quote the key).
    const said = errorBodyReason(decodeChunks(chunks));
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
    parse: (parser, answer, ...args) => parsePage(parser, answer, { caps: deps.caps, signal: deps.signal }, ...args),
  };
}
