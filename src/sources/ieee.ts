/**
 * IEEE Xplore Metadata API, /search/articles. The key travels as the apikey
 * query parameter (IEEE accepts it nowhere else), so the HTTP layer blanks it
 * out of every traced URL. Dates filter by whole years (start_year/end_year);
 * the driver trims to the day. Quota: 10 calls a second and 200 a day.
 * https://developer.ieee.org/docs
 */
import { combinedQuery, fromParts, makeRecord, markupToText, monthNumber, normalizeDoi } from './normalize.js';
import { personFromName } from './person.js';
import { ParseError, type Author, type DatePrecision, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

/** max_records allows 200: with 200 calls a day, large pages are the polite choice. */
const PAGE_SIZE = 200;

const CONTENT_TYPE: Record<string, string> = {
  Journals: 'article',
  Magazines: 'article',
  'Early Access Articles': 'article',
  Conferences: 'proceedings',
  Books: 'book',
  Standards: 'standard',
  Courses: 'course',
};

/**
 * IEEE writes publication_date as printed: "12 Oct. 2021", "15-17 June 2020",
 * "30 Nov.-3 Dec. 2020", "Jan.-Feb. 2021" or "2021". The first day named is
 * the one kept; the year is the first one after the first month.
 */
export function parseIeeeDate(raw: unknown, fallbackYear?: unknown): { date: string; precision: DatePrecision } | undefined {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const month = /([A-Za-z]{3,})\.?/.exec(text);
  if (month && monthNumber(month[1]!)) {
    const year = /\b(\d{4})\b/.exec(text.slice(month.index));
    const day = /^(\d{1,2})\b/.exec(text.slice(0, month.index).trim());
    const parsed = year ? fromParts(Number(year[1]), monthNumber(month[1]!), day ? Number(day[1]) : undefined) : undefined;
    if (parsed) return parsed;
  }
  const year = /\b(\d{4})\b/.exec(text);
  return fromParts(year ? Number(year[1]) : Number(fallbackYear) || undefined);
}

export function parseIeeeArticle(article: any): NormalizedRecord | undefined {
  const number = article?.article_number;
  const title = markupToText(article?.title);
  if (!number || !title) return undefined;
  const id = String(number);
  const authors = [...(article.authors?.authors ?? [])]
    .sort((a: any, b: any) => (Number(a?.author_order) || 0) - (Number(b?.author_order) || 0))
    .map((a: any) => {
      const affiliations = [a?.authorAffiliations?.authorAffiliation ?? a?.affiliation ?? []].flat().filter((x: unknown) => typeof x === 'string' && x);
      return a?.full_name ? personFromName(String(a.full_name), { affiliations: affiliations.length ? affiliations : undefined }) : undefined;
    })
    .filter(Boolean) as Author[];
  const date = parseIeeeDate(article.publication_date, article.publication_year);
  const terms = article.index_terms ?? {};
  const access = String(article.access_type ?? '');
  return makeRecord({
    source: 'ieee',
    nativeId: id,
    title,
    authors,
    abstract: markupToText(article.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(article.publication_title),
    doi: normalizeDoi(article.doi),
    ids: { ieee: id },
    landingUrl: article.html_url ?? article.abstract_url ?? `https://ieeexplore.ieee.org/document/${id}/`,
    pdfUrl: article.pdf_url,
    categories: [...(terms.ieee_terms?.terms ?? []), ...(terms.author_terms?.terms ?? [])],
    // "CCBY" names an open licence; "IEEE" is plain IEEE copyright and says nothing more.
    license: typeof article.license === 'string' && /^CC/i.test(article.license) ? article.license : undefined,
    // Documented values are OPEN_ACCESS, LOCKED and EPHEMERA; open CC-BY papers also arrive as "CCBY - …".
    openAccess: /^(OPEN_ACCESS|CC)/i.test(access) ? true : access === 'LOCKED' ? false : undefined,
    type: CONTENT_TYPE[article.content_type],
  });
}

/** Parse one /search/articles answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('IEEE Xplore answered something that is not JSON.');
  }
  if (!body || typeof body !== 'object' || (body.articles === undefined && typeof body.total_records !== 'number')) {
    throw new ParseError('IEEE Xplore answered without total_records or articles.');
  }
  // With no hits IEEE leaves out the articles list altogether.
  const articles: any[] = Array.isArray(body.articles) ? body.articles : [];
  const records = articles.map(parseIeeeArticle).filter(Boolean) as NormalizedRecord[];
  return { records, total: typeof body.total_records === 'number' ? body.total_records : undefined, received: articles.length, unusable: articles.length - records.length };
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const ieee: SourceAdapter = {
  id: 'ieee',
  name: 'IEEE Xplore',
  homepage: 'https://ieeexplore.ieee.org/',
  status: 'active',
  description: 'IEEE journals, conference proceedings, standards and books in electrical engineering, computing and electronics.',
  defaultBaseUrl: 'https://ieeexploreapi.ieee.org/api/v1',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'year',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'ieee_api_key', required: true },
    // Documented: 10 calls a second, 200 a day. We ask at half the per-second rate.
    rateLimit: { requests: 5, intervalMs: 1000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE, base: 1 }, async (req, start, size, http) => {
    const params = new URLSearchParams();
    const text = combinedQuery(req.query, req.keywords);
    if (text) params.set('querytext', text);
    if (req.author) params.set('author', req.author);
    if (req.dateFrom) params.set('start_year', req.dateFrom.slice(0, 4));
    if (req.dateTo) params.set('end_year', req.dateTo.slice(0, 4));
    params.set('start_record', String(start));
    params.set('max_records', String(size));
    params.set('format', 'json');
    params.set('apikey', req.apiKey ?? '');
    return http.parse(PAGE, await http.get(`${req.baseUrl}/search/articles?${params}`, { headers: { accept: 'application/json' } }));
  }),
};
