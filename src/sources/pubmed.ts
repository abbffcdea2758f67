/**
 * PubMed through NCBI E-utilities: esearch finds one page of PMIDs (offset
 * paging with retstart/retmax, the window as mindate/maxdate on the
 * publication date), efetch returns their full records as PubMed XML.
 * A key (ncbi_api_key) is optional and raises the allowed rate from 3 to 10
 * requests per second; tool and email identify svc as NCBI asks.
 * https://www.ncbi.nlm.nih.gov/books/NBK25499/
 */
import { UpstreamError } from './http.js';
import { pageParser } from './parse-page.js';
import { nextOffset, pageSizeFor } from './paging.js';
import { perSearch } from './per-search.js';
import { parsePubmedArticleSet } from './pubmed-xml.js';
import { combinedQuery, normalizeOrcid } from './normalize.js';
import { asArray, parseXml, textOf } from './xml.js';
import { ParseError, type ParsedPage, type SearchRequest, type SourceAdapter } from './types.js';

const PAGE_SIZE = 100;
// esearch cannot page past the 10,000th result (retstart is capped at 9,998).
const ESEARCH_CEILING = 10_000;

/** The esearch term: query and keywords, an author ([Author], or an ORCID as [auid]). */
export function pubmedTerm(req: Pick<SearchRequest, 'query' | 'keywords' | 'author'>, text = combinedQuery(req.query, req.keywords)): string {
  const parts: string[] = [];
  if (text) parts.push(`(${text})`);
  if (req.author) {
    const orcid = normalizeOrcid(req.author);
    parts.push(orcid ? `${orcid}[auid]` : `"${req.author.replace(/"/g, '').trim()}"[Author]`);
  }
  // A date-only search needs a term: all[sb] is PubMed's "every record" subset.
  return parts.length ? parts.join(' AND ') : 'all[sb]';
}

/** What esearch's ErrorList and WarningList name, in PubMed's terms. */
const SEARCH_NOTES: [list: 'ErrorList' | 'WarningList', tag: string, words: string][] = [
  ['WarningList', 'QuotedPhraseNotFound', 'quoted phrase not found'],
  ['ErrorList', 'PhraseNotFound', 'phrase not found'],
  ['ErrorList', 'FieldNotFound', 'field not found'],
  ['WarningList', 'PhraseIgnored', 'phrase ignored'],
];

/**
 * PubMed's own words about the term: a quoted phrase or a phrase it does not know, a field
 * it does not have, a word it ignored; its OutputMessage only when it named nothing more
 * precise ("No items found." says less than "quoted phrase not found"). Short, one line.
 */
