/**
 * OpenAlex /works: full-text search with publication-date filters and cursor
 * paging (cursor=* first, then meta.next_cursor). Since 13 February 2026 the
 * API wants a key (free; api_key query parameter): without one the daily
 * allowance is $0.01, about ten searches, "enough for quick tests, but not for
 * real work" (developers.openalex.org/api-reference/authentication), so the key
 * is required here and a run without it answers missing_key instead of failing
 * halfway through a day. mailto is still sent when a contact address is set.
 * Abstracts come as an inverted index (word → positions) and are rebuilt.
 */
import { countOf, parseJsonObject } from './json-body.js';
import { author, combinedQuery, makeRecord, markupToText, normalizeArxivId, normalizeDoi, normalizeOrcid, normalizePmcid, normalizePmid, parseDate } from './normalize.js';
import { ParseError, type NativeIds, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { pageSizeFor } from './paging.js';
import { pageParser } from './parse-page.js';

// The documented ceiling is 200; OpenAlex's own tip is per_page=100 to make a query budget go further.
const PAGE_SIZE = 100;
// A position beyond this in an inverted index is not an abstract word (guards against a huge sparse array).
const MAX_ABSTRACT_WORDS = 20_000;

/** The abstract in reading order from OpenAlex's abstract_inverted_index. */
export function abstractFromInvertedIndex(index: unknown): string | undefined {
  if (!index || typeof index !== 'object') return undefined;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index as Record<string, unknown>)) {
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (Number.isInteger(p) && p >= 0 && p < MAX_ABSTRACT_WORDS) words[p] = word;
  }
  const text = words.filter((w) => w !== undefined).join(' ');
  return markupToText(text)?.replace(/^Abstract[:.]?\s+/i, '');
}

/** "https://openalex.org/W123" → "W123" (works only: W ids). */
function workId(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /(?:^|\/)(W\d+)\s*$/i.exec(raw);
  return m ? m[1]!.toUpperCase() : undefined;
}

/** The last path segment of an identifier URL (ids.pmid, ids.pmcid). */
function lastSegment(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  return raw.replace(/\/+$/, '').split('/').pop();
}

function arxivOf(work: any, doi: string | undefined): { id: string; version?: string } | undefined {
  // arXiv's own DOIs (10.48550/arXiv.2101.00001) carry the id.
  const fromDoi = doi?.startsWith('10.48550/arxiv.') ? normalizeArxivId(doi.slice('10.48550/arxiv.'.length)) : undefined;
  if (fromDoi) return fromDoi;
  for (const location of work.locations ?? []) {
    for (const url of [location?.landing_page_url, location?.pdf_url]) {
      if (typeof url === 'string' && /arxiv\.org\/(abs|pdf)\//i.test(url)) {
        const found = normalizeArxivId(url);
        if (found) return found;
      }
    }
  }
  return undefined;
}

// OpenAlex's own type names match ours except erratum and dissertation.
const TYPE: Record<string, string> = { erratum: 'correction', dissertation: 'thesis' };

