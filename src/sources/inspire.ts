/**
 * INSPIRE-HEP literature search (/api/literature). Its own search syntax:
 * bare words search everything, "a <name>" is an author, "de" is a record's
 * earliest date, so the window is "de >= from and de <= to". Page paging
 * (page from 1); only the first 10,000 results of a query can be reached.
 * fields= trims the (large) records to what we read. Titles and abstracts
 * carry LaTeX, which is kept as written. 15 requests per 5 s per IP address.
 * https://github.com/inspirehep/rest-api-doc
 */
import { asArray, countOf, parseJsonObject } from './json-body.js';
import { author, combinedQuery, makeRecord, normalizeArxivId, normalizeDoi, normalizeOrcid, parseDate } from './normalize.js';
import { ParseError, type Author, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { pageSizeFor } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;
const RESULT_CEILING = 10_000;
export const INSPIRE_FIELDS = [
  'control_number', 'titles', 'authors.full_name', 'authors.ids', 'authors.affiliations.value', 'abstracts', 'arxiv_eprints', 'dois',
  'publication_info', 'earliest_date', 'preprint_date', 'imprints', 'document_type', 'inspire_categories', 'license', 'keywords',
].join(',');

const TYPE: Record<string, string> = {
  article: 'article',
  'conference paper': 'proceedings',
  proceedings: 'proceedings-volume',
  thesis: 'thesis',
  book: 'book',
  'book chapter': 'book-chapter',
  report: 'report',
  note: 'note',
  activity_report: 'report',
};

/** White space collapsed; LaTeX and angle brackets kept (a "<" in "$m<M$" is not a tag). */
function text(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const t = raw.replace(/\s+/g, ' ').trim();
  return t === '' ? undefined : t;
}

/** The record's earliest date: INSPIRE's own earliest_date, else the earliest of its dates. */
function earliestDate(md: any) {
  const own = parseDate(md.earliest_date);
  if (own) return own;
  const candidates = [md.preprint_date, ...asArray<any>(md.imprints).map((i) => i?.date), ...asArray<any>(md.publication_info).map((p) => p?.year)]
    .map((d) => parseDate(d))
    .filter((d): d is NonNullable<ReturnType<typeof parseDate>> => d !== undefined);
  // Sorted on the first day each date can mean ("2019" as 2019-00-00); a more precise date inside the earliest one is preferred.
  const sorted = candidates.sort((a, b) => a.date.padEnd(10, '-00').localeCompare(b.date.padEnd(10, '-00')));
  const first = sorted[0];
  return first && (sorted.find((d) => d.date.length > first.date.length && d.date.startsWith(first.date)) ?? first);
}

function inspireAuthor(a: any): Author | undefined {
  const name = text(a?.full_name);
  if (!name) return undefined;
  const orcid = normalizeOrcid(asArray<any>(a.ids).find((i) => i?.schema === 'ORCID')?.value);
  const affiliations = asArray<any>(a.affiliations).map((x) => text(x?.value)).filter((x): x is string => !!x);
  return author(name, { orcid, affiliations: affiliations.length ? affiliations : undefined });
}

export function parseInspireHit(hit: any): NormalizedRecord | undefined {
  const md = hit?.metadata;
  if (!md || typeof md !== 'object') return undefined;
  const recid = md.control_number ?? hit.id;
  const title = text(asArray<any>(md.titles)[0]?.title);
  if ((typeof recid !== 'number' && typeof recid !== 'string') || !title) return undefined;
  const eprint = asArray<any>(md.arxiv_eprints)[0];
  const arxiv = normalizeArxivId(eprint?.value);
  const date = earliestDate(md);
  const pub = asArray<any>(md.publication_info).find((p) => p?.journal_title);
  const license = asArray<any>(md.license)[0];
  const docType = typeof asArray<any>(md.document_type)[0] === 'string' ? asArray<string>(md.document_type)[0]! : undefined;
  return makeRecord({
    source: 'inspire',
    nativeId: String(recid),
    title,
    authors: asArray<any>(md.authors).map(inspireAuthor).filter((a): a is Author => !!a),
    abstract: text(asArray<any>(md.abstracts)[0]?.value),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: text(pub?.journal_title),
    doi: normalizeDoi(asArray<any>(md.dois)[0]?.value),
    ids: { inspire: String(recid), arxiv: arxiv?.id, arxiv_version: arxiv?.version },
    landingUrl: `https://inspirehep.net/literature/${recid}`,
    categories: [...asArray<unknown>(eprint?.categories), ...asArray<any>(md.inspire_categories).map((c) => c?.term)].filter((c): c is string => typeof c === 'string'),
    license: license?.url ?? license?.license,
    type: docType ? (TYPE[docType] ?? docType) : undefined,
  });
}

/** Parse one literature search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { hasNext: boolean } {
  const body = parseJsonObject(text, 'INSPIRE');
  const hits = body.hits;
  if (!hits || typeof hits !== 'object' || !Array.isArray(hits.hits)) throw new ParseError('INSPIRE answered without hits.hits.');
  const records = hits.hits.map(parseInspireHit).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: countOf(hits.total),
    received: hits.hits.length,
    unusable: hits.hits.length - records.length,
    hasNext: hits.hits.length > 0 && typeof body.links?.next === 'string',
  };
}

/** The q parameter: words, window and author joined with "and". */
export function inspireQuery(words: string, from?: string, to?: string, authorName?: string): string {
  const parts: string[] = [];
  if (words) parts.push(from || to || authorName ? `(${words})` : words);
  if (from) parts.push(`de >= ${from}`);
  if (to) parts.push(`de <= ${to}`);
  if (authorName) parts.push(`a ${authorName}`);
  return parts.join(' and ');
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const inspire: SourceAdapter = {
  id: 'inspire',
  name: 'INSPIRE-HEP',
  homepage: 'https://inspirehep.net/',
  status: 'active',
  description: 'The high-energy physics literature database: papers, preprints, theses and conference contributions.',
  defaultBaseUrl: 'https://inspirehep.net/api',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'page',
    // INSPIRE: "every IP address is allowed 15 requests in a 5s window".
    rateLimit: { requests: 15, intervalMs: 5000 },
  },
  async fetchPage(req, cursor, http) {
    const page = cursor ? Number(cursor) : 1;
    const size = pageSizeFor(req, PAGE_SIZE);
    const text = combinedQuery(req.query, req.keywords);
    const params = new URLSearchParams({ q: inspireQuery(text, req.dateFrom, req.dateTo, req.author), size: String(size), page: String(page) });
    // With a q INSPIRE sorts most relevant first unless told otherwise (its only literature sorts are
    // mostrecent and mostcited); a q of only a window or an author has nothing to rank: newest first.
    if (!text) params.set('sort', 'mostrecent');
    params.set('fields', INSPIRE_FIELDS);
    const { hasNext, ...result } = await http.parse(PAGE, await http.get(`${req.baseUrl}/literature?${params}`));
    const more = hasNext || (result.total !== undefined && page * size < result.total);
    return { ...result, next: result.received > 0 && more && (page + 1) * size <= RESULT_CEILING ? String(page + 1) : undefined };
  },
};
