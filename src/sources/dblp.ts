/**
 * dblp publication search (/search/publ/api, JSON). Offset paging with h
 * (hits, ≤ 1000) and f (first hit, 0-based). dblp's only date handle is the
 * year: its index holds words like "year:2020:", which the query can require,
 * and "|" ORs words, so a window becomes "year:2019:|year:2020:"; the driver
 * then trims to the exact days. Single hits and single authors arrive as
 * objects instead of lists, and homonymous authors carry a disambiguation
 * number ("Wei Wang 0001") that is not part of the name.
 * https://dblp.org/faq/1474706.html (rate limits)
 */
import { asArray, countOf, firstString, parseJsonObject } from './json-body.js';
import { author, combinedQuery, makeRecord, markupToText, normalizeArxivId, normalizeDoi, parseDate } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;
// Beyond this many years the OR-chain stops being a useful filter; the driver filters locally instead.
const MAX_YEARS_IN_QUERY = 30;

const TYPE: Record<string, string> = {
  'Journal Articles': 'article',
  'Conference and Workshop Papers': 'proceedings',
  'Informal and Other Publications': 'preprint',
  'Informal Publications': 'preprint',
  'Books and Theses': 'book',
  'Parts in Books or Collections': 'book-chapter',
  'Reference Works': 'reference-entry',
};

/** Where code lives: a dblp artifact whose link points there is software, any other a dataset. */
const CODE_HOST = /^https?:\/\/([^/]*\.)?(github\.com|gitlab\.[a-z.]+|bitbucket\.org|softwareheritage\.org|sourceforge\.net|pypi\.org|cran\.r-project\.org|codeocean\.com)\//i;

/**
 * The type: theses are "Books and Theses" with keys under phd/ or ms/ (dblp's own key scheme);
 * "Data and Artifacts" holds datasets and software, told apart by where the record links.
 */
function typeOf(info: any, ees: string[]): string | undefined {
  if (/^(phd|ms)\//.test(info.key)) return 'thesis';
  if (typeof info.type !== 'string') return undefined;
  if (info.type === 'Data and Artifacts') return ees.some((e) => CODE_HOST.test(e) || /^swh:/i.test(e)) ? 'software' : 'dataset';
  return TYPE[info.type] ?? info.type.toLowerCase();
}

/** "Wei Wang 0001" → "Wei Wang". */
export function dblpName(raw: string): string {
  return raw.replace(/\s+\d{4}$/, '').trim();
}

export function parseDblpHit(hit: any): NormalizedRecord | undefined {
  const info = hit?.info;
  if (!info || typeof info !== 'object' || typeof info.key !== 'string') return undefined;
  // dblp ends every title with a period that is not part of it.
  const title = markupToText(firstString(info.title))?.replace(/\.$/, '');
  if (!title) return undefined;
  const ees = asArray<unknown>(info.ee).filter((e): e is string => typeof e === 'string');
  const doi = normalizeDoi(firstString(info.doi)) ?? ees.map((e) => (/doi\.org\//i.test(e) ? normalizeDoi(e) : undefined)).find(Boolean);
  const arxivEe = ees.find((e) => /arxiv\.org\/(abs|pdf)\//i.test(e));
  const arxiv = arxivEe ? normalizeArxivId(arxivEe) : undefined;
  const date = parseDate(firstString(info.year));
  const venue = asArray<unknown>(info.venue).filter((v): v is string => typeof v === 'string');
  return makeRecord({
    source: 'dblp',
    nativeId: info.key,
    title,
    authors: asArray<any>(info.authors?.author)
      .map((a) => {
        const text = typeof a === 'string' ? a : a?.text;
        return typeof text === 'string' && text.trim() ? author(dblpName(text)) : undefined;
      })
      .filter(Boolean) as NormalizedRecord['authors'],
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: venue.length ? venue.join('; ') : undefined,
    doi,
    ids: { dblp: info.key, arxiv: arxiv?.id, arxiv_version: arxiv?.version },
    landingUrl: ees[0] ?? (typeof info.url === 'string' ? info.url : undefined),
    openAccess: info.access === 'open' ? true : info.access === 'closed' ? false : undefined,
    type: typeOf(info, ees),
  });
}

/** Parse one /search/publ/api answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  const body = parseJsonObject(text, 'dblp');
  const hits = body.result?.hits;
  if (!hits || typeof hits !== 'object') throw new ParseError('dblp answered without result.hits.');
  const entries = asArray<any>(hits.hit);
  const records = entries.map(parseDblpHit).filter(Boolean) as NormalizedRecord[];
  return { records, total: countOf(hits['@total']), received: entries.length, unusable: entries.length - records.length };
}

/** "year:2019:|year:2020:" for a window, or nothing when it is open-ended or too long to spell out. */
export function yearTerms(from: string | undefined, to: string | undefined): string | undefined {
  if (!from || !to) return undefined;
  const first = Number(from.slice(0, 4));
  const last = Number(to.slice(0, 4));
  if (!Number.isInteger(first) || !Number.isInteger(last) || last < first || last - first + 1 > MAX_YEARS_IN_QUERY) return undefined;
  const years = Array.from({ length: last - first + 1 }, (_, i) => `year:${first + i}:`);
  return years.join('|');
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const dblp: SourceAdapter = {
  id: 'dblp',
  name: 'dblp',
  homepage: 'https://dblp.org/',
  status: 'active',
  description: 'The computer science bibliography: journals, proceedings and informal publications, with DOIs and venue data.',
  defaultBaseUrl: 'https://dblp.org',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'year',
    // dblp matches names only as words anywhere in the record, not as an author filter.
    authorSearch: false,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    // dblp: "You should always be fine when waiting for at least one or two seconds between two consecutive requests."
    rateLimit: { requests: 1, intervalMs: 2000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE }, async (req, offset, hits, http) => {
    const q = [combinedQuery(req.query, req.keywords), yearTerms(req.dateFrom, req.dateTo)].filter(Boolean).join(' ');
    const params = new URLSearchParams({ q, format: 'json', h: String(hits), f: String(offset), c: '0' });
    return http.parse(PAGE, await http.get(`${req.baseUrl}/search/publ/api?${params}`));
  }),
};
