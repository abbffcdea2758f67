/**
 * NASA Astrophysics Data System, /search/query (Solr). The token travels as
 * Authorization: Bearer. ADS dates publications to the month ("2019-06-00"),
 * so the window is sent as pubdate:[YYYY-MM TO YYYY-MM]: exact at the
 * precision the data has. Quota: 5,000 queries a day.
 * https://ui.adsabs.harvard.edu/help/api/api-docs.html
 */
import { fieldSyntaxQuery, makeRecord, markupToText, normalizeArxivId, normalizeDoi, normalizeOrcid, parseDate } from './normalize.js';
import { perSearch } from './per-search.js';
import { personFromName } from './person.js';
import { ParseError, type Author, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;

/** Fields asked of every document: enough for a full record. */
export const ADS_FIELDS = 'bibcode,title,author,abstract,pubdate,doi,pub,identifier,keyword,property,orcid_pub,esources,doctype';

const DOCTYPE: Record<string, string> = {
  article: 'article', eprint: 'preprint', inproceedings: 'proceedings', inbook: 'book-chapter', book: 'book', phdthesis: 'thesis', mastersthesis: 'thesis',
  abstract: 'conference-abstract', talk: 'presentation', software: 'software', catalog: 'dataset', erratum: 'correction', bookreview: 'book-review',
  editorial: 'editorial', proceedings: 'proceedings-volume', techreport: 'report', intechreport: 'report',
};

/** ADS titles carry inline markup such as CO<SUB>2</SUB>; sub- and superscripts join their word. */
function adsText(raw: unknown): string | undefined {
  return typeof raw === 'string' ? markupToText(raw) : undefined;
}

export function parseAdsDoc(doc: any): NormalizedRecord | undefined {
  const bibcode = typeof doc?.bibcode === 'string' ? doc.bibcode : undefined;
  const title = adsText(Array.isArray(doc?.title) ? doc.title[0] : doc?.title);
  if (!bibcode || !title) return undefined;
  const orcids: unknown[] = Array.isArray(doc.orcid_pub) ? doc.orcid_pub : [];
  const authors = (Array.isArray(doc.author) ? doc.author : [])
    // orcid_pub runs parallel to author; "-" marks an author without one.
    .map((name: unknown, i: number) => (typeof name === 'string' ? personFromName(name, { orcid: normalizeOrcid(String(orcids[i] ?? '')) }) : undefined))
    .filter(Boolean) as Author[];
  const identifiers: string[] = (Array.isArray(doc.identifier) ? doc.identifier : []).filter((x: unknown) => typeof x === 'string');
  const arxiv = normalizeArxivId(identifiers.find((x) => /^arxiv:/i.test(x)));
  const date = parseDate(doc.pubdate);
  const properties: string[] = Array.isArray(doc.property) ? doc.property : [];
  const esources: string[] = Array.isArray(doc.esources) ? doc.esources : [];
  const pdfSource = ['EPRINT_PDF', 'PUB_PDF', 'ADS_PDF'].find((s) => esources.includes(s));
  const gateway = `https://ui.adsabs.harvard.edu/link_gateway/${encodeURIComponent(bibcode)}`;
  return makeRecord({
    source: 'ads',
    nativeId: bibcode,
    title,
    authors,
    abstract: adsText(doc.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: adsText(doc.pub),
    doi: normalizeDoi(Array.isArray(doc.doi) ? doc.doi[0] : doc.doi),
    ids: { ads: bibcode, arxiv: arxiv?.id, arxiv_version: arxiv?.version },
    landingUrl: `https://ui.adsabs.harvard.edu/abs/${encodeURIComponent(bibcode)}/abstract`,
    pdfUrl: pdfSource ? `${gateway}/${pdfSource}` : undefined,
    categories: (Array.isArray(doc.keyword) ? doc.keyword : []).filter((k: unknown) => typeof k === 'string'),
    openAccess: properties.length ? properties.includes('OPENACCESS') : undefined,
    type: DOCTYPE[doc.doctype],
  });
}

/** Parse one /search/query answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('ADS answered something that is not JSON.');
  }
  const response = body?.response;
  if (!response || !Array.isArray(response.docs)) throw new ParseError('ADS answered without response.docs.');
  const records = response.docs.map(parseAdsDoc).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: typeof response.numFound === 'number' ? response.numFound : undefined,
    received: response.docs.length,
    unusable: response.docs.length - records.length,
  };
}

/** The q parameter: words, author:"…", pubdate:[from TO to] at month precision. */
export function adsQuery(req: { query: string; keywords: string[]; author?: string; dateFrom?: string; dateTo?: string }, text = fieldSyntaxQuery(req.query, req.keywords)): string {
  const parts: string[] = [];
  if (text) parts.push(/\s/.test(text) ? `(${text})` : text);
  if (req.author) parts.push(`author:"${req.author.replace(/"/g, '')}"`);
  if (req.dateFrom || req.dateTo) parts.push(`pubdate:[${req.dateFrom?.slice(0, 7) ?? '*'} TO ${req.dateTo?.slice(0, 7) ?? '*'}]`);
  return parts.join(' AND ') || '*:*';
}

/** q and sort, once per search. */
const adsSearch = perSearch((req) => {
  const text = fieldSyntaxQuery(req.query, req.keywords);
  // ADS ranks by its relevance score ("score desc", its documented default); newest first only
  // when there are no words to rank by. "date desc" with max_results kept the newest matches, not the best.
  return { q: adsQuery(req, text), sort: text ? 'score desc' : 'date desc' };
});

const PAGE = pageParser(import.meta.url, parseResponse);

export const ads: SourceAdapter = {
  id: 'ads',
  name: 'NASA ADS',
  homepage: 'https://ui.adsabs.harvard.edu/',
  status: 'active',
  description: 'The NASA Astrophysics Data System: astronomy, astrophysics and physics literature with arXiv preprints.',
  defaultBaseUrl: 'https://api.adsabs.harvard.edu/v1',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'ads_api_key', required: true },
    // 5,000 queries a day per token; one a second keeps a long sweep well inside it.
    rateLimit: { requests: 1, intervalMs: 1000 },
  },
  // We always ask for bibcode and title; a page where none came back will not improve further on.
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE, endsWithoutRecords: true }, async (req, start, rows, http) => {
    const { q, sort } = adsSearch(req);
    const params = new URLSearchParams({ q, fl: ADS_FIELDS, rows: String(rows), start: String(start), sort });
    const answer = await http.get(`${req.baseUrl}/search/query?${params}`, { headers: { authorization: `Bearer ${req.apiKey ?? ''}`, accept: 'application/json' } });
    return http.parse(PAGE, answer);
  }),
};