function searchNotice(result: any): string | undefined {
  const named = (list: any, tag: string) => asArray(list?.[tag]).map((v) => textOf(v)?.replace(/\s+/g, ' ').trim()).filter(Boolean) as string[];
  const parts = SEARCH_NOTES.flatMap(([list, tag, words]) => named(result[list], tag).map((v) => `${words}: ${v}`));
  if (parts.length === 0) parts.push(...named(result.WarningList, 'OutputMessage'));
  const text = [...new Set(parts)].join('; ');
  return !text ? undefined : text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** One esearch answer (pure): the PMIDs of this page, the total, and PubMed's notes on the term. */
export function parseSearch(body: string): { ids: string[]; count: number; error?: string; notice?: string } {
  const result = parseXml(body, ['Id', 'PhraseNotFound', 'QuotedPhraseNotFound', 'FieldNotFound', 'PhraseIgnored', 'OutputMessage'])?.eSearchResult;
  if (!result || typeof result !== 'object') throw new ParseError('PubMed esearch answered without an eSearchResult.');
  const error = textOf(result.ERROR);
  const count = Number(textOf(result.Count));
  if (error !== undefined && !Number.isFinite(count)) return { ids: [], count: 0, error };
  if (!Number.isFinite(count)) throw new ParseError('PubMed esearch answered without a Count.');
  // PhraseNotFound in ErrorList with Count 0 is an ordinary empty answer, not a failure; what
  // PubMed said about the term goes with it, so the search record says why nothing matched.
  return { ids: asArray(result.IdList?.Id).map((id) => textOf(id)!.trim()), count, notice: searchNotice(result) };
}

/** Parse one efetch answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(body: string): ParsedPage {
  return parsePubmedArticleSet(body);
}

/** Records in the order esearch listed their PMIDs; any PMID it did not list goes last, as it came. */
export function inSearchOrder<T extends { nativeId: string }>(records: T[], ids: string[]): T[] {
  const rank = new Map(ids.map((id, i) => [id, i]));
  const at = (r: T) => rank.get(r.nativeId) ?? ids.length;
  return [...records].sort((a, b) => at(a) - at(b)); // sort is stable: unlisted ones keep their order
}

/** Parameters NCBI wants on every call: the tool, a contact address, the key. */
function identify(params: URLSearchParams, req: SearchRequest): URLSearchParams {
  params.set('tool', 'svc');
  if (req.contactEmail) params.set('email', req.contactEmail);
  if (req.apiKey) params.set('api_key', req.apiKey);
  return params;
}

const eutilsDate = (date: string) => date.replace(/-/g, '/');

/** The term and whether it has words to rank by, once per search. */
const pubmedSearch = perSearch((req) => {
  const text = combinedQuery(req.query, req.keywords);
  return { term: pubmedTerm(req, text), ranked: text !== '' };
});

const SEARCH = pageParser(import.meta.url, parseSearch);
export const PAGE = pageParser(import.meta.url, parseResponse);

export const pubmed: SourceAdapter = {
  id: 'pubmed',
  name: 'PubMed',
  homepage: 'https://pubmed.ncbi.nlm.nih.gov/',
  status: 'active',
  description: 'MEDLINE and life-science journal citations from the US National Library of Medicine, with MeSH terms and retraction notices.',
  defaultBaseUrl: 'https://eutils.ncbi.nlm.nih.gov/entrez/eutils',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    orcidSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'ncbi_api_key', required: false },
    // NCBI: 3 requests per second without a key, 10 with one.
    rateLimit: { requests: 3, intervalMs: 1000 },
    rateLimitWithKey: { requests: 10, intervalMs: 1000 },
  },
  async fetchPage(req, cursor, http) {
    const start = cursor ? Number(cursor) : 0;
    const { term, ranked } = pubmedSearch(req);
    const search = new URLSearchParams({ db: 'pubmed', term, retstart: String(start), retmax: String(pageSizeFor(req, PAGE_SIZE)), retmode: 'xml' });
    // esearch lists the most recent first unless asked for relevance (Best Match, the web default);
    // with words to rank by, max_results should keep the best matches. An author or a window alone: newest first.
    if (ranked) search.set('sort', 'relevance');
    if (req.dateFrom || req.dateTo) {
      // mindate and maxdate only work as a pair; an open end is closed far away.
      search.set('datetype', 'pdat');
      search.set('mindate', eutilsDate(req.dateFrom ?? '1000-01-01'));
      search.set('maxdate', eutilsDate(req.dateTo ?? '3000-12-31'));
    }
    const found = await http.parse(SEARCH, await http.get(`${req.baseUrl}/esearch.fcgi?${identify(search, req)}`));
    if (found.error !== undefined) throw new UpstreamError(`PubMed refused the search: ${found.error}`, 200, 'ESearchError');
    if (found.ids.length === 0) return { records: [], received: 0, total: found.count, notice: found.notice };

    const fetch = identify(new URLSearchParams({ db: 'pubmed', id: found.ids.join(','), retmode: 'xml' }), req);
    const page = await http.parse(PAGE, await http.get(`${req.baseUrl}/efetch.fcgi?${fetch}`));
    // The parser reads articles and books as two lists; esearch's id order is PubMed's ranking.
    page.records = inSearchOrder(page.records, found.ids);
    // The offset moves by the ids esearch listed, not by the articles efetch gave for them.
    const next = nextOffset(start, { received: found.ids.length, total: found.count }, { ceiling: ESEARCH_CEILING });
    return { ...page, total: found.count, notice: found.notice, next };
  },
};
