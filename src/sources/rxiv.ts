/**
 * What bioRxiv and medRxiv share: the details API of api.biorxiv.org, which
 * lists every posted version in a date interval, 100 per page, offset cursor
 * in the path. It has no text search, so records are kept locally when every
 * term of the query and every keyword appears in the title or abstract
 * (case-insensitive substring). The query is split into terms on white space;
 * "quoted phrases" stay whole; AND is implied (the word itself is skipped);
 * other boolean syntax is not interpreted.
 * https://api.biorxiv.org/
 */
import { author, makeRecord, markupToText, matchesKeywords, normalizeDoi, parseDate, plainText, queryTerms } from './normalize.js';
import { ParseError, type Author, type NormalizedRecord, type ParsedPage, type SearchRequest, type SourceAdapter } from './types.js';
import { pageParser } from './parse-page.js';

export type RxivServer = 'biorxiv' | 'medrxiv';

// The API's fixed page length.
const PAGE_SIZE = 100;
// Local filtering can read many pages to find a few matches: at most 30 pages (3,000 postings) per run.
const SCAN_LIMIT_PAGES = 30;

const SITE: Record<RxivServer, string> = { biorxiv: 'https://www.biorxiv.org', medrxiv: 'https://www.medrxiv.org' };

/** "Durrieu, L.; Bush, A.; Janzen, D. L. I." → authors in order. */
export function rxivAuthors(authors: string | undefined): Author[] {
  return (authors ?? '')
    .split(';')
    .map((part) => plainText(part))
    .filter((part) => part !== undefined)
    .map((part) => {
      const comma = part.indexOf(',');
      // Without "Family, Given" it is a group ("… Consortium"): kept whole, not split into names.
      if (comma < 0) return { name: part };
      const family = part.slice(0, comma).trim();
      const given = part.slice(comma + 1).trim();
      return given ? author(`${given} ${family}`, { given, family }) : author(family, { family });
    });
}

/** The API writes a character it could not carry as an entity in brackets ("[&ge;] 140/90 mmHg"): the character. */
function rxivText(raw: unknown): string | undefined {
  return typeof raw === 'string' ? markupToText(raw.replace(/\[(&(?:#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);)\]/gi, '$1')) : undefined;
}

function parsePosting(item: any, server: RxivServer): NormalizedRecord | undefined {
  const doi = normalizeDoi(item?.doi);
  const title = rxivText(item?.title);
  if (!doi || !title) return undefined;
  const version = /^\d+$/.test(String(item.version ?? '').trim()) ? String(item.version).trim() : undefined;
  const date = parseDate(item.date);
  const published = String(item.published ?? '').trim();
  const publishedDoi = published && published.toUpperCase() !== 'NA' ? normalizeDoi(published) : undefined;
  const landing = `${SITE[server]}/content/${doi}${version ? `v${version}` : ''}`;
  return makeRecord({
    source: server,
    nativeId: doi,
    title,
    authors: rxivAuthors(item.authors),
    abstract: rxivText(item.abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: plainText(item.server) ?? (server === 'biorxiv' ? 'bioRxiv' : 'medRxiv'),
    doi,
    ids: { [server]: doi, [`${server}_version`]: version ? `v${version}` : undefined },
    landingUrl: landing,
    pdfUrl: `${landing}.full.pdf`,
    categories: [plainText(item.category)].filter((c) => c !== undefined),
    license: plainText(item.license),
    openAccess: true,
    type: 'preprint',
    relations: publishedDoi ? [{ kind: 'preprint_of', doi: publishedDoi }] : [],
  });
}

/**
 * Parse one details answer before local filtering (pure). Several versions of
 * one preprint in the same answer become one record, the latest version.
 * `total` is messages[0].total: every posting (versions included) in the interval.
 */
export function parseRxivDetails(text: string, server: RxivServer): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError(`The ${server} API answered something that is not JSON.`);
  }
  const message = Array.isArray(body?.messages) ? body.messages[0] : undefined;
  if (!message || typeof message !== 'object') throw new ParseError(`The ${server} API answered without messages.`);
  // "no posts found" comes with an empty or missing collection: an empty answer.
  if (body.collection !== undefined && !Array.isArray(body.collection)) throw new ParseError(`The ${server} API answered a collection that is not a list.`);
  const collection: unknown[] = Array.isArray(body.collection) ? body.collection : [];
  const latest = new Map<string, NormalizedRecord>();
  let unusable = 0;
  for (const item of collection) {
    const record = parsePosting(item, server);
    if (!record) {
      unusable++;
      continue;
    }
    const seen = latest.get(record.nativeId);
    if (!seen || versionOf(record, server) > versionOf(seen, server)) latest.set(record.nativeId, record);
  }
  const total = /^\d+$/.test(String(message.total ?? '')) ? Number(message.total) : undefined;
  return { records: [...latest.values()], total: total ?? (collection.length === 0 ? 0 : undefined), received: collection.length, unusable };
}

const versionOf = (record: NormalizedRecord, server: RxivServer) => Number(record.ids[`${server}_version`]?.slice(1) ?? 0);

/** Terms every kept record must contain: the query's terms and each keyword whole. */
export function rxivTerms(req: Pick<SearchRequest, 'query' | 'keywords'>): string[] {
  return [...queryTerms(req.query), ...req.keywords.map((k) => k.trim()).filter(Boolean)];
}

const DETAILS = pageParser(import.meta.url, parseRxivDetails);

export function rxivAdapter(options: { server: RxivServer; name: string; homepage: string; description: string }): SourceAdapter {
  const { server } = options;
  return {
    id: server,
    name: options.name,
    homepage: options.homepage,
    status: 'active',
    description: options.description,
    defaultBaseUrl: 'https://api.biorxiv.org',
    // bioRxiv and medRxiv are one API host: one shared rate limit.
    throttleGroup: 'api.biorxiv.org',
    capabilities: {
      keywordQuery: true,
      dateWindow: 'required',
      authorSearch: false,
      pageSize: PAGE_SIZE,
      paging: 'offset',
      rateLimit: { requests: 1, intervalMs: 1000 },
      scanLimitPages: SCAN_LIMIT_PAGES,
    },
    async fetchPage(req, cursor, http) {
      // The driver always gives both ends of the window for a 'required' source.
      const offset = cursor ? Number(cursor) : 0;
      const page = await http.parse(DETAILS, await http.get(`${req.baseUrl}/details/${server}/${req.dateFrom}/${req.dateTo}/${offset}`), server);
      const terms = rxivTerms(req);
      const kept = page.records.filter((record) => matchesKeywords(record, terms));
      // Advance by what was received, not by messages[0].count: a short answer then skips nothing.
      const nextOffset = offset + page.received;
      const more = page.received > 0 && page.total !== undefined && nextOffset < page.total;
      return { ...page, records: kept, filteredOut: page.records.length - kept.length, next: more ? String(nextOffset) : undefined };
    },
  };
}
