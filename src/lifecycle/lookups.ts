/**
 * Asking the sources about a slice of papers, with each source's own
 * politeness: its rate limit and throttle (shared with searches in this
 * process), retries, Retry-After, and SVC_SOURCE_<ID>_URL base overrides.
 * Crossref is asked per DOI (update-to and relation data); arXiv, OpenAlex
 * and PubMed once per slice with the ids batched.
 */
import type { Context } from '../context.js';
import { crossref, WORK as CROSSREF_WORK } from '../sources/crossref.js';
import { arxiv, PAGE as ARXIV_PAGE } from '../sources/arxiv.js';
import { pageCapBytes } from '../sources/caps.js';
import { urlSettingOf, userAgent } from '../sources/driver.js';
import { createSourceHttp, UpstreamError, type RedactingSourceHttp } from '../sources/http.js';
import { openalex, PAGE as OPENALEX_PAGE } from '../sources/openalex.js';
import { pubmed, PAGE as PUBMED_PAGE } from '../sources/pubmed.js';
import { throttleFor } from '../sources/throttle.js';
import { ParseError, type NormalizedRecord, type SourceAdapter } from '../sources/types.js';
import type { TargetDocument } from './repo.js';
import type { Asked, AskOutcome } from '../wire/lifecycle.js';

export interface SliceAnswer {
  records: Map<number, { source: string; record: NormalizedRecord }[]>;
  asked: Map<number, Asked[]>;
  /** The signal aborted the lookups: `asked` holds what answered before, and an "interrupted" failure for each lookup cut short. */
  interrupted: boolean;
}

/** The reason recorded for a source whose lookup the abort cut short. */
export const INTERRUPTED_REASON = 'interrupted: the check was abandoned before this source answered';

interface Client {
  http: RedactingSourceHttp;
  baseUrl: string;
  apiKey?: string;
  contactEmail?: string;
}

export const LIFECYCLE_SOURCES = ['crossref', 'arxiv', 'openalex', 'pubmed'] as const;

/** Papers asked about at once: a batched lookup's answer holds at most this many records (its page cap follows). */
export const SLICE_SIZE = 50;

function clientFor(ctx: Context, adapter: SourceAdapter, signal: AbortSignal): Client | { missing: string } {
  const credential = adapter.capabilities.credential;
  const apiKey = credential ? ctx.credentials.reveal(credential.name) : undefined;
  if (credential?.required && !apiKey) return { missing: credential.name };
  const contactEmail = String(ctx.settings.read('email').contact_email ?? '') || undefined;
  const http = createSourceHttp({
    fetch: ctx.fetch,
    throttle: throttleFor(ctx, adapter.throttleGroup ?? adapter.id),
    rate: apiKey && adapter.capabilities.rateLimitWithKey ? adapter.capabilities.rateLimitWithKey : adapter.capabilities.rateLimit,
    userAgent: userAgent(contactEmail),
    signal,
    timeoutMs: ctx.tuning.sourceTimeoutMs,
    retryBaseMs: ctx.tuning.sourceRetryBaseMs,
    maxAttempts: ctx.tuning.sourceMaxAttempts,
    maxRetryAfterMs: ctx.tuning.sourceMaxRetryAfterMs,
    secrets: apiKey ? [apiKey] : [],
    urlSetting: urlSettingOf(ctx, adapter.id),
    caps: ctx.tuning.sourceCaps,
    pageCapBytes: pageCapBytes(ctx.tuning.sourceCaps, SLICE_SIZE),
  });
  return { http, baseUrl: (ctx.config.sourceUrls[adapter.id] ?? adapter.defaultBaseUrl).replace(/\/+$/, ''), apiKey, contactEmail };
}

function failure(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) throw signal.reason;
  if (err instanceof UpstreamError) return `upstream_failure: ${err.message}`;
  if (err instanceof ParseError) return `parse_failure: ${err.message}`;
  return `parse_failure: unexpected answer (${err instanceof Error ? err.name : 'Error'})`;
}

/** A DOI in a URL path: escaped, slashes kept (Crossref's /works/{doi}). */
const doiPath = (doi: string) => encodeURIComponent(doi).replace(/%2F/gi, '/');

