/**
 * Elsevier Scopus Search API, /content/search/scopus, STANDARD view. The key
 * travels in the X-ELS-APIKey header. Dates filter by whole years (the date
 * parameter, or PUBYEAR bounds when one end is open); the driver trims to the
 * day. STANDARD names only the first author (dc:creator): records carry that
 * one author. No hits is an entry holding {"error": "Result set was empty"},
 * which is an empty answer, not an error.
 * https://dev.elsevier.com/documentation/ScopusSearchAPI.wadl
 */
import { combinedQuery, makeRecord, markupToText, monthNumber, normalizeDoi, normalizePmid, parseDate } from './normalize.js';
import { personFromInitialsLast } from './person.js';
import { ParseError, type DatePrecision, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

/** STANDARD allows larger pages, but 25 is the count every view accepts. */
const PAGE_SIZE = 25;
/** Offset paging (start) ends at 5,000 results; deeper needs the cursor. */
const MAX_START = 5000;

/** Scopus document subtypes → normalized types. tb ("Retracted") marks a retracted article. */
const SUBTYPE: Record<string, string> = {
  ar: 'article',
  re: 'review',
  cp: 'proceedings',
  cr: 'proceedings',
  ch: 'book-chapter',
  bk: 'book',
  le: 'letter',
  ed: 'editorial',
  no: 'note',
  sh: 'review',
  er: 'correction',
  // A data paper is an article describing a dataset, not the dataset.
  dp: 'data-paper',
  ab: 'conference-abstract',
  tb: 'article',
};

/**
 * prism:coverDate is always a day, filled in when the issue has none ("December 2021" is
 * coverDate 2021-12-01): prism:coverDisplayDate, as printed on the issue, says how precise it is.
 * A display that does not begin with a day ("December 2021", "2021", "Winter 2021", "1-15 May
 * 2021") keeps only the month it names, or the year.
 */
function coverDate(entry: any): { date: string; precision: DatePrecision } | undefined {
  const date = parseDate(entry['prism:coverDate']);
  const shown = typeof entry['prism:coverDisplayDate'] === 'string' ? entry['prism:coverDisplayDate'].trim() : '';
  if (!date || date.precision !== 'day' || !shown || /^\d{1,2}\s+[A-Za-z]/.test(shown)) return date;
  const month = /^(?:\d{1,2}\s*-\s*\d{1,2}\s+)?([A-Za-z]{3})[a-z]*\.?\s+\d{4}$/.exec(shown);
  const monthOk = month && monthNumber(month[1]) === Number(date.date.slice(5, 7));
  return monthOk ? { date: date.date.slice(0, 7), precision: 'month' } : { date: date.date.slice(0, 4), precision: 'year' };
}

export function parseScopusEntry(entry: any): NormalizedRecord | undefined {
  const scopusId = /^SCOPUS_ID:(\d+)$/.exec(String(entry?.['dc:identifier'] ?? ''))?.[1];
  const title = markupToText(entry?.['dc:title']);
  if (!scopusId || !title) return undefined;
  const creator = typeof entry['dc:creator'] === 'string' ? personFromInitialsLast(entry['dc:creator']) : undefined;
  const date = coverDate(entry);
  const links: any[] = Array.isArray(entry.link) ? entry.link : [];
  const flag = entry.openaccessFlag;
  return makeRecord({
    source: 'scopus',
    nativeId: scopusId,
    title,
    authors: creator ? [creator] : [],
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(entry['prism:publicationName']),
    doi: normalizeDoi(entry['prism:doi']),
    ids: { scopus: scopusId, pmid: normalizePmid(entry['pubmed-id']) },
    landingUrl: links.find((l) => l?.['@ref'] === 'scopus')?.['@href'],
    categories: [],
    openAccess: typeof flag === 'boolean' ? flag : entry.openaccess === '1' ? true : entry.openaccess === '0' ? false : undefined,
    type: SUBTYPE[entry.subtype],
    isRetracted: entry.subtype === 'tb' || undefined,
  });
}

/** Parse one search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('Scopus answered something that is not JSON.');
  }
  const results = body?.['search-results'];
  if (!results || typeof results !== 'object') throw new ParseError('Scopus answered without search-results.');
  const entries: any[] = Array.isArray(results.entry) ? results.entry.filter((e: any) => !(e && typeof e.error === 'string')) : [];
  const records = entries.map(parseScopusEntry).filter(Boolean) as NormalizedRecord[];
  const total = Number(results['opensearch:totalResults']);
  return {
    records,
    total: Number.isFinite(total) ? total : undefined,
    received: entries.length,
    unusable: entries.length - records.length,
  };
}

/** The query: TITLE-ABS-KEY(words), AUTH(author), PUBYEAR for an open-ended window. */
export function scopusQuery(req: { query: string; keywords: string[]; author?: string; dateFrom?: string; dateTo?: string }): { query: string; date?: string } {
  const parts: string[] = [];
  const text = combinedQuery(req.query, req.keywords);
  if (text) parts.push(`TITLE-ABS-KEY(${text})`);
  if (req.author) parts.push(`AUTH(${req.author.replace(/[()]/g, ' ').trim()})`);
  const from = req.dateFrom?.slice(0, 4);
  const to = req.dateTo?.slice(0, 4);
  // The date parameter takes a closed year range; an open end goes into the query instead.
  if (from && !to) parts.push(`PUBYEAR > ${Number(from) - 1}`);
  if (to && !from) parts.push(`PUBYEAR < ${Number(to) + 1}`);
  return { query: parts.join(' AND '), date: from && to ? (from === to ? from : `${from}-${to}`) : undefined };
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const scopus: SourceAdapter = {
  id: 'scopus',
  name: 'Scopus',
  homepage: 'https://www.scopus.com/',
  status: 'active',
  description: "Elsevier's abstract and citation database of peer-reviewed literature across all disciplines.",
  defaultBaseUrl: 'https://api.elsevier.com',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'year',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'scopus_api_key', required: true },
    // Elsevier allows 9 a second for Scopus Search; we stay at 2.
    rateLimit: { requests: 2, intervalMs: 1000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE, ceiling: MAX_START }, async (req, start, count, http) => {
    const { query, date } = scopusQuery(req);
    const params = new URLSearchParams({ query, start: String(start), count: String(count), view: 'STANDARD' });
    if (date) params.set('date', date);
    const answer = await http.get(`${req.baseUrl}/content/search/scopus?${params}`, { headers: { 'x-els-apikey': req.apiKey ?? '', accept: 'application/json' } });
    return http.parse(PAGE, answer);
  }),
};
