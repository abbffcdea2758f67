/**
 * CORE API v3, /search/works: open-access research aggregated from thousands
 * of repositories. A key is required (Authorization: Bearer). The date window
 * goes into the query as yearPublished bounds, so CORE answers whole years and
 * the driver trims to the day. GET needs the trailing slash: /search/works
 * answers a 301 to /search/works/.
 * https://api.core.ac.uk/docs/v3
 */
import { fieldSyntaxQuery, fromParts, makeRecord, markupToText, normalizeArxivId, normalizeDoi, normalizePmid, parseDate } from './normalize.js';
import { personFromName } from './person.js';
import { ParseError, type Author, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

/** CORE's limit is at most 100 per request. */
const PAGE_SIZE = 100;
/** Plain offset paging stops at 10,000 hits (deeper needs the scroll API, which costs more tokens). */
const MAX_OFFSET = 10_000;

/** CORE wraps some names in single quotes, as it does publishers: "'Elsevier BV'". */
function unquote(text: string | null | undefined): string | undefined {
  const clean = markupToText(text)?.replace(/^'(.*)'$/, '$1').trim();
  return clean || undefined;
}

function identifier(work: any, type: string): string | undefined {
  return (work.identifiers ?? []).find((i: any) => i?.type === type)?.identifier;
}

export function parseCoreWork(work: any): NormalizedRecord | undefined {
  const title = markupToText(work?.title);
  if (work?.id === undefined || work.id === null || !title) return undefined;
  const id = String(work.id);
  const arxiv = normalizeArxivId(work.arxivId ?? identifier(work, 'ARXIV_ID'));
  const date = parseDate(work.publishedDate) ?? fromParts(Number(work.yearPublished) || undefined);
  // CORE merges the author lists of every deposit of a work, which repeats names: keep each once.
  const names = [...new Set((work.authors ?? []).map((a: any) => String(a?.name ?? '').trim()).filter(Boolean))] as string[];
  const download = typeof work.downloadUrl === 'string' && work.downloadUrl ? work.downloadUrl : undefined;
  const links: any[] = work.links ?? [];
  return makeRecord({
    source: 'core',
    nativeId: id,
    title,
    authors: names.map((n) => personFromName(n)).filter(Boolean) as Author[],
    abstract: markupToText(work.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    // Only a journal title is a venue: the publisher ("Elsevier BV") is not, and BibTeX would print it as the journal.
    venue: unquote((work.journals ?? []).map((j: any) => j?.title).find(Boolean)),
    doi: normalizeDoi(work.doi ?? identifier(work, 'DOI')),
    ids: { core: id, arxiv: arxiv?.id, arxiv_version: arxiv?.version, pmid: normalizePmid(work.pubmedId) },
    landingUrl: links.find((l) => l?.type === 'display')?.url ?? `https://core.ac.uk/works/${id}`,
    // downloadUrl is often an arXiv abstract page rather than a file: only a real download is a PDF link.
    pdfUrl: download && (/\.pdf$/i.test(download) || /core\.ac\.uk\/download\//.test(download)) ? download : undefined,
    categories: typeof work.fieldOfStudy === 'string' ? [work.fieldOfStudy] : [],
    // CORE also lists metadata-only records; a download link is what makes one open here.
    openAccess: download ? true : undefined,
    type: work.documentType === 'thesis' ? 'thesis' : undefined,
  });
}

/** Parse one /search/works answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('CORE answered something that is not JSON.');
  }
  if (!body || !Array.isArray(body.results)) throw new ParseError('CORE answered without a results list.');
  const records = body.results.map(parseCoreWork).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: typeof body.totalHits === 'number' ? body.totalHits : undefined,
    received: body.results.length,
    unusable: body.results.length - records.length,
  };
}

/** The q parameter: the words, an author, and the year bounds, joined with AND. */
export function coreQuery(req: { query: string; keywords: string[]; author?: string; dateFrom?: string; dateTo?: string }): string {
  const parts: string[] = [];
  const text = fieldSyntaxQuery(req.query, req.keywords);
  if (text) parts.push(/\s/.test(text) ? `(${text})` : text);
  if (req.author) parts.push(`authors:"${req.author.replace(/"/g, '')}"`);
  if (req.dateFrom) parts.push(`yearPublished>=${req.dateFrom.slice(0, 4)}`);
  if (req.dateTo) parts.push(`yearPublished<=${req.dateTo.slice(0, 4)}`);
  return parts.join(' AND ');
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const core: SourceAdapter = {
  id: 'core',
  name: 'CORE',
  homepage: 'https://core.ac.uk/',
  status: 'active',
  description: 'Open-access research papers aggregated by CORE from repositories and journals worldwide.',
  defaultBaseUrl: 'https://api.core.ac.uk/v3',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'year',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'core_api_key', required: true },
    // CORE meters tokens per key: 10 a minute for academic keys (25 for personal ones); we keep the lower.
    rateLimit: { requests: 10, intervalMs: 60_000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE, ceiling: MAX_OFFSET }, async (req, offset, limit, http) => {
    const params = new URLSearchParams({ q: coreQuery(req), limit: String(limit), offset: String(offset) });
    const answer = await http.get(`${req.baseUrl}/search/works/?${params}`, { headers: { authorization: `Bearer ${req.apiKey ?? ''}`, accept: 'application/json' } });
    return http.parse(PAGE, answer);
  }),
};