type Lookup = (client: Client, docs: TargetDocument[], add: (doc: TargetDocument, asked: Asked, record?: NormalizedRecord) => void, signal: AbortSignal) => Promise<void>;

const lookupCrossref: Lookup = async (client, docs, add, signal) => {
  for (const doc of docs) {
    const params = client.contactEmail ? `?mailto=${encodeURIComponent(client.contactEmail)}` : '';
    try {
      const answer = await client.http.get(`${client.baseUrl}/works/${doiPath(doc.doi!)}${params}`, { acceptStatus: [404] });
      if (answer.status === 404) {
        add(doc, { source: 'crossref', outcome: 'not_found' });
        continue;
      }
      const record = (await client.http.parse(CROSSREF_WORK, answer)).records[0];
      if (!record) throw new ParseError('Crossref answered without a usable work.');
      add(doc, { source: 'crossref', outcome: 'answered' }, record);
    } catch (err) {
      add(doc, { source: 'crossref', outcome: 'failed', reason: failure(err, signal) });
    }
  }
};

/** Answer each doc from a batch: records matched by `keyOf`, docs absent from the answer are not_found. */
async function batch(source: string, docs: TargetDocument[], add: Parameters<Lookup>[2], signal: AbortSignal, docKey: (d: TargetDocument) => string, recordKey: (r: NormalizedRecord) => string | undefined, ask: () => Promise<NormalizedRecord[]>) {
  try {
    const records = await ask();
    const byKey = new Map<string, NormalizedRecord>();
    for (const r of records) {
      const key = recordKey(r);
      if (key && !byKey.has(key)) byKey.set(key, r);
    }
    for (const doc of docs) {
      const record = byKey.get(docKey(doc));
      add(doc, { source, outcome: record ? 'answered' : 'not_found' }, record);
    }
  } catch (err) {
    const reason = failure(err, signal);
    for (const doc of docs) add(doc, { source, outcome: 'failed', reason });
  }
}

const lookupArxiv: Lookup = (client, docs, add, signal) =>
  batch('arxiv', docs, add, signal, (d) => d.arxiv_id!, (r) => r.ids.arxiv, async () => {
    const params = new URLSearchParams({ id_list: docs.map((d) => d.arxiv_id!).join(','), start: '0', max_results: String(docs.length) });
    const answer = await client.http.get(`${client.baseUrl}/query?${params}`, { acceptStatus: [400] });
    const page = await client.http.parse(ARXIV_PAGE, answer);
    if (page.error !== undefined || answer.status === 400) throw new UpstreamError(`arXiv refused the id list (HTTP ${answer.status}): ${page.error ?? 'no reason given'}`, answer.status, 'HTTPStatusError');
    return page.records;
  });

const lookupOpenAlex: Lookup = (client, docs, add, signal) =>
  batch('openalex', docs, add, signal, (d) => d.doi!, (r) => r.doi, async () => {
    const params = new URLSearchParams({ filter: `doi:${docs.map((d) => d.doi!).join('|')}`, 'per-page': String(Math.min(100, docs.length)) });
    if (client.apiKey) params.set('api_key', client.apiKey);
    if (client.contactEmail) params.set('mailto', client.contactEmail);
    return (await client.http.parse(OPENALEX_PAGE, await client.http.get(`${client.baseUrl}/works?${params}`))).records;
  });

const lookupPubmed: Lookup = (client, docs, add, signal) =>
  batch('pubmed', docs, add, signal, (d) => d.pmid!, (r) => r.ids.pmid, async () => {
    const params = new URLSearchParams({ db: 'pubmed', id: docs.map((d) => d.pmid!).join(','), retmode: 'xml', tool: 'svc' });
    if (client.contactEmail) params.set('email', client.contactEmail);
    if (client.apiKey) params.set('api_key', client.apiKey);
    return (await client.http.parse(PUBMED_PAGE, await client.http.get(`${client.baseUrl}/efetch.fcgi?${params}`))).records;
  });

