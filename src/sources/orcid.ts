/**
 * ORCID public API v3.0, /{orcid}/works: the works a person's ORCID record
 * lists. It answers only for an ORCID iD (no keyword or name search), so it
 * serves routines that follow a watch profile with one; asked anything else
 * it is not asked (entity_unsupported). One answer holds every work; the
 * driver trims it to the date window and this adapter keeps the works whose
 * title has every query term and keyword. The record lists no co-authors: the
 * one author record is the person whose ORCID record lists the work, named as
 * the record names its owner. https://info.orcid.org/documentation/api-tutorials/
 */
import { asArray, parseJsonObject } from './json-body.js';
import { author, makeRecord, matchesKeywords, normalizeDoi, normalizeOrcid, fromParts, queryTerms } from './normalize.js';
import type { NormalizedRecord, ParsedPage, SourceAdapter } from './types.js';
import { pageParser } from './parse-page.js';

/** ORCID's work types (lower case, hyphenated) in the vocabulary every adapter uses (types.ts); others kept as written. */
const TYPE: Record<string, string> = {
  'journal-article': 'article',
  'conference-paper': 'proceedings',
  'book-chapter': 'book-chapter',
  book: 'book',
  'edited-book': 'book',
  preprint: 'preprint',
  'data-set': 'dataset',
  'dissertation-thesis': 'thesis',
  dissertation: 'thesis',
  report: 'report',
  review: 'review',
  'conference-poster': 'poster',
  'data-management-plan': 'report',
};

const value = (x: any): string | undefined => (typeof x?.value === 'string' && x.value.trim() ? x.value.trim() : undefined);

/** The name the record gives its owner: the source when the owner wrote it, else the asserting origin. */
function ownerName(summary: any, orcid: string): string | undefined {
  const source = summary?.source ?? {};
  if (source['source-orcid']?.path === orcid) return value(source['source-name']);
  if (source['assertion-origin-orcid']?.path === orcid) return value(source['assertion-origin-name']);
  return undefined;
}

function workRecord(group: any, orcid: string, ownerNames: Map<string, string>): NormalizedRecord | undefined {
  const summary = asArray<any>(group?.['work-summary'])[0];
  const title = value(summary?.title?.title);
  if (!summary || !title) return undefined;
  const ids = asArray<any>(summary['external-ids']?.['external-id']).filter((e) => e?.['external-id-relationship'] === 'self');
  const idOf = (type: string) => ids.find((e) => String(e['external-id-type']).toLowerCase() === type)?.['external-id-value'];
  const date = summary['publication-date'];
  const published = date ? fromParts(Number(value(date.year)), Number(value(date.month)) || undefined, Number(value(date.day)) || undefined) : undefined;
  const name = ownerNames.get(orcid) ?? `ORCID ${orcid}`;
  const doi = normalizeDoi(idOf('doi'));
  return makeRecord({
    source: 'orcid',
    nativeId: `${orcid}/${summary['put-code']}`,
    title,
    authors: [author(name, { orcid })],
    publicationDate: published?.date,
    datePrecision: published?.precision,
    venue: value(summary['journal-title']),
    doi,
    landingUrl: value(summary.url) ?? (doi ? `https://doi.org/${doi}` : undefined),
    type: typeof summary.type === 'string' ? (TYPE[summary.type.toLowerCase()] ?? summary.type.toLowerCase()) : undefined,
    ids: { ...(idOf('pmid') ? { pmid: String(idOf('pmid')) } : {}), ...(idOf('arxiv') ? { arxiv: String(idOf('arxiv')).replace(/^arxiv:/i, '') } : {}) },
  });
}

/** Parse one /works answer (pure). The owner's ORCID comes from the answer's path. */
export function parseResponse(text: string): ParsedPage {
  const body = parseJsonObject(text, 'ORCID');
  const groups = asArray<any>(body.group);
  const orcid = normalizeOrcid(typeof body.path === 'string' ? body.path : '') ?? '';
  const ownerNames = new Map<string, string>();
  for (const g of groups) {
    const name = ownerName(asArray<any>(g?.['work-summary'])[0], orcid);
    if (name && !ownerNames.has(orcid)) ownerNames.set(orcid, name);
  }
  const records = groups.map((g) => workRecord(g, orcid, ownerNames)).filter((r): r is NormalizedRecord => r !== undefined);
  return { records, total: groups.length, received: groups.length, unusable: groups.length - records.length };
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const orcid: SourceAdapter = {
  id: 'orcid',
  name: 'ORCID',
  homepage: 'https://orcid.org/',
  status: 'active',
  description: "The works a researcher's ORCID record lists (public API): asked only by routines that follow a watch profile with an ORCID iD.",
  defaultBaseUrl: 'https://pub.orcid.org/v3.0',
  capabilities: {
    keywordQuery: false,
    // No date filter upstream: the whole list comes back and the driver trims it to the day.
    dateWindow: 'year',
    authorSearch: true,
    orcidSearch: true,
    orcidOnly: true,
    pageSize: 1000,
    paging: 'none',
    // The public API allows 24 requests a second; one per run is all a routine needs.
    rateLimit: { requests: 8, intervalMs: 1000 },
  },
  async fetchPage(req, _cursor, http) {
    const id = normalizeOrcid(req.author ?? '')!;
    const page = await http.parse(PAGE, await http.get(`${req.baseUrl}/${id}/works`, { headers: { accept: 'application/json' } }));
    const terms = [...queryTerms(req.query), ...req.keywords.map((k) => k.trim()).filter(Boolean)];
    const kept = page.records.filter((r) => matchesKeywords(r, terms));
    return { ...page, records: kept, filteredOut: page.records.length - kept.length };
  },
};
