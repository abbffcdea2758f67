/**
 * Semantic Scholar Academic Graph, relevance search (/paper/search). Offset
 * paging, at most 100 per request, and the API serves only the first 1,000
 * results of a query (offset + limit ≤ 1000). The date window is
 * publicationDateOrYear=from:to, which filters to the day (papers known only by
 * year count as 1 January). A key is optional (x-api-key header); without one
 * requests share a global pool and 429s are common, which the HTTP layer retries
 * honouring Retry-After. The query is plain text: the API documents that a
 * hyphenated term matches nothing ("replace it with space"), so hyphens
 * between letters or digits are sent as spaces ("COVID-19" → "COVID 19").
 * https://api.semanticscholar.org/api-docs/graph
 */
import { countOf, parseJsonObject } from './json-body.js';
import { author, combinedQuery, makeRecord, markupToText, normalizeArxivId, normalizeDoi, normalizePmcid, normalizePmid, parseDate } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;
const RESULT_CEILING = 1000;
const FIELDS = 'paperId,corpusId,externalIds,url,title,abstract,venue,publicationVenue,year,publicationDate,journal,authors,isOpenAccess,openAccessPdf,fieldsOfStudy,s2FieldsOfStudy,publicationTypes';

const TYPE: Record<string, string> = {
  JournalArticle: 'article',
  Conference: 'proceedings',
  Review: 'review',
  Book: 'book',
  BookSection: 'book-chapter',
  Dataset: 'dataset',
  Editorial: 'editorial',
  LettersAndComments: 'letter',
  CaseReport: 'case-report',
  ClinicalTrial: 'clinical-trial',
  MetaAnalysis: 'review',
  News: 'news',
  Study: 'article',
};

/** The text sent as `query`: query and keywords, hyphens inside words (any dash) as spaces. */
export function semanticScholarQuery(query: string, keywords: string[]): string {
  return combinedQuery(query, keywords)
    .replace(/(?<=[\p{L}\p{N}])[-\u2010\u2011\u2012\u2013](?=[\p{L}\p{N}])/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function parseSemanticScholarPaper(paper: any): NormalizedRecord | undefined {
  if (!paper || typeof paper !== 'object' || typeof paper.paperId !== 'string') return undefined;
  const title = markupToText(paper.title);
  if (!title) return undefined;
  const ext = paper.externalIds ?? {};
  const doi = normalizeDoi(ext.DOI);
  const arxiv = normalizeArxivId(ext.ArXiv);
  const date = parseDate(paper.publicationDate) ?? parseDate(paper.year);
  const corpusId = paper.corpusId ?? ext.CorpusId;
  const types: string[] = Array.isArray(paper.publicationTypes) ? paper.publicationTypes : [];
  const pdf = typeof paper.openAccessPdf?.url === 'string' && paper.openAccessPdf.url.trim() ? paper.openAccessPdf.url.trim() : undefined;
  return makeRecord({
    source: 'semanticscholar',
    nativeId: paper.paperId,
    title,
    authors: (paper.authors ?? []).map((a: any) => (a?.name ? author(a.name) : undefined)).filter(Boolean),
    abstract: markupToText(paper.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(paper.venue) ?? markupToText(paper.journal?.name) ?? markupToText(paper.publicationVenue?.name),
    doi,
    ids: {
      s2: paper.paperId,
      s2_corpus: corpusId !== undefined && corpusId !== null ? String(corpusId) : undefined,
      arxiv: arxiv?.id,
      arxiv_version: arxiv?.version,
      pmid: normalizePmid(ext.PubMed),
      pmcid: normalizePmcid(ext.PubMedCentral),
      dblp: typeof ext.DBLP === 'string' ? ext.DBLP : undefined,
    },
    landingUrl: typeof paper.url === 'string' ? paper.url : undefined,
    pdfUrl: pdf,
    categories: [...(paper.fieldsOfStudy ?? []), ...(paper.s2FieldsOfStudy ?? []).map((f: any) => f?.category)].filter((c) => typeof c === 'string'),
    license: typeof paper.openAccessPdf?.license === 'string' ? paper.openAccessPdf.license : undefined,
    openAccess: typeof paper.isOpenAccess === 'boolean' ? paper.isOpenAccess : undefined,
    type: types.map((t) => TYPE[t]).find(Boolean) ?? (types[0] ? types[0].toLowerCase() : undefined),
  });
}

/**
 * Parse one /paper/search answer (pure: used by fetchPage, tests and the parse benchmark).
 * An answer with a total and no `data` at all is how the API says "nothing found".
 */
export function parseResponse(text: string): ParsedPage & { nextOffset?: number } {
  const body = parseJsonObject(text, 'Semantic Scholar');
  const total = countOf(body.total);
  if (body.data === undefined) {
    if (total === undefined) throw new ParseError('Semantic Scholar answered without data and without a total.');
    return { records: [], total, received: 0, unusable: 0 };
  }
  if (!Array.isArray(body.data)) throw new ParseError('Semantic Scholar answered data that is not a list.');
  const records = body.data.map(parseSemanticScholarPaper).filter(Boolean) as NormalizedRecord[];
  const next = countOf(body.next);
  return {
    records,
    total,
    received: body.data.length,
    unusable: body.data.length - records.length,
    nextOffset: body.data.length > 0 && next !== undefined && next < RESULT_CEILING ? next : undefined,
  };
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const semanticscholar: SourceAdapter = {
  id: 'semanticscholar',
  name: 'Semantic Scholar',
  homepage: 'https://www.semanticscholar.org/',
  status: 'active',
  description: 'AI2’s scholarly graph of 200+ million papers across all fields, with abstracts, open-access PDFs and external ids.',
  defaultBaseUrl: 'https://api.semanticscholar.org/graph/v1',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    // /paper/search has no author filter (authors are a separate endpoint).
    authorSearch: false,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'semanticscholar_api_key', required: false },
    // One request per second is the documented introductory rate of a key; the keyless pool is shared and slower still.
    rateLimit: { requests: 1, intervalMs: 1000 },
  },
  async fetchPage(req, cursor, http) {
    const offset = cursor ? Number(cursor) : 0;
    const params = new URLSearchParams();
    params.set('query', semanticScholarQuery(req.query, req.keywords));
    params.set('offset', String(offset));
    params.set('limit', String(Math.max(1, Math.min(PAGE_SIZE, req.maxResults, RESULT_CEILING - offset))));
    params.set('fields', FIELDS);
    if (req.dateFrom || req.dateTo) params.set('publicationDateOrYear', `${req.dateFrom ?? ''}:${req.dateTo ?? ''}`);
    const headers: Record<string, string> = req.apiKey ? { 'x-api-key': req.apiKey } : {};
    const { nextOffset, ...page } = await http.parse(PAGE, await http.get(`${req.baseUrl}/paper/search?${params}`, { headers }));
    return { ...page, next: nextOffset !== undefined && nextOffset > offset ? String(nextOffset) : undefined };
  },
};
