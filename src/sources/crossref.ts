/**
 * Crossref REST API, /works. Cursor paging (deep paging without the 10,000
 * offset ceiling), filter on publication dates, the polite pool via mailto.
 * Gives relations: has-preprint / is-preprint-of, and update notices
 * (retractions, corrections) through updated-by and update-to. Titles and
 * abstracts carry HTML and JATS (<jats:sub>, <scp>, MathML): inline markup
 * vanishes inside words ("CO<sub>2</sub>" → "CO2"), not into spaces.
 * https://api.crossref.org/swagger-ui/index.html
 */
import { author, combinedQuery, makeRecord, markupToText, normalizeDoi, normalizeOrcid, parseDate } from './normalize.js';
import { ParseError, type NormalizedRecord, type ParsedPage, type Relation, type SourceAdapter } from './types.js';
import { pageSizeFor } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;

/** Crossref's work types in the vocabulary every adapter uses (types.ts). */
const CROSSREF_TYPES: Record<string, string> = {
  'journal-article': 'article',
  'proceedings-article': 'proceedings',
  'book-chapter': 'book-chapter',
  'reference-entry': 'reference-entry',
  monograph: 'book',
  'edited-book': 'book',
  dissertation: 'thesis',
  report: 'report',
  dataset: 'dataset',
  database: 'dataset',
  'peer-review': 'peer-review',
};

/** posted-content's subtypes: a preprint, or another kind of work posted the same way. */
const POSTED_SUBTYPES: Record<string, string> = { preprint: 'preprint', dissertation: 'thesis' };

/**
 * A work that updates another (its `update-to`) is the notice, typed as the notice it is
 * (Crossref types errata and retraction notices journal-article): by that type it never becomes
 * the document of the work it updates, whose title it may repeat.
 */
const NOTICE_TYPE: Record<string, string> = {
  correction: 'correction', corrigendum: 'correction', erratum: 'correction', clarification: 'correction', addendum: 'correction',
  retraction: 'retraction', partial_retraction: 'retraction', withdrawal: 'retraction', removal: 'retraction',
  expression_of_concern: 'expression-of-concern',
};

const UPDATE_RELATION: Record<string, { incoming: Relation['kind']; outgoing: Relation['kind'] }> = {
  retraction: { incoming: 'retracted_by', outgoing: 'retraction_of' },
  correction: { incoming: 'corrected_by', outgoing: 'correction_of' },
  erratum: { incoming: 'corrected_by', outgoing: 'correction_of' },
};

/**
 * The licence of the published version. Crossref lists one licence per content version, often the
 * text-and-data-mining one first (Elsevier: tdm/userlicense before the article's CC BY): the
 * version of record's licence is the one readers get, then the accepted manuscript's.
 */
function licenseOf(licenses: unknown): string | undefined {
  const list = (Array.isArray(licenses) ? licenses : []).filter((l: any) => typeof l?.URL === 'string' && l.URL.trim());
  const rank = (l: any) => ['vor', 'am', 'unspecified'].indexOf(String(l['content-version']).toLowerCase());
  const preferred = list.filter((l) => rank(l) >= 0).sort((a, b) => rank(a) - rank(b))[0] ?? list[0];
  return preferred?.URL;
}

