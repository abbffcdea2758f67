/**
 * Asks one source: resolves its key (a run's ephemeral credential first, then
 * the store), settles the date window, pages until max_results or the end, and
 * accounts for the answer. An empty answer carries exactly one zero reason
 * with the evidence observed (HTTP status, exception class, counts), never a key.
 */
import type { Context } from '../context.js';
import { svcVersion } from '../version.js';
import type { CapNote } from './cap-record.js';
import { pageCapBytes } from './caps.js';
import { createSourceHttp, keyRedactor, PageOverCapError, UpstreamError, type HttpTrace, type RedactingSourceHttp } from './http.js';
import type { NetworkKind } from './net-cause.js';
import { pageThrough } from './page-loop.js';
import { throttleFor } from './throttle.js';
import { ParseError, type CatalogEntry, type NormalizedRecord, type SearchRequest, type SourceAdapter, type ZeroReason } from './types.js';
import { windowRefusal } from './window-rule.js';

export interface SourceParams {
  query: string;
  keywords: string[];
  dateFrom?: string;
  dateTo?: string;
  maxResults: number;
  author?: string;
  /** An ORCID iD for the same author, sent instead of the name to sources with orcidSearch. */
  authorOrcid?: string;
}

export interface SourceEvidence {
  http_status?: number | null;
  exception_class?: string;
  received: number;
  usable: number;
  unusable: number;
  filtered_out: number;
  rights_filtered: number;
  total_reported?: number;
  retry_after_ms?: number;
  scan_limit_reached?: boolean;
  /** No HTTP answer at all: dns, refused, unreachable, tls, timeout, reset or other. */
  network?: NetworkKind;
}

export interface Window {
  from: string | null;
  to: string | null;
}

export interface SourceOutcome {
  source: string;
  records: NormalizedRecord[];
  /** Set exactly when records is empty. */
  zeroReason: ZeroReason | null;
  /** One sentence for people: why nothing came back, or what went wrong after some records. */
  message: string | null;
  evidence: SourceEvidence;
  request: { query: string; keywords: string[]; date_from: string | null; date_to: string | null; max_results: number; author: string | null; base_url: string; key: 'ephemeral' | 'stored' | 'none' };
  window: { asked: Window | null; answered: Window | null; support: string };
  /** The page cap that applied (null when the source was not asked), and the values cut to the caps: the first 100 noted, all counted. */
  caps: { page_bytes: number | null; cut: CapNote[]; cut_total: number };
  /** A later page failed after earlier pages answered. */
  partialFailure: { exception_class: string; http_status: number | null; message: string } | null;
  cancelled: boolean;
  pages: number;
  traces: HttpTrace[];
  startedAtUtc: string;
  finishedAtUtc: string;
  ms: number;
}

export interface DriveOptions {
  signal: AbortSignal;
  ephemeralCredentials?: Record<string, string>;
  /** Called after each page with the records it added, so they can be stored while the next page is asked; paging waits for what it answers. */
  onPage?: (info: { source: string; page: number; received: number; kept: number; total?: number; records: NormalizedRecord[]; capped: CapNote[] }) => void | Promise<void>;
}

export function userAgent(contactEmail: string | undefined): string {
  const contact = contactEmail ? `; mailto:${contactEmail}` : '';
  return `svc/${svcVersion()} (local research-paper collector${contact})`;
}

function baseUrlOf(ctx: Context, id: string, fallback: string): string {
  return (ctx.config.sourceUrls[id] ?? fallback).replace(/\/+$/, '');
}

/**
 * The user name and password a base URL carries (SVC_SOURCE_<ID>_URL may name a proxy that wants
 * them), as they are spelled in it: secrets like a key, never recorded (and never sent: fetch refuses
 * such a URL, net-cause.ts URLCredentials).
 */
function urlCredentials(url: string): string[] {
  try {
    const { username, password, href } = new URL(url);
    if (!username && !password) return [];
    // The whole user-info as spelled (a one-letter user name alone would blank every such letter), and
    // the password alone when it is long enough to be told from other text, for a source that quotes it.
    const userinfo = href.slice(href.indexOf('//') + 2, href.indexOf('@'));
    return [userinfo, ...(password.length >= 4 ? [password] : [])];
  } catch {
    return [];
  }
}

/** SVC_SOURCE_<ID>_URL when it overrides the source's base URL, so a message can name what to fix. */
export function urlSettingOf(ctx: Context, id: string): string | undefined {
  return ctx.config.sourceUrls[id] ? `SVC_SOURCE_${id.toUpperCase()}_URL` : undefined;
}

/**
 * HTTP for one source within its politeness: the source's rate limit (the
 * faster one with a key, where the source grants it), shared by every run in
 * this process through its throttle group, with the run's timeouts and retries.
 */
