/**
 * Zenodo records search (/api/records). The query is Elasticsearch query
 * string syntax, so the date window goes into it as
 * publication_date:[from TO to]; page paging (page from 1). Sort is bestmatch
 * for words and mostrecent for a window alone (the two documented values).
 * Guests may make 60 requests a minute and 2000 an hour.
 * Descriptions are HTML; creators are "Family, Given" with an ORCID.
 * https://developers.zenodo.org/#list36 and #rate-limiting
 */
import { asArray, countOf, firstString, parseJsonObject } from './json-body.js';
import { author, fieldSyntaxQuery, makeRecord, markupToText, normalizeArxivId, normalizeDoi, normalizeOrcid, parseDate } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type Relation, type SourceAdapter } from './types.js';
import { pageSizeFor } from './paging.js';
import { pageParser } from './parse-page.js';

// 25 is the guest page size seen working in recorded answers (January 2026); larger guest pages are not documented.
const PAGE_SIZE = 25;

const PUBLICATION_TYPE: Record<string, string> = {
  article: 'article',
  preprint: 'preprint',
  conferencepaper: 'proceedings',
  book: 'book',
  section: 'book-chapter',
  report: 'report',
  thesis: 'thesis',
  workingpaper: 'preprint',
  peerreview: 'peer-review',
  softwaredocumentation: 'report',
};

const RELATION: Record<string, Relation['kind']> = {
  isPreprintOf: 'preprint_of',
  hasPreprint: 'has_preprint',
  isVersionOf: 'version_of',
  hasVersion: 'has_version',
};

/**
 * The resource type: dataset, software, poster, presentation, image, video, lesson, workflow… as
 * Zenodo names them, a publication by its subtype. The legacy API gives {type, subtype}; the
 * current one (InvenioRDM) an id such as "publication-article", "dataset" or "image-figure".
 */
function typeOf(resource: any): string | undefined {
  const [type, subtype] = typeof resource?.type === 'string' ? [resource.type, resource.subtype] : typeof resource?.id === 'string' ? resource.id.split('-') : [];
  if (typeof type !== 'string') return undefined;
  if (type !== 'publication') return type;
  return PUBLICATION_TYPE[subtype] ?? (typeof subtype === 'string' ? subtype : 'publication');
}

function relationsOf(related: unknown): Relation[] {
  const out: Relation[] = [];
  for (const r of asArray<any>(related)) {
    const kind = RELATION[r?.relation];
    if (!kind || typeof r.identifier !== 'string') continue;
    if (r.scheme === 'doi') out.push({ kind, doi: normalizeDoi(r.identifier) });
    else if (r.scheme === 'arxiv') out.push({ kind, arxiv: normalizeArxivId(r.identifier)?.id });
    else if (r.scheme === 'url') out.push({ kind, url: r.identifier });
  }
  return out.filter((r) => r.doi || r.arxiv || r.url);
}

export function parseZenodoRecord(hit: any): NormalizedRecord | undefined {
  const md = hit?.metadata;
  const id = hit?.id ?? hit?.recid;
  if (!md || typeof md !== 'object' || (typeof id !== 'number' && typeof id !== 'string')) return undefined;
  const title = markupToText(md.title ?? hit.title);
  if (!title) return undefined;
  const doi = normalizeDoi(hit.doi ?? md.doi);
  const date = parseDate(md.publication_date);
  const pdf = asArray<any>(hit.files).find((f) => typeof f?.key === 'string' && /\.pdf$/i.test(f.key));
  const license = typeof md.license === 'string' ? md.license : md.license?.id;
  return makeRecord({
    source: 'zenodo',
    nativeId: String(id),
    title,
    authors: asArray<any>(md.creators)
      .map((c) => (typeof c?.name === 'string' && c.name.trim() ? author(c.name, { orcid: normalizeOrcid(c.orcid), affiliations: c.affiliation ? [c.affiliation] : undefined }) : undefined))
      .filter(Boolean) as NormalizedRecord['authors'],
    abstract: markupToText(md.description),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(md.journal?.title) ?? markupToText(md.meeting?.title),
    doi,
    ids: { zenodo: String(id) },
    landingUrl: firstString(hit.links?.self_html) ?? firstString(hit.links?.html) ?? `https://zenodo.org/records/${id}`,
    pdfUrl: firstString(pdf?.links?.self),
    categories: asArray<unknown>(md.keywords).filter((k): k is string => typeof k === 'string'),
    license,
    openAccess: typeof md.access_right === 'string' ? md.access_right === 'open' : undefined,
    type: typeOf(md.resource_type),
    relations: relationsOf(md.related_identifiers),
  });
}

/** Parse one records search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { hasNext: boolean } {
  const body = parseJsonObject(text, 'Zenodo');
  const hits = body.hits;
  if (!hits || typeof hits !== 'object' || !Array.isArray(hits.hits)) throw new ParseError('Zenodo answered without hits.hits.');
  const records = hits.hits.map(parseZenodoRecord).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: countOf(hits.total),
    received: hits.hits.length,
    unusable: hits.hits.length - records.length,
    hasNext: hits.hits.length > 0 && typeof body.links?.next === 'string',
  };
}

/** The words grouped, then the window as a range on publication_date. */
export function zenodoQuery(text: string, from?: string, to?: string): string {
  const parts: string[] = [];
  if (text) parts.push(`(${text})`);
  if (from || to) parts.push(`publication_date:[${from ?? '*'} TO ${to ?? '*'}]`);
  return parts.join(' AND ');
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const zenodo: SourceAdapter = {
  id: 'zenodo',
  name: 'Zenodo',
  homepage: 'https://zenodo.org/',
  status: 'active',
  description: 'CERN’s open repository: papers, preprints, reports, datasets and software, each with a DOI.',
  defaultBaseUrl: 'https://zenodo.org/api',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: false,
    pageSize: PAGE_SIZE,
    paging: 'page',
    // Guests: 60 per minute and 2000 per hour; the hourly limit is the binding one (one request every 1.8 s).
    rateLimit: { requests: 2000, intervalMs: 3_600_000 },
  },
  async fetchPage(req, cursor, http) {
    const page = cursor ? Number(cursor) : 1;
    const text = fieldSyntaxQuery(req.query, req.keywords);
    const params = new URLSearchParams({
      q: zenodoQuery(text, req.dateFrom, req.dateTo),
      size: String(pageSizeFor(req, PAGE_SIZE)),
      page: String(page),
      sort: text ? 'bestmatch' : 'mostrecent',
    });
    const { hasNext, ...result } = await http.parse(PAGE, await http.get(`${req.baseUrl}/records?${params}`));
    return { ...result, next: hasNext ? String(page + 1) : undefined };
  },
};