export function parseCrossrefWork(item: any): NormalizedRecord | undefined {
  const doi = normalizeDoi(item.DOI);
  const mainTitle = markupToText(item.title?.[0]);
  if (!doi || !mainTitle) return undefined;
  const subtitle = markupToText(item.subtitle?.[0]);
  const date = parseDate(item.issued?.['date-parts']) ?? parseDate(item['published-print']?.['date-parts']) ?? parseDate(item['published-online']?.['date-parts']) ?? parseDate(item.created?.['date-parts']);
  const relations: Relation[] = [];
  for (const [kind, key] of [['has_preprint', 'has-preprint'], ['preprint_of', 'is-preprint-of'], ['has_version', 'has-version'], ['version_of', 'is-version-of']] as const) {
    for (const rel of item.relation?.[key] ?? []) {
      if (rel['id-type'] === 'doi') relations.push({ kind, doi: normalizeDoi(rel.id) });
      else if (rel['id-type'] === 'arxiv') relations.push({ kind, arxiv: rel.id });
      else if (rel['id-type'] === 'uri') relations.push({ kind, url: rel.id });
    }
  }
  let isRetracted = false;
  for (const update of item['updated-by'] ?? []) {
    const mapped = UPDATE_RELATION[String(update.type).toLowerCase()];
    if (!mapped) continue;
    if (mapped.incoming === 'retracted_by') isRetracted = true;
    relations.push({ kind: mapped.incoming, doi: normalizeDoi(update.DOI), label: update.label, date: parseDate(update.updated?.['date-parts'])?.date });
  }
  for (const update of item['update-to'] ?? []) {
    const mapped = UPDATE_RELATION[String(update.type).toLowerCase()];
    if (mapped) relations.push({ kind: mapped.outgoing, doi: normalizeDoi(update.DOI), label: update.label, date: parseDate(update.updated?.['date-parts'])?.date });
  }
  const pdf = (item.link ?? []).find((l: any) => l['content-type'] === 'application/pdf')?.URL;
  const notice = (item['update-to'] ?? []).map((u: any) => NOTICE_TYPE[String(u?.type).toLowerCase().replace(/-/g, '_')]).find(Boolean);
  const type = notice ?? (item.type === 'posted-content' ? (POSTED_SUBTYPES[item.subtype] ?? item.type) : (CROSSREF_TYPES[item.type] ?? item.type));
  return makeRecord({
    source: 'crossref',
    nativeId: doi,
    title: subtitle ? `${mainTitle}: ${subtitle}` : mainTitle,
    authors: (item.author ?? [])
      .map((a: any) => {
        const name = a.name ?? [a.given, a.family].filter(Boolean).join(' ');
        if (!name) return undefined;
        const affiliations = (a.affiliation ?? []).map((x: any) => x.name).filter(Boolean);
        return author(name, { given: a.given, family: a.family, orcid: normalizeOrcid(a.ORCID), affiliations: affiliations.length ? affiliations : undefined });
      })
      .filter(Boolean),
    abstract: markupToText(item.abstract)?.replace(/^Abstract\s+/i, ''),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: markupToText(item['container-title']?.[0]),
    doi,
    landingUrl: item.resource?.primary?.URL ?? item.URL,
    pdfUrl: pdf,
    categories: item.subject ?? [],
    license: licenseOf(item.license),
    type,
    isRetracted: isRetracted || undefined,
    relations,
  });
}

/** Parse one /works answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { nextCursor?: string } {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('Crossref answered something that is not JSON.');
  }
  const message = body?.message;
  if (!message || !Array.isArray(message.items)) throw new ParseError('Crossref answered without message.items.');
  const records = message.items.map(parseCrossrefWork).filter(Boolean) as NormalizedRecord[];
  return {
    records,
    total: message['total-results'],
    received: message.items.length,
    unusable: message.items.length - records.length,
    nextCursor: message.items.length > 0 && message['next-cursor'] ? message['next-cursor'] : undefined,
  };
}

const PAGE = pageParser(import.meta.url, parseResponse);

/** Parse one /works/{doi} answer (pure): its work as the only record, none when it is not usable. */
export function parseWorkResponse(text: string): ParsedPage {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('Crossref answered something that is not JSON.');
  }
  const record = body?.message ? parseCrossrefWork(body.message) : undefined;
  return { records: record ? [record] : [], received: body?.message ? 1 : 0 };
}

export const WORK = pageParser(import.meta.url, parseWorkResponse);

export const crossref: SourceAdapter = {
  id: 'crossref',
  name: 'Crossref',
  homepage: 'https://www.crossref.org/',
  status: 'active',
  description: 'Metadata of 150+ million DOIs registered with Crossref: journals, books, proceedings, preprints.',
  defaultBaseUrl: 'https://api.crossref.org',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    orcidSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'cursor',
    // Public pool: 5 requests per second; the polite pool (with mailto) allows more, we stay at 5.
    rateLimit: { requests: 5, intervalMs: 1000 },
  },
  async fetchPage(req, cursor, http) {
    const params = new URLSearchParams();
    const text = combinedQuery(req.query, req.keywords);
    if (text) params.set('query', text);
    // An ORCID iD is an exact filter; a name is a relevance query on the byline.
    const orcid = req.author ? normalizeOrcid(req.author) : undefined;
    const filters = [];
    if (orcid && req.author!.replace(/https?:\/\/orcid\.org\//i, '').trim().toUpperCase() === orcid) filters.push(`orcid:${orcid}`);
    else if (req.author) params.set('query.author', req.author);
    if (req.dateFrom) filters.push(`from-pub-date:${req.dateFrom}`);
    if (req.dateTo) filters.push(`until-pub-date:${req.dateTo}`);
    if (filters.length) params.set('filter', filters.join(','));
    params.set('rows', String(pageSizeFor(req, PAGE_SIZE)));
    params.set('cursor', cursor ?? '*');
    if (req.contactEmail) params.set('mailto', req.contactEmail);
    const { nextCursor, ...page } = await http.parse(PAGE, await http.get(`${req.baseUrl}/works?${params}`));
    return { ...page, next: nextCursor };
  },
};