function politeHttp(ctx: Context, entry: SourceAdapter, baseUrl: string, apiKey: string | undefined, contactEmail: string | undefined, pageCap: number, signal: AbortSignal): RedactingSourceHttp {
  const caps = entry.capabilities;
  return createSourceHttp({
    fetch: ctx.fetch,
    throttle: throttleFor(ctx, entry.throttleGroup ?? entry.id),
    rate: apiKey && caps.rateLimitWithKey ? caps.rateLimitWithKey : caps.rateLimit,
    userAgent: userAgent(contactEmail),
    signal,
    timeoutMs: ctx.tuning.sourceTimeoutMs,
    retryBaseMs: ctx.tuning.sourceRetryBaseMs,
    maxAttempts: ctx.tuning.sourceMaxAttempts,
    maxRetryAfterMs: ctx.tuning.sourceMaxRetryAfterMs,
    secrets: [...(apiKey ? [apiKey] : []), ...urlCredentials(baseUrl)],
    urlSetting: urlSettingOf(ctx, entry.id),
    caps: ctx.tuning.sourceCaps,
    pageCapBytes: pageCap,
  });
}

/** A failure of the caller's page handler (storing records): svc's own, never the source's zero reason. */
class PageHandlerError extends Error {
  constructor(readonly original: unknown) {
    super('page handler failed');
  }
}

