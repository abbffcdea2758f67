/**
 * arXiv API, /query (Atom 1.0). Offset paging with start/max_results, the date
 * window as submittedDate:[… TO …] inside search_query, authors through au:.
 * Reads both the 2026 feed layout and the older one (namespaces declared on
 * each element, unversioned <id>, DOI only as <link title="doi">): elements
 * are found by local name, whatever prefix or namespace declaration they carry.
 * Errors come back as a feed whose single entry is the message (HTTP 400).
 * https://info.arxiv.org/help/api/user-manual.html
 */
import { UpstreamError, type SourceHttp } from './http.js';
import { asArray, parseXml, textOf } from './xml.js';
import { author, makeRecord, markupToText, normalizeArxivId, normalizeDoi, parseDate, plainText, queryTerms } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type SearchRequest, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

// arXiv allows 2000 per call; 100 keeps each answer small, as the manual asks.
const PAGE_SIZE = 100;

/** Field prefixes and operators of arXiv's own query syntax: such a query is sent as written. */
const ARXIV_SYNTAX = /\b(?:ti|au|abs|co|jr|cat|rn|id|all|submittedDate):|\b(?:AND|OR|ANDNOT)\b/;

/** A child element by local name, whatever prefix the feed gave it (arxiv:, opensearch:, atom: or none). */
function child(node: any, localName: string): any {
  if (!node || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@_')) continue;
    if (key === localName || key.endsWith(`:${localName}`)) return value;
  }
  return undefined;
}

// title and summary are kept as raw XML (stop nodes); other elements come decoded by the parser.
const text = (node: unknown) => markupToText(textOf(node));
const plain = (node: unknown) => plainText(textOf(node));
const quoted = (term: string) => (/[\s:]/.test(term) ? `"${term.replace(/"/g, '')}"` : term);
const compactDate = (date: string) => date.replace(/-/g, '');

/** search_query: the query's terms and the keywords as all: terms, AND-ed with author and window. */
export function arxivSearchQuery(req: Pick<SearchRequest, 'query' | 'keywords' | 'author' | 'dateFrom' | 'dateTo'>): string {
  const clauses: string[] = [];
  const seen = new Set<string>();
  const addTerm = (term: string) => {
    const key = term.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    clauses.push(`all:${quoted(term)}`);
  };
  const query = req.query.trim();
  if (query && ARXIV_SYNTAX.test(query)) clauses.push(`(${query})`);
  else queryTerms(query).forEach(addTerm);
  for (const keyword of req.keywords) if (keyword.trim()) addTerm(keyword.trim());
  if (req.author) clauses.push(`au:${quoted(req.author.trim())}`);
  if (req.dateFrom || req.dateTo) {
    // arXiv began in 1991; an open end is closed far in the future.
    const from = req.dateFrom ? `${compactDate(req.dateFrom)}0000` : '199101010000';
    const to = req.dateTo ? `${compactDate(req.dateTo)}2359` : '999912312359';
    clauses.push(`submittedDate:[${from} TO ${to}]`);
  }
  return clauses.join(' AND ');
}

function parseEntry(entry: any): NormalizedRecord | undefined {
  const links = asArray<any>(child(entry, 'link'));
  const abs = links.find((l) => l['@_rel'] === 'alternate')?.['@_href'];
  const pdf = links.find((l) => l['@_title'] === 'pdf' || l['@_type'] === 'application/pdf')?.['@_href'];
  const doiLink = links.find((l) => l['@_title'] === 'doi')?.['@_href'];
  // The older layout gives an unversioned <id>; the version is then only in the links.
  const fromId = normalizeArxivId(textOf(child(entry, 'id')));
  const fromLink = normalizeArxivId(abs);
  const arxiv = fromId ?? fromLink;
  const title = text(child(entry, 'title'));
  if (!arxiv || !title) return undefined;
  const version = fromId?.version ?? fromLink?.version;
  const published = parseDate(textOf(child(entry, 'published')));
  const primary = child(entry, 'primary_category')?.['@_term'];
  const doi = normalizeDoi(textOf(child(entry, 'doi'))?.trim().split(/\s+/)[0]) ?? normalizeDoi(doiLink);
  return makeRecord({
    source: 'arxiv',
    nativeId: arxiv.id,
    title,
    authors: asArray<any>(child(entry, 'author'))
      .map((a) => {
        const name = plain(child(a, 'name'));
        if (!name) return undefined;
        const affiliations = asArray(child(a, 'affiliation')).map(plain).filter(Boolean) as string[];
        return author(name, { affiliations: affiliations.length ? affiliations : undefined });
      })
      .filter((a) => a !== undefined),
    abstract: text(child(entry, 'summary')),
    publicationDate: published?.date,
    datePrecision: published?.precision,
    venue: plain(child(entry, 'journal_ref')),
    doi,
    ids: { arxiv: arxiv.id, arxiv_version: version },
    landingUrl: abs ?? `https://arxiv.org/abs/${arxiv.id}${version ?? ''}`,
    pdfUrl: pdf,
    categories: [primary, ...asArray<any>(child(entry, 'category')).map((c) => c['@_term'])],
    openAccess: true,
    type: 'preprint',
  });
}

