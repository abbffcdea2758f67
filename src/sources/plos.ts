/**
 * PLOS Search API (Solr, /search). Every PLOS article is open access. The
 * index also holds parts of articles (ids like "<doi>/title", "<doi>/abstract")
 * as separate documents: fq=doc_type:full asks for whole articles only, and
 * any part that still comes back is dropped locally (its article is the
 * record). Offset paging (start, rows); the window is a filter query on
 * publication_date. PLOS asks for at most 10 requests a minute (and 300 an
 * hour, 7200 a day); it locks out IP addresses that go faster.
 * https://api.plos.org/solr/faq/
 */
import { asArray, countOf, firstString, parseJsonObject } from './json-body.js';
import { author, fieldSyntaxQuery, makeRecord, markupToText, normalizeDoi, parseDate } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;
export const PLOS_FIELDS = 'id,title_display,author_display,abstract,publication_date,journal,article_type';

const TYPE: Record<string, string> = {
  'Research Article': 'article',
  Review: 'review',
  'Systematic Review': 'review',
  Correction: 'correction',
  Retraction: 'retraction',
  'Expression of Concern': 'expression-of-concern',
  Editorial: 'editorial',
  Perspective: 'perspective',
  Essay: 'essay',
  'Formal Comment': 'comment',
  'Book Review': 'book-review',
};

/** An article's own DOI, 10.1371/journal.xxxx.nnnnnnn; a part of an article has more after it. */
export function isArticleId(id: string): boolean {
  return /^10\.1371\/[^/\s]+$/i.test(id);
}

export function parsePlosDoc(doc: any): NormalizedRecord | undefined {
  const doi = normalizeDoi(firstString(doc?.id));
  const title = markupToText(firstString(doc?.title_display));
  if (!doi || !title) return undefined;
  const date = parseDate(firstString(doc.publication_date));
  const articleType = firstString(doc.article_type);
  return makeRecord({
    source: 'plos',
    nativeId: doi,
    title,
    authors: asArray<unknown>(doc.author_display)
      .filter((n): n is string => typeof n === 'string' && n.trim() !== '')
      .map((n) => author(n)),
    abstract: markupToText(firstString(doc.abstract)),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: firstString(doc.journal),
    doi,
    ids: { plos: doi },
    landingUrl: `https://doi.org/${doi}`,
    openAccess: true,
    type: articleType ? (TYPE[articleType] ?? articleType.toLowerCase()) : undefined,
  });
}

/** Parse one search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { filteredOut: number } {
  const body = parseJsonObject(text, 'PLOS');
  const response = body.response;
  if (!response || typeof response !== 'object' || !Array.isArray(response.docs)) throw new ParseError('PLOS answered without response.docs.');
  const articles = response.docs.filter((d: any) => typeof d?.id !== 'string' || isArticleId(d.id));
  const records = articles.map(parsePlosDoc).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: countOf(response.numFound),
    received: response.docs.length,
    unusable: articles.length - records.length,
    filteredOut: response.docs.length - articles.length,
  };
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const plos: SourceAdapter = {
  id: 'plos',
  name: 'PLOS',
  homepage: 'https://plos.org/',
  status: 'active',
  description: 'The Public Library of Science journals (PLOS ONE, PLOS Biology, …): full open-access articles.',
  defaultBaseUrl: 'https://api.plos.org',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    rateLimit: { requests: 10, intervalMs: 60_000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE }, async (req, start, rows, http) => {
    const params = new URLSearchParams({ q: fieldSyntaxQuery(req.query, req.keywords) || '*:*', wt: 'json', fl: PLOS_FIELDS, rows: String(rows), start: String(start) });
    params.append('fq', 'doc_type:full');
    if (req.dateFrom || req.dateTo) params.append('fq', `publication_date:[${req.dateFrom ? `${req.dateFrom}T00:00:00Z` : '*'} TO ${req.dateTo ? `${req.dateTo}T23:59:59Z` : '*'}]`);
    if (req.author) params.append('fq', `author:"${req.author.replace(/"/g, '')}"`);
    return http.parse(PAGE, await http.get(`${req.baseUrl}/search?${params}`));
  }),
};