export async function searchSource(ctx: Context, entry: CatalogEntry, params: SourceParams, options: DriveOptions): Promise<SourceOutcome> {
  const started = Date.now();
  const startedAtUtc = ctx.nowIso();
  const baseUrl = entry.status === 'retired' ? '' : baseUrlOf(ctx, entry.id, entry.defaultBaseUrl);
  const asked: Window | null = params.dateFrom || params.dateTo ? { from: params.dateFrom ?? null, to: params.dateTo ?? null } : null;
  const evidence: SourceEvidence = { received: 0, usable: 0, unusable: 0, filtered_out: 0, rights_filtered: 0 };
  const outcome: SourceOutcome = {
    source: entry.id,
    records: [],
    zeroReason: null,
    message: null,
    evidence,
    request: {
      query: params.query,
      keywords: params.keywords,
      date_from: params.dateFrom ?? null,
      date_to: params.dateTo ?? null,
      max_results: params.maxResults,
      author: ('capabilities' in entry && entry.capabilities.orcidSearch && params.authorOrcid) || params.author || null,
      // Recorded without the credentials it may carry; the requests use baseUrl itself.
      base_url: keyRedactor(urlCredentials(baseUrl))(baseUrl),
      key: 'none',
    },
    window: { asked, answered: null, support: entry.status === 'retired' ? 'none' : entry.capabilities.dateWindow },
    caps: { page_bytes: null, cut: [], cut_total: 0 },
    partialFailure: null,
    cancelled: false,
    pages: 0,
    traces: [],
    startedAtUtc,
    finishedAtUtc: startedAtUtc,
    ms: 0,
  };
  // Messages may quote what a source answered, and a source may quote the key it was sent.
  let redact = (text: string) => text;
  const finish = (reason: ZeroReason | null, message: string | null) => {
    outcome.zeroReason = outcome.records.length === 0 ? (reason ?? 'answered_empty') : null;
    outcome.message = message === null ? null : redact(message);
    evidence.usable = outcome.records.length;
    outcome.finishedAtUtc = ctx.nowIso();
    outcome.ms = Date.now() - started;
    return outcome;
  };

  if (entry.status === 'retired') return finish('retired', `${entry.name} was retired on ${entry.retiredOn}; it cannot be asked.`);
  const caps = entry.capabilities;

  // The key: a run's ephemeral credential first, then the store. Never stored, never logged.
  let apiKey: string | undefined;
  if (caps.credential) {
    const name = caps.credential.name;
    const ephemeral = options.ephemeralCredentials?.[name];
    if (ephemeral) {
      apiKey = ephemeral;
      outcome.request.key = 'ephemeral';
      ctx.log.addSecret(ephemeral);
    } else {
      apiKey = ctx.credentials.reveal(name);
      if (apiKey) outcome.request.key = 'stored';
    }
    if (!apiKey && caps.credential.required) return finish('missing_key', `${entry.name} needs the ${name} credential; store it with \`svc credentials set ${name}\`.`);
  }
  if (params.author && !caps.authorSearch) return finish('entity_unsupported', `${entry.name} cannot search by author.`);
  if (caps.orcidOnly && !params.authorOrcid) return finish('entity_unsupported', `${entry.name} answers only for a person's ORCID iD: a routine that follows a watch profile with one asks it.`);

  // The date window goes to the source, or the source is not asked.
  let windowFrom = params.dateFrom;
  let windowTo = params.dateTo;
  const windowProblem = windowRefusal(entry.name, caps.dateWindow, asked !== null);
  if (windowProblem) return finish('window_unanswerable', windowProblem);
  if (caps.dateWindow === 'required') {
    windowFrom ??= '1900-01-01';
    windowTo ??= ctx.nowIso().slice(0, 10);
  }
  if (asked) {
    outcome.window.answered =
      caps.dateWindow === 'year'
        ? { from: windowFrom ? `${windowFrom.slice(0, 4)}-01-01` : null, to: windowTo ? `${windowTo.slice(0, 4)}-12-31` : null }
        : { from: windowFrom ?? null, to: windowTo ?? null };
  } else if (caps.dateWindow === 'required') outcome.window.answered = { from: windowFrom!, to: windowTo! };

  const contactEmail = String(ctx.settings.read('email').contact_email ?? '') || undefined;
  // The run's cancel, or this source's own stop: storing a page failed while the next one was
  // already asked (page-loop.ts), and nobody will take that page any more.
  const abandon = new AbortController();
  const sourceSignal = AbortSignal.any([options.signal, abandon.signal]);
  // A page holds at most the source's page size, and no more than the run asks for.
  outcome.caps.page_bytes = pageCapBytes(ctx.tuning.sourceCaps, Math.min(caps.pageSize, params.maxResults));
  const http = politeHttp(ctx, entry, baseUrl, apiKey, contactEmail, outcome.caps.page_bytes, sourceSignal);
  outcome.traces = http.traces;
  redact = http.redact;
  const request: SearchRequest = {
    query: params.query,
    keywords: params.keywords,
    dateFrom: windowFrom,
    dateTo: windowTo,
    maxResults: params.maxResults,
    author: caps.orcidSearch && params.authorOrcid ? params.authorOrcid : params.author,
    apiKey,
    contactEmail,
    baseUrl,
    signal: sourceSignal,
  };

  let notice: string | undefined;
  try {
    const onPage = options.onPage;
    const guarded: DriveOptions['onPage'] = onPage
      ? async (info) => {
          try {
            await onPage(info);
          } catch (err) {
            throw new PageHandlerError(err);
          }
        }
      : undefined;
    notice = await pageThrough(entry, request, http, outcome, asked ? { from: params.dateFrom, to: params.dateTo } : null, guarded);
  } catch (err) {
    if (err instanceof PageHandlerError) {
      abandon.abort(err.original); // the page asked ahead would otherwise go on (and retry) for nobody
      throw err.original; // storing failed here, not at the source
    }
    if (options.signal.aborted) {
      outcome.cancelled = true;
      return finish('not_recorded', 'The run was cancelled while this source was being asked.');
    }
    const failure = classifyFailure(err, apiKey !== undefined, caps.credential !== undefined);
    evidence.http_status = failure.status;
    evidence.exception_class = failure.exceptionClass;
    if (failure.retryAfterMs !== undefined) evidence.retry_after_ms = failure.retryAfterMs;
    if (failure.network) evidence.network = failure.network;
    const message = failure.reason === 'missing_key' ? `${entry.name} now requires the ${caps.credential!.name} credential (it answered ${failure.status}).` : `${entry.name}: ${failure.message}`;
    if (outcome.records.length > 0) {
      outcome.partialFailure = { exception_class: failure.exceptionClass, http_status: failure.status, message: redact(message) };
      return finish(null, `Stopped after page ${outcome.pages}: ${message}`);
    }
    return finish(failure.reason, message);
  }
  if (outcome.records.length > 0) return finish(null, null);
  if (evidence.received > 0 && evidence.rights_filtered > 0 && evidence.rights_filtered + evidence.unusable >= evidence.received) {
    return finish('rights_filtered', `${entry.name} withheld every record it found for rights reasons.`);
  }
  if (evidence.received > 0 && evidence.unusable > 0 && evidence.unusable >= evidence.received) {
    return finish('records_unusable', `${entry.name} answered ${evidence.received} entries, none usable (no title).`);
  }
  // The source's own words about the query (PubMed: "quoted phrase not found") say why, where a count cannot.
  const said = notice ? ` ${entry.name} said: ${notice.replace(/\.$/, '')}.` : '';
  return finish('answered_empty', (evidence.received > 0 ? `${entry.name} answered, but nothing matched the keywords or the date window.` : `${entry.name} found nothing for this query.`) + said);
}

function classifyFailure(err: unknown, keySent: boolean, acceptsKey: boolean): { reason: ZeroReason; status: number | null; exceptionClass: string; message: string; retryAfterMs?: number; network?: NetworkKind } {
  if (err instanceof UpstreamError) {
    const reason: ZeroReason = !keySent && acceptsKey && (err.status === 401 || err.status === 403) ? 'missing_key' : 'upstream_failure';
    return { reason, status: err.status, exceptionClass: err.exceptionClass, message: err.message, retryAfterMs: err.retryAfterMs, network: err.networkKind };
  }
  if (err instanceof PageOverCapError) return { reason: 'parse_failure', status: err.status, exceptionClass: err.exceptionClass, message: err.message };
  if (err instanceof ParseError) return { reason: 'parse_failure', status: null, exceptionClass: 'ParseError', message: err.message };
  // An adapter tripping over an unexpected shape is a parse failure too; its message can be kept, it holds no key.
  const name = err instanceof Error ? err.name : 'Error';
  return { reason: 'parse_failure', status: null, exceptionClass: name, message: `the answer had an unexpected shape (${name})` };
}
