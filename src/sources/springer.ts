/**
 * Springer Nature Meta API v2 (/meta/v2/json), the versioned metadata API the
 * portal recommends over meta/v1 and the older /metadata collection. The key
 * travels as the api_key query parameter; the HTTP layer blanks it out of
 * traced URLs, and the answer's own "apiKey" echo is never read. The date
 * window goes into q as datefrom:/dateto: (publication date), so it is exact.
 * Basic plan: 100 calls a minute, 500 a day, at most 25 records a page.
 * https://dev.springernature.com/docs/api-endpoints/meta-api
 */
import { combinedQuery, makeRecord, markupToText, normalizeDoi, normalizeOrcid, parseDate } from './normalize.js';
import { personFromName } from './person.js';
import { ParseError, type Author, type NormalizedRecord, type ParsedPage, type SourceAdapter } from './types.js';
import { offsetPaged } from './paging.js';
import { pageParser } from './parse-page.js';

/** The Basic plan's largest page. */
const PAGE_SIZE = 25;

/** The abstract is a string in /metadata and {h1, p} in meta/v2, where p is a string or a list of paragraphs. */
function abstractText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return markupToText(raw);
  if (raw && typeof raw === 'object') {
    const p = (raw as { p?: unknown }).p;
    return markupToText(Array.isArray(p) ? p.filter((x) => typeof x === 'string').join(' ') : typeof p === 'string' ? p : undefined);
  }
  return undefined;
}

/** From the genre ("OriginalPaper", "ReviewPaper", "BookReview", "Erratum", "Comment"…), then the content type. */
function typeOf(record: any): string | undefined {
  const genre = [record.genre ?? []].flat().join(' ');
  if (/book\s*review/i.test(genre)) return 'book-review';
  if (/erratum|correction|corrigendum/i.test(genre)) return 'correction';
  if (/retraction/i.test(genre)) return 'retraction';
  if (/comment|reply|letter to the editor/i.test(genre)) return 'comment';
  if (/editorial/i.test(genre)) return 'editorial';
  if (/conference\s*abstract|meeting\s*abstract/i.test(genre)) return 'conference-abstract';
  if (/review/i.test(genre)) return 'review';
  const content = String(record.contentType ?? '');
  if (/chapter/i.test(content)) return 'book-chapter';
  if (/^book$/i.test(content)) return 'book';
  if (/article/i.test(content)) return 'article';
  return undefined;
}

export function parseSpringerRecord(record: any): NormalizedRecord | undefined {
  const title = markupToText(record?.title);
  const identifier = typeof record?.identifier === 'string' ? record.identifier : undefined;
  const doi = normalizeDoi(record?.doi ?? identifier?.replace(/^doi:/i, ''));
  const nativeId = doi ?? identifier;
  if (!title || !nativeId) return undefined;
  const urls: any[] = Array.isArray(record.url) ? record.url : [];
  const date = parseDate(record.publicationDate) ?? parseDate(record.onlineDate) ?? parseDate(record.coverDate);
  const open = String(record.openaccess ?? record.openAccess ?? '').toLowerCase();
  return makeRecord({
    source: 'springer',
    nativeId,
    title,
    authors: (record.creators ?? [])
      .map((c: any) => (c?.creator ? personFromName(String(c.creator), { orcid: normalizeOrcid(c.ORCID ?? c.orcid) }) : undefined))
      .filter(Boolean) as Author[],
    abstract: abstractText(record.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(record.publicationName),
    doi,
    ids: { springer: identifier ?? nativeId },
    landingUrl: urls.find((u) => u?.format === 'html')?.value ?? urls.find((u) => u?.value && u?.format !== 'pdf')?.value ?? (doi ? `https://doi.org/${doi}` : undefined),
    pdfUrl: urls.find((u) => u?.format === 'pdf')?.value,
    categories: [...[record.subjects ?? []].flat(), ...[record.keyword ?? []].flat()].filter((x) => typeof x === 'string'),
    openAccess: open === 'true' ? true : open === 'false' ? false : undefined,
    type: typeOf(record),
  });
}

/** Parse one /meta/v2/json answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('Springer Nature answered something that is not JSON.');
  }
  if (!body || typeof body !== 'object' || (!Array.isArray(body.records) && !body.result)) throw new ParseError('Springer Nature answered without records.');
  const items: any[] = Array.isArray(body.records) ? body.records : [];
  const records = items.map(parseSpringerRecord).filter(Boolean) as NormalizedRecord[];
  // result is a one-element list in the documented answers; numbers come as strings.
  const summary = Array.isArray(body.result) ? body.result[0] : body.result;
  const total = Number(summary?.total);
  return { records, total: Number.isFinite(total) ? total : undefined, received: items.length, unusable: items.length - records.length };
}

/** The q parameter: words, an author (name:), the publication-date window. */
export function springerQuery(req: { query: string; keywords: string[]; author?: string; dateFrom?: string; dateTo?: string }): string {
  const parts: string[] = [];
  const text = combinedQuery(req.query, req.keywords);
  if (text) parts.push(/\s/.test(text) ? `(${text})` : text);
  if (req.author) parts.push(`name:"${req.author.replace(/"/g, '')}"`);
  if (req.dateFrom) parts.push(`datefrom:${req.dateFrom}`);
  if (req.dateTo) parts.push(`dateto:${req.dateTo}`);
  return parts.join(' ');
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const springer: SourceAdapter = {
  id: 'springer',
  name: 'Springer Nature',
  homepage: 'https://link.springer.com/',
  status: 'active',
  description: 'Metadata of Springer Nature journal articles, book chapters and protocols (Springer, Nature Portfolio, BMC).',
  defaultBaseUrl: 'https://api.springernature.com',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'offset',
    credential: { name: 'springer_api_key', required: true },
    // Basic plan: 100 a minute and 500 a day; one a second stays well inside the minute budget.
    rateLimit: { requests: 1, intervalMs: 1000 },
  },
  fetchPage: offsetPaged({ pageSize: PAGE_SIZE, base: 1 }, async (req, start, size, http) => {
    const params = new URLSearchParams({ q: springerQuery(req), s: String(start), p: String(size), api_key: req.apiKey ?? '' });
    return http.parse(PAGE, await http.get(`${req.baseUrl}/meta/v2/json?${params}`, { headers: { accept: 'application/json' } }));
  }),
};