/** `answers`: whether a record is the one the lookup would answer for the paper (the key it asks by). */
const PLAN: { adapter: SourceAdapter; wants: (d: TargetDocument) => boolean; answers: (d: TargetDocument, r: NormalizedRecord) => boolean; lookup: Lookup }[] = [
  { adapter: crossref, wants: (d) => Boolean(d.doi), answers: (d, r) => r.doi?.toLowerCase() === d.doi!.toLowerCase(), lookup: lookupCrossref },
  { adapter: arxiv, wants: (d) => Boolean(d.arxiv_id), answers: (d, r) => r.ids.arxiv === d.arxiv_id, lookup: lookupArxiv },
  { adapter: openalex, wants: (d) => Boolean(d.doi), answers: (d, r) => r.doi === d.doi, lookup: lookupOpenAlex },
  { adapter: pubmed, wants: (d) => Boolean(d.pmid), answers: (d, r) => r.ids.pmid === d.pmid, lookup: lookupPubmed },
];

/**
 * The credential a lifecycle source is skipped without (a required key not stored), so a view can name
 * the command that stores it; undefined for a source that is asked without one.
 * @example credentialSkippedWithout('openalex') // 'openalex_api_key'
 */
export function credentialSkippedWithout(source: string): string | undefined {
  const credential = PLAN.find((p) => p.adapter.id === source)?.adapter.capabilities.credential;
  return credential?.required ? credential.name : undefined;
}

/** The lifecycle sources a check skips for want of a key (required and not stored), with the key's name. */
export function sourcesWithoutKey(ctx: Context): { source: string; credential: string }[] {
  return PLAN.flatMap(({ adapter }) => {
    const credential = adapter.capabilities.credential;
    return credential?.required && ctx.credentials.status(credential.name) !== 'present' ? [{ source: adapter.id, credential: credential.name }] : [];
  });
}

/** Records of papers a source has just answered (a routine's fire, which searched that source): by document id. */
export type FreshRecords = Map<number, { source: string; record: NormalizedRecord }[]>;

/** Clients are built once per check run (one trace list each) and reused for every slice. */
export type Clients = Map<string, Client | { missing: string }>;

export function buildClients(ctx: Context, signal: AbortSignal): Clients {
  return new Map(PLAN.map((p) => [p.adapter.id, clientFor(ctx, p.adapter, signal)]));
}

/**
 * `fresh`: what sources answered about these papers moments ago (the fire of a routine following a
 * person searched them): a paper's record from a source is taken as that source's answer, not asked again.
 */
export async function askAboutSlice(clients: Clients, docs: TargetDocument[], signal: AbortSignal, fresh?: FreshRecords): Promise<SliceAnswer> {
  const answer: SliceAnswer = { records: new Map(), asked: new Map(), interrupted: false };
  const add = (doc: TargetDocument, asked: Asked, record?: NormalizedRecord) => {
    answer.asked.set(doc.id, [...(answer.asked.get(doc.id) ?? []), asked]);
    if (record) answer.records.set(doc.id, [...(answer.records.get(doc.id) ?? []), { source: asked.source, record }]);
  };
  // Settled, not raced: on an abort every lookup ends promptly (the signal reaches its requests) and what answered first is kept.
  const settled = await Promise.allSettled(
    PLAN.map(async (p) => {
      const wanted = docs.filter((doc) => {
        if (!p.wants(doc)) return false;
        const known = fresh?.get(doc.id)?.find((f) => f.source === p.adapter.id && p.answers(doc, f.record));
        if (known) add(doc, { source: p.adapter.id, outcome: 'answered' }, known.record);
        return !known;
      });
      if (wanted.length === 0) return;
      const client = clients.get(p.adapter.id)!;
      if ('missing' in client) {
        for (const doc of wanted) add(doc, { source: p.adapter.id, outcome: 'skipped', reason: `missing_key: ${client.missing} is not stored` });
        return;
      }
      // A failure reason may quote what the source answered, and a source may quote the key it was sent.
      await p.lookup(client, wanted, (doc, asked, record) => add(doc, asked.reason ? { ...asked, reason: client.http.redact(asked.reason) } : asked, record), signal);
    }),
  );
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed && !signal.aborted) throw failed.reason;
  if (signal.aborted) {
    answer.interrupted = true;
    for (const p of PLAN) {
      for (const doc of docs.filter(p.wants)) {
        if (!answer.asked.get(doc.id)?.some((a) => a.source === p.adapter.id)) add(doc, { source: p.adapter.id, outcome: 'failed', reason: INTERRUPTED_REASON });
      }
    }
  }
  return answer;
}
