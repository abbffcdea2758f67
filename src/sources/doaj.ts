/**
 * DOAJ article search. The query is an Elasticsearch query string in the
 * path (/search/articles/{query}), so spaces travel as %20, never "+". v4 is
 * the current API (since July 2024, served at both /api and /api/v4); we pin
 * /api/v4 so a future default version cannot change the answer's shape under
 * us. Page paging (page from 1, pageSize ≤ 100). DOAJ indexes the year (and
 * month) of an article, so the window is bibjson.year:[from TO to] and the
 * driver trims to the days. Everything in DOAJ is open access.
 * https://doaj.org/api/v4/docs
 */
import { asArray, countOf, parseJsonObject } from './json-body.js';
import { author, fieldSyntaxQuery, fromParts, makeRecord, markupToText, monthNumber, normalizeDoi, normalizeOrcid } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { pageSizeFor } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;

export function parseDoajArticle(item: any): NormalizedRecord | undefined {
  const bib = item?.bibjson;
  if (!bib || typeof bib !== 'object' || typeof item.id !== 'string') return undefined;
  const title = markupToText(bib.title);
  if (!title) return undefined;
  const identifiers = asArray<any>(bib.identifier);
  const doi = normalizeDoi(identifiers.find((i) => String(i?.type).toLowerCase() === 'doi')?.id);
  const date = fromParts(Number(bib.year) || undefined, monthNumber(bib.month));
  const fulltext = asArray<any>(bib.link).filter((l) => l?.type === 'fulltext' && typeof l.url === 'string');
  const pdf = fulltext.find((l) => String(l.content_type).toLowerCase() === 'pdf');
  const license = asArray<any>(bib.journal?.license)[0];
  return makeRecord({
    source: 'doaj',
    nativeId: item.id,
    title,
    authors: asArray<any>(bib.author)
      .map((a) => (typeof a?.name === 'string' && a.name.trim() ? author(a.name, { orcid: normalizeOrcid(a.orcid_id), affiliations: a.affiliation ? [a.affiliation] : undefined }) : undefined))
      .filter(Boolean) as NormalizedRecord['authors'],
    abstract: markupToText(bib.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(bib.journal?.title),
    doi,
    ids: { doaj: item.id },
    landingUrl: fulltext[0]?.url ?? `https://doaj.org/article/${item.id}`,
    pdfUrl: pdf?.url,
    categories: [...asArray<string>(bib.keywords), ...asArray<any>(bib.subject).map((s) => s?.term)].filter((c) => typeof c === 'string'),
    license: license?.type ?? license?.title,
    openAccess: true,
    type: 'article',
  });
}

/** Parse one article search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { hasNext: boolean } {
  const body = parseJsonObject(text, 'DOAJ');
  if (!Array.isArray(body.results)) throw new ParseError('DOAJ answered without results.');
  const records = body.results.map(parseDoajArticle).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: countOf(body.total),
    received: body.results.length,
    unusable: body.results.length - records.length,
    // DOAJ links the next page while there is one.
    hasNext: body.results.length > 0 && typeof body.next === 'string' && body.next !== '',
  };
}

/** The query string: the words grouped, so the window and the author apply to all of them. */
export function doajQuery(text: string, from?: string, to?: string, authorName?: string): string {
  const parts: string[] = [];
  if (text) parts.push(`(${text})`);
  if (from || to) parts.push(`bibjson.year:[${from ? from.slice(0, 4) : '*'} TO ${to ? to.slice(0, 4) : '*'}]`);
  if (authorName) parts.push(`bibjson.author.name:"${authorName.replace(/"/g, '')}"`);
  return parts.length ? parts.join(' AND ') : '*';
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const doaj: SourceAdapter = {
  id: 'doaj',
  name: 'DOAJ',
  homepage: 'https://doaj.org/',
  status: 'active',
  description: 'Directory of Open Access Journals: articles of peer-reviewed open-access journals, all free to read.',
  defaultBaseUrl: 'https://doaj.org/api/v4',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'year',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'page',
    // DOAJ throttles bursts without a figure we could confirm in its docs; clients commonly keep to 2 per second.
    rateLimit: { requests: 2, intervalMs: 1000 },
  },
  async fetchPage(req, cursor, http) {
    const page = cursor ? Number(cursor) : 1;
    const query = doajQuery(fieldSyntaxQuery(req.query, req.keywords), req.dateFrom, req.dateTo, req.author);
    const params = new URLSearchParams({ page: String(page), pageSize: String(pageSizeFor(req, PAGE_SIZE)) });
    const { hasNext, ...result } = await http.parse(PAGE, await http.get(`${req.baseUrl}/search/articles/${encodeURIComponent(query)}?${params}`));
    return { ...result, next: hasNext ? String(page + 1) : undefined };
  },
};
