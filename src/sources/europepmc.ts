/**
 * Europe PMC REST, /search (JSON). Cursor paging with cursorMark, the window
 * as FIRST_PDATE:[… TO …] in the query, authors through AUTH: or AUTHORID:.
 * Asks for resultType=core (abstracts, author lists with ORCIDs, full-text
 * links, licences) and also reads lite answers (authorString, no abstract).
 * https://europepmc.org/RestfulWebService
 */
import { author, fieldSyntaxQuery, fromParts, makeRecord, markupToText, monthNumber, normalizeDoi, normalizeOrcid, normalizePmcid, normalizePmid, parseDate, plainText } from './normalize.js';
import { ParseError, type Author, type DatePrecision, type NormalizedRecord, type ParsedPage, type SearchRequest, type SourceAdapter } from './types.js';
import { pageSizeFor } from './paging.js';
import { pageParser } from './parse-page.js';

const PAGE_SIZE = 100;

const list = (value: unknown): any[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);

/** The query: text and keywords, author (name or ORCID), and the window on the first publication date. */
export function europepmcQuery(req: Pick<SearchRequest, 'query' | 'keywords' | 'author' | 'dateFrom' | 'dateTo'>): string {
  const parts: string[] = [];
  const text = fieldSyntaxQuery(req.query, req.keywords);
  if (text) parts.push(`(${text})`);
  if (req.author) {
    const orcid = normalizeOrcid(req.author);
    parts.push(orcid ? `AUTHORID:"${orcid}"` : `AUTH:"${req.author.replace(/"/g, '').trim()}"`);
  }
  if (req.dateFrom || req.dateTo) parts.push(`FIRST_PDATE:[${req.dateFrom ?? '1000-01-01'} TO ${req.dateTo ?? '3000-12-31'}]`);
  return parts.join(' AND ');
}