export function parseOpenAlexWork(work: any): NormalizedRecord | undefined {
  if (!work || typeof work !== 'object') return undefined;
  const openalexId = workId(work.ids?.openalex ?? work.id);
  const title = markupToText(work.display_name ?? work.title);
  if (!openalexId || !title) return undefined;
  const doi = normalizeDoi(work.doi ?? work.ids?.doi);
  const date = parseDate(work.publication_date) ?? parseDate(work.publication_year);
  const primary = work.primary_location ?? undefined;
  const bestOa = work.best_oa_location ?? undefined;
  const arxiv = arxivOf(work, doi);
  const ids: NativeIds = {
    openalex: openalexId,
    pmid: normalizePmid(lastSegment(work.ids?.pmid)),
    pmcid: normalizePmcid(lastSegment(work.ids?.pmcid)),
    arxiv: arxiv?.id,
    arxiv_version: arxiv?.version,
  };
  const topics = (work.topics ?? []).map((t: any) => t?.display_name).filter(Boolean);
  // Concepts are OpenAlex's older (deprecated) classification: used only when a work has no topics.
  const categories = topics.length ? topics : (work.concepts ?? []).map((c: any) => c?.display_name).filter(Boolean);
  return makeRecord({
    source: 'openalex',
    nativeId: openalexId,
    title,
    authors: (work.authorships ?? [])
      .map((a: any) => {
        const name = a?.author?.display_name ?? a?.raw_author_name;
        if (!name) return undefined;
        const institutions = (a.institutions ?? []).map((i: any) => i?.display_name).filter(Boolean);
        const affiliations = institutions.length ? institutions : (a.raw_affiliation_strings ?? []).filter(Boolean);
        return author(name, { orcid: normalizeOrcid(a.author?.orcid), affiliations: affiliations.length ? affiliations : undefined });
      })
      .filter(Boolean),
    abstract: abstractFromInvertedIndex(work.abstract_inverted_index),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(primary?.source?.display_name),
    doi,
    ids,
    landingUrl: primary?.landing_page_url ?? bestOa?.landing_page_url ?? (doi ? `https://doi.org/${doi}` : undefined),
    pdfUrl: bestOa?.pdf_url ?? primary?.pdf_url ?? undefined,
    categories,
    license: bestOa?.license ?? primary?.license ?? work.license ?? undefined,
    openAccess: typeof work.open_access?.is_oa === 'boolean' ? work.open_access.is_oa : undefined,
    type: typeof work.type === 'string' ? (TYPE[work.type] ?? work.type) : undefined,
    isRetracted: typeof work.is_retracted === 'boolean' ? work.is_retracted : undefined,
  });
}

/** Parse one /works answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { nextCursor?: string } {
  const body = parseJsonObject(text, 'OpenAlex');
  if (!Array.isArray(body.results) || !body.meta || typeof body.meta !== 'object') throw new ParseError('OpenAlex answered without meta and results.');
  const records = body.results.map(parseOpenAlexWork).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: countOf(body.meta.count),
    received: body.results.length,
    unusable: body.results.length - records.length,
    nextCursor: body.results.length > 0 && typeof body.meta.next_cursor === 'string' && body.meta.next_cursor ? body.meta.next_cursor : undefined,
  };
}

/** The filter for an author: an ORCID exactly, otherwise the byline as written on the works. */
function authorFilter(name: string): string {
  const orcid = normalizeOrcid(name);
  if (orcid && name.replace(/https?:\/\/orcid\.org\//i, '').trim().toUpperCase() === orcid) return `authorships.author.orcid:${orcid}`;
  // Commas and pipes are OpenAlex's filter separators; inside a name they would split the filter.
  return `raw_author_name.search:${name.replace(/[,|]/g, ' ').replace(/\s+/g, ' ').trim()}`;
}

export const PAGE = pageParser(import.meta.url, parseResponse);

export const openalex: SourceAdapter = {
  id: 'openalex',
  name: 'OpenAlex',
  homepage: 'https://openalex.org/',
  status: 'active',
  description: 'Open catalog of 250+ million scholarly works with authors, institutions, topics and open-access locations.',
  defaultBaseUrl: 'https://api.openalex.org',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    orcidSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'cursor',
    credential: { name: 'openalex_api_key', required: true },
    // OpenAlex allows 100 requests per second per key; we stay at 10, the ceiling svc sets itself.
    rateLimit: { requests: 10, intervalMs: 1000 },
  },
  async fetchPage(req, cursor, http) {
    const params = new URLSearchParams();
    const text = combinedQuery(req.query, req.keywords);
    if (text) params.set('search', text);
    const filters: string[] = [];
    if (req.dateFrom) filters.push(`from_publication_date:${req.dateFrom}`);
    if (req.dateTo) filters.push(`to_publication_date:${req.dateTo}`);
    if (req.author) filters.push(authorFilter(req.author));
    if (filters.length) params.set('filter', filters.join(','));
    params.set('per-page', String(pageSizeFor(req, PAGE_SIZE)));
    params.set('cursor', cursor ?? '*');
    if (req.apiKey) params.set('api_key', req.apiKey);
    if (req.contactEmail) params.set('mailto', req.contactEmail);
    const { nextCursor, ...page } = await http.parse(PAGE, await http.get(`${req.baseUrl}/works?${params}`));
    return { ...page, next: nextCursor };
  },
};
