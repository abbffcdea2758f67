/**
 * HAL search API (Solr). By default HAL returns only docid, label_s (a whole
 * citation string) and uri_s, so we ask fl= for the fields a record needs.
 * A document that comes back without title_s is counted unusable: cutting a
 * title out of label_s ("Authors. Title. Venue, date. ⟨hal-…⟩") is guesswork
 * that breaks on titles or initials with periods, and a guessed title would
 * poison deduplication. Offset paging (start, rows); the window is a filter
 * query on producedDate_tdate; an author is a filter on authIdPerson_i (a HAL
 * person id), authORCIDIdExt_s (an ORCID) or authFullName_t (a name).
 * https://api.archives-ouvertes.fr/docs/search
 */
import { asArray, countOf, firstString, parseJsonObject } from './json-body.js';
import { author, fieldSyntaxQuery, makeRecord, markupToText, normalizeArxivId, normalizeDoi, normalizeOrcid, normalizePmid, parseDate } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;
export const HAL_FIELDS = [
  'docid', 'halId_s', 'uri_s', 'label_s', 'title_s', 'authFullName_s', 'abstract_s', 'doiId_s', 'producedDate_s', 'journalTitle_s',
  'conferenceTitle_s', 'bookTitle_s', 'fileMain_s', 'docType_s', 'arxivId_s', 'pubmedId_s', 'licence_s', 'keyword_s', 'openAccess_bool',
].join(',');

// HAL document types (docType_s) in our vocabulary; others are kept in lower case.
const TYPE: Record<string, string> = {
  ART: 'article',
  COMM: 'proceedings',
  POSTER: 'poster',
  OUV: 'book',
  DOUV: 'book',
  COUV: 'book-chapter',
  THESE: 'thesis',
  HDR: 'thesis',
  MEM: 'thesis',
  REPORT: 'report',
  SOFTWARE: 'software',
  PRESCONF: 'presentation',
  LECTURE: 'lecture',
  IMG: 'image',
  VIDEO: 'video',
  SON: 'audio',
  MAP: 'map',
  UNDEFINED: 'preprint',
  PREPRINT: 'preprint',
};

export function parseHalDoc(doc: any): NormalizedRecord | undefined {
  if (!doc || typeof doc !== 'object') return undefined;
  const halId = firstString(doc.halId_s);
  const nativeId = halId ?? firstString(doc.docid);
  const title = markupToText(firstString(doc.title_s));
  if (!nativeId || !title) return undefined;
  const date = parseDate(firstString(doc.producedDate_s));
  const arxiv = normalizeArxivId(firstString(doc.arxivId_s));
  const docType = firstString(doc.docType_s);
  return makeRecord({
    source: 'hal',
    nativeId,
    title,
    // HAL lists ORCIDs apart from names (not aligned to them), so authors carry names only.
    authors: asArray<unknown>(doc.authFullName_s)
      .filter((n): n is string => typeof n === 'string' && n.trim() !== '')
      .map((n) => author(n)),
    abstract: markupToText(firstString(doc.abstract_s)),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(firstString(doc.journalTitle_s) ?? firstString(doc.conferenceTitle_s) ?? firstString(doc.bookTitle_s)),
    doi: normalizeDoi(firstString(doc.doiId_s)),
    ids: { hal: halId, arxiv: arxiv?.id, arxiv_version: arxiv?.version, pmid: normalizePmid(firstString(doc.pubmedId_s)) },
    landingUrl: firstString(doc.uri_s),
    pdfUrl: firstString(doc.fileMain_s),
    categories: asArray<unknown>(doc.keyword_s).filter((k): k is string => typeof k === 'string'),
    license: firstString(doc.licence_s),
    openAccess: typeof doc.openAccess_bool === 'boolean' ? doc.openAccess_bool : undefined,
    type: docType ? (TYPE[docType] ?? docType.toLowerCase()) : undefined,
  });
}

/** Parse one search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  const body = parseJsonObject(text, 'HAL');
  const response = body.response;
  if (!response || typeof response !== 'object' || !Array.isArray(response.docs)) throw new ParseError('HAL answered without response.docs.');
  const records = response.docs.map(parseHalDoc).filter(Boolean) as NormalizedRecord[];
  return { records, total: countOf(response.numFound), received: response.docs.length, unusable: response.docs.length - records.length };
}

/** The filter query for an author: a HAL person id, an ORCID, or a name. */
export function authorFilter(raw: string): string {
  const value = raw.trim();
  if (/^\d+$/.test(value)) return `authIdPerson_i:${value}`;
  const orcid = normalizeOrcid(value);
  if (orcid && value.replace(/https?:\/\/orcid\.org\//i, '').toUpperCase() === orcid) return `authORCIDIdExt_s:"${orcid}"`;
  return `authFullName_t:"${value.replace(/"/g, '')}"`;
}

function dateFilter(from?: string, to?: string): string {
  return `producedDate_tdate:[${from ? `${from}T00:00:00Z` : '*'} TO ${to ? `${to}T23:59:59Z` : '*'}]`;
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const hal: SourceAdapter = {
  id: 'hal',
  name: 'HAL',
  homepage: 'https://hal.science/',
  status: 'active',
  description: 'The French national open archive: articles, theses, conference papers and reports from all disciplines.',
  defaultBaseUrl: 'https://api.archives-ouvertes.fr',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    orcidSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    // HAL documents no rate limit; one request a second keeps a shared public service comfortable.
    rateLimit: { requests: 1, intervalMs: 1000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE }, async (req, start, rows, http) => {
    const params = new URLSearchParams({ q: fieldSyntaxQuery(req.query, req.keywords) || '*:*', wt: 'json', fl: HAL_FIELDS, rows: String(rows), start: String(start) });
    if (req.dateFrom || req.dateTo) params.append('fq', dateFilter(req.dateFrom, req.dateTo));
    if (req.author) params.append('fq', authorFilter(req.author));
    return http.parse(PAGE, await http.get(`${req.baseUrl}/search/?${params}`));
  }),
};