/** Lite answers give only "Schoenfeld JD, Haas-Kogan DA, O'Neill AF.": family name then initials. */
function authorsFromString(authorString: string | undefined): Author[] {
  if (!authorString) return [];
  return authorString
    .replace(/\.\s*$/, '')
    .split(/,\s+/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((name) => {
      const m = /^(.*\S)\s+([A-Z]{1,4})$/.exec(name);
      return m ? author(`${m[2]} ${m[1]}`, { given: m[2], family: m[1] }) : { name };
    });
}

function authorsFromList(authors: any[]): Author[] {
  return authors
    .map((a) => {
      if (a.collectiveName) return { name: plainText(a.collectiveName)! };
      const family = plainText(a.lastName);
      const given = plainText(a.firstName) ?? plainText(a.initials);
      const name = family ? [given, family].filter(Boolean).join(' ') : plainText(a.fullName);
      if (!name) return undefined;
      const ids = list(a.authorId);
      const orcid = normalizeOrcid(ids.find((id) => String(id?.type).toUpperCase() === 'ORCID')?.value);
      const affiliations = list(a.authorAffiliationDetailsList?.authorAffiliation)
        .map((x) => plainText(x?.affiliation))
        .filter(Boolean) as string[];
      return author(name, { given, family, orcid, affiliations: affiliations.length ? affiliations : undefined });
    })
    .filter((a) => a !== undefined);
}

/**
 * The record's type from its source (PPR preprints, ETH theses) and publication types (lower
 * case: "published erratum; correction", "comment", "meeting abstract"…). Notices first: an
 * erratum is also a "journal article".
 */
function typeOf(source: string, pubTypes: string[]): string {
  const has = (...types: string[]) => types.some((t) => pubTypes.includes(t));
  if (has('retraction of publication')) return 'retraction';
  if (has('published erratum')) return 'correction';
  if (has('expression of concern')) return 'expression-of-concern';
  if (source === 'PPR' || has('preprint')) return 'preprint';
  if (source === 'ETH' || has('dissertation', 'academic dissertation', 'thesis')) return 'thesis';
  if (has('comment', 'commentary')) return 'comment';
  if (has('editorial')) return 'editorial';
  if (has('congress', 'meeting abstract', 'conference abstract', 'abstract')) return 'conference-abstract';
  if (has('dataset')) return 'dataset';
  if (has('review', 'systematic review')) return 'review';
  return 'article';
}

/**
 * The publication date at the precision Europe PMC knows it. firstPublicationDate is the
 * earlier of the electronic and the print date, always written as a day; a print date known
 * only to the month or year ("2016 Jan" in journalInfo.dateOfPublication) is filled to the
 * 1st ("2016-01-01"). When the first date is that print date, its precision comes from
 * dateOfPublication, so no day is invented. Lite answers carry neither: taken as written.
 */
function publicationDate(r: any): { date: string; precision: DatePrecision } | undefined {
  const first = parseDate(r.firstPublicationDate);
  const journal = r.journalInfo ?? {};
  const print = typeof journal.printPublicationDate === 'string' ? journal.printPublicationDate.trim() : undefined;
  const electronic = typeof r.electronicPublicationDate === 'string' ? r.electronicPublicationDate.trim() : undefined;
  if (first && first.precision === 'day' && print === first.date && electronic !== first.date) {
    const shown = /^(\d{4})(?:\s+([A-Za-z]{3})[a-z]*\.?(?:\s+(\d{1,2})\b)?)?/.exec(plainText(journal.dateOfPublication) ?? '');
    if (shown && Number(shown[1]) === Number(first.date.slice(0, 4))) {
      const month = monthNumber(shown[2]);
      return fromParts(Number(shown[1]), month, month ? Number(shown[3]) || undefined : undefined);
    }
    if (!shown && journal.monthOfPublication !== undefined && Number(journal.yearOfPublication) === Number(first.date.slice(0, 4))) {
      return fromParts(Number(journal.yearOfPublication), Number(journal.monthOfPublication) || undefined);
    }
  }
  return first ?? parseDate(r.pubYear);
}

export function parseEuropePmcResult(r: any): NormalizedRecord | undefined {
  const title = markupToText(r.title);
  const source = plainText(r.source);
  const id = plainText(r.id);
  if (!title || !source || !id) return undefined;
  // core: pubTypeList.pubType[]; lite: one string "published erratum; correction".
  const pubTypes = (r.pubTypeList ? list(r.pubTypeList.pubType) : String(r.pubType ?? '').split(';'))
    .map((t: unknown) => String(t).trim().toLowerCase())
    .filter(Boolean);
  const date = publicationDate(r);
  const pdf = list(r.fullTextUrlList?.fullTextUrl).find((u) => u?.documentStyle === 'pdf' && ['OA', 'F'].includes(u?.availabilityCode))?.url;
  const nativeId = `${source}/${id}`;
  return makeRecord({
    source: 'europepmc',
    nativeId,
    title,
    authors: r.authorList ? authorsFromList(list(r.authorList.author)) : authorsFromString(plainText(r.authorString)),
    abstract: markupToText(r.abstractText),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: plainText(r.journalInfo?.journal?.title) ?? plainText(r.journalTitle) ?? plainText(r.bookOrReportDetails?.publisher),
    doi: normalizeDoi(r.doi),
    ids: { europepmc: nativeId, pmid: normalizePmid(r.pmid), pmcid: normalizePmcid(r.pmcid) },
    landingUrl: `https://europepmc.org/article/${source}/${id}`,
    pdfUrl: pdf,
    categories: [...list(r.keywordList?.keyword), ...list(r.meshHeadingList?.meshHeading).map((h) => h?.descriptorName)].map((k) => plainText(k)).filter(Boolean) as string[],
    license: plainText(r.license),
    openAccess: r.isOpenAccess === 'Y' ? true : r.isOpenAccess === 'N' ? false : undefined,
    type: typeOf(source, pubTypes),
    isRetracted: pubTypes.includes('retracted publication') || undefined,
  });
}

/** Parse one /search answer (pure: used by fetchPage, tests and the parse benchmark). */
export function parseResponse(text: string): ParsedPage & { nextCursor?: string } {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ParseError('Europe PMC answered something that is not JSON.');
  }
  const results = body?.resultList?.result;
  if (!Array.isArray(results)) throw new ParseError('Europe PMC answered without resultList.result.');
  const records = results.map(parseEuropePmcResult).filter((r) => r !== undefined);
  return {
    records,
    total: typeof body.hitCount === 'number' ? body.hitCount : undefined,
    received: results.length,
    unusable: results.length - records.length,
    nextCursor: typeof body.nextCursorMark === 'string' && body.nextCursorMark ? body.nextCursorMark : undefined,
  };
}

const PAGE = pageParser(import.meta.url, parseResponse);

export const europepmc: SourceAdapter = {
  id: 'europepmc',
  name: 'Europe PMC',
  homepage: 'https://europepmc.org/',
  status: 'active',
  description: 'Life-science literature: all of PubMed and PMC plus preprints (bioRxiv, medRxiv, Research Square…), Agricola and patents, with open full texts.',
  defaultBaseUrl: 'https://www.ebi.ac.uk/europepmc/webservices/rest',
  capabilities: {
    keywordQuery: true,
    dateWindow: 'exact',
    authorSearch: true,
    orcidSearch: true,
    pageSize: PAGE_SIZE,
    paging: 'cursor',
    // Europe PMC tolerates about 10 requests per second; half of that is polite.
    rateLimit: { requests: 5, intervalMs: 1000 },
  },
  async fetchPage(req, cursor, http) {
    const sent = cursor ?? '*';
    const params = new URLSearchParams({
      query: europepmcQuery(req),
      format: 'json',
      resultType: 'core',
      pageSize: String(pageSizeFor(req, PAGE_SIZE)),
      cursorMark: sent,
    });
    const { nextCursor, ...page } = await http.parse(PAGE, await http.get(`${req.baseUrl}/search?${params}`));
    // At the end Europe PMC hands back the cursor it was given (or none).
    return { ...page, next: page.received > 0 && nextCursor && nextCursor !== sent ? nextCursor : undefined };
  },
};