/** Parse one /query answer (pure). An error feed gives `error` with arXiv's message and no records. */
export function parseResponse(body: string): ParsedPage & { error?: string } {
  const doc = parseXml(body, [], ['*.title', '*.summary']);
  const feed = child(doc, 'feed');
  if (!feed || typeof feed !== 'object') throw new ParseError('arXiv answered XML that is not an Atom feed.');
  const entries = asArray<any>(child(feed, 'entry'));
  const errorEntry = entries.find((e) => /\/api\/errors/.test(textOf(child(e, 'id')) ?? ''));
  if (errorEntry) return { records: [], received: 0, error: text(child(errorEntry, 'summary')) ?? 'unspecified error' };
  const totalText = textOf(child(feed, 'totalResults'))?.trim();
  const records = entries.map(parseEntry).filter((r) => r !== undefined);
  return {
    records,
    total: totalText && /^\d+$/.test(totalText) ? Number(totalText) : undefined,
    received: entries.length,
    unusable: entries.length - records.length,
  };
}

export const PAGE = pageParser(import.meta.url, parseResponse);

// How often a page that should have entries is asked before the search says arXiv failed (arxiv.py asks 3 times too).
const EMPTY_PAGE_ATTEMPTS = 3;

async function arxivPage(req: SearchRequest, start: number, size: number, http: SourceHttp): Promise<ParsedPage> {
  const params = new URLSearchParams({
    search_query: arxivSearchQuery(req),
    start: String(start),
    max_results: String(size),
    sortBy: 'relevance',
    sortOrder: 'descending',
  });
  // A 400 carries arXiv's reason as an Atom error feed: read it for the message.
  const answer = await http.get(`${req.baseUrl}/query?${params}`, { acceptStatus: [400] });
  let page: ReturnType<typeof parseResponse>;
  try {
    page = await http.parse(PAGE, answer);
  } catch (err) {
    if (answer.status === 400) throw new UpstreamError('HTTP 400', 400, 'HTTPStatusError');
    throw err;
  }
  if (page.error !== undefined || answer.status === 400) {
    const status = answer.status;
    throw new UpstreamError(`arXiv refused the query (HTTP ${status}): ${page.error ?? 'no reason given'}`, status, status === 400 ? 'HTTPStatusError' : 'ArxivErrorFeed');
  }
  return page;
}

export const arxiv: SourceAdapter = {
  id: 'arxiv',
  name: 'arXiv',
  homepage: 'https://arxiv.org/',
  status: 'active',
  description: 'Open-access preprints in physics, mathematics, computer science, quantitative biology and finance, statistics, economics.',
  defaultBaseUrl: 'https://export.arxiv.org/api',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    // The API manual asks for no more than one request every three seconds.
    rateLimit: { requests: 1, intervalMs: 3000 },
  },
  // arXiv sometimes answers a valid feed with no entries although its own total says entries
  // remain at this start (a known fault of the API; clients ask again). Taken at its word it would
  // end paging silently, or make a whole search answered_empty: ask again, then say it failed.
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE }, async (req, start, size, http) => {
    for (let attempt = 1; ; attempt++) {
      const page = await arxivPage(req, start, size, http);
      if (page.received > 0 || page.total === undefined || start >= page.total) return page;
      if (attempt >= EMPTY_PAGE_ATTEMPTS) {
        throw new UpstreamError(`arXiv answered ${EMPTY_PAGE_ATTEMPTS} times with no entries at start ${start} although it reports ${page.total} results`, 200, 'ArxivEmptyPage');
      }
    }
  }),
};
