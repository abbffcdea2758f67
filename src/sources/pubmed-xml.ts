/**
 * PubMed XML (efetch, PubmedArticleSet) to normalized records. Identifiers are
 * read only from the record's own PubmedData/ArticleIdList: the ReferenceList
 * carries ArticleIdLists of every cited paper too. Titles and abstract sections
 * are kept as raw XML by the parser so inline markup (<i>, <sup>, MathML)
 * keeps its place in the text.
 * https://www.nlm.nih.gov/bsd/licensee/elements_descriptions.html
 */
import { author, fromParts, makeRecord, markupToText, monthNumber, normalizeDoi, normalizeOrcid, normalizePmcid, normalizePmid, plainText } from './normalize.js';
import { asArray, parseXml, textOf } from './xml.js';
import { ParseError, type Author, type NormalizedRecord, type ParsedPage, type Relation } from './types.js';

const ARRAYS = ['PubmedArticle', 'PubmedBookArticle', 'Author', 'AffiliationInfo', 'Identifier', 'AbstractText', 'ArticleId', 'ELocationID', 'MeshHeading', 'PublicationType', 'CommentsCorrections'];
const RAW = ['*.ArticleTitle', '*.VernacularTitle', '*.BookTitle', '*.AbstractText'];

/** CommentsCorrections RefType → relation. Other types (CommentIn, Cites, UpdateIn…) are not lifecycle events. */
const NOTICE_RELATION: Record<string, Relation['kind']> = {
  RetractionIn: 'retracted_by',
  RetractedandRepublishedIn: 'retracted_by',
  RetractionOf: 'retraction_of',
  ErratumIn: 'corrected_by',
  ErratumFor: 'correction_of',
};

const plain = (node: unknown) => plainText(textOf(node));
const rich = (node: unknown) => markupToText(textOf(node));

/** Titles of articles not in English come in brackets: "[Title]." */
function cleanTitle(title: string | undefined): string | undefined {
  const bracketed = title && /^\[(.+)\](\.?)$/.exec(title);
  return bracketed ? `${bracketed[1]}${bracketed[2]}` : title;
}

function parseAuthor(a: any): Author | undefined {
  if (a['@_ValidYN'] === 'N') return undefined; // an entry NLM marked as not a real author of this paper
  const collective = plain(a.CollectiveName);
  if (collective) return { name: collective };
  const family = plain(a.LastName);
  const given = plain(a.ForeName) ?? plain(a.Initials);
  if (!family) return undefined;
  const orcid = normalizeOrcid(textOf(asArray<any>(a.Identifier).find((i) => String(i['@_Source']).toUpperCase() === 'ORCID')));
  const affiliations = asArray<any>(a.AffiliationInfo).map((x) => plain(x.Affiliation)).filter(Boolean) as string[];
  const suffix = plain(a.Suffix);
  return author([given, family, suffix].filter(Boolean).join(' '), { given, family, orcid, affiliations: affiliations.length ? affiliations : undefined });
}

/** Labelled sections of a structured abstract become "LABEL: text", in order. */
function parseAbstract(abstract: any): string | undefined {
  const sections = asArray<any>(abstract?.AbstractText)
    .map((section) => {
      const body = rich(section);
      const label = typeof section === 'object' ? plainText(section['@_Label']) : undefined;
      return body && label ? `${label}: ${body}` : body;
    })
    .filter(Boolean);
  return sections.length ? sections.join(' ') : undefined;
}

/** PubDate: Year/Month/Day (Month may be "Jan"), or a free MedlineDate such as "1998 Dec-1999 Jan" (year precision). */
function parsePubDate(pubDate: any) {
  if (!pubDate) return undefined;
  const year = plain(pubDate.Year);
  if (year) return fromParts(Number(year), monthNumber(plain(pubDate.Month)), Number(plain(pubDate.Day)));
  const medline = /\b(\d{4})\b/.exec(plain(pubDate.MedlineDate) ?? '');
  return medline ? fromParts(Number(medline[1])) : undefined;
}

function parseNotices(list: any): Relation[] {
  const relations: Relation[] = [];
  for (const item of asArray<any>(list?.CommentsCorrections)) {
    const kind = NOTICE_RELATION[item['@_RefType']];
    if (!kind) continue;
    const label = plain(item.RefSource);
    const pmid = normalizePmid(textOf(item.PMID));
    const doi = normalizeDoi(/\bdoi:\s*(10\.\d{4,9}\/\S+?)\.?(?:\s|$)/i.exec(label ?? '')?.[1]);
    const relation: Relation = { kind };
    if (doi) relation.doi = doi;
    if (pmid) relation.url = `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;
    if (label || pmid) relation.label = label ? (pmid ? `${label} (PMID ${pmid})` : label) : `PMID ${pmid}`;
    relations.push(relation);
  }
  return relations;
}

/** The type from PubMed's publication types; notices first (an erratum is also a Journal Article). */
function typeOf(publicationTypes: string[]): string {
  const has = (...types: string[]) => types.some((t) => publicationTypes.includes(t));
  if (has('Retraction of Publication')) return 'retraction';
  if (has('Published Erratum')) return 'correction';
  if (has('Expression of Concern')) return 'expression-of-concern';
  if (has('Preprint')) return 'preprint';
  if (has('Academic Dissertation')) return 'thesis';
  if (has('Comment')) return 'comment';
  if (has('Editorial')) return 'editorial';
  if (has('Congress')) return 'conference-abstract';
  if (has('Dataset')) return 'dataset';
  if (has('Review', 'Systematic Review')) return 'review';
  return 'article';
}

function articleIds(list: any): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const id of asArray<any>(list?.ArticleId)) {
    const type = id['@_IdType'];
    const value = plain(id);
    if (type && value && !(type in ids)) ids[type] = value;
  }
  return ids;
}

function parseArticle(entry: any): NormalizedRecord | undefined {
  const citation = entry.MedlineCitation;
  const article = citation?.Article;
  const pmid = normalizePmid(textOf(citation?.PMID));
  const title = cleanTitle(rich(article?.ArticleTitle)) ?? rich(article?.VernacularTitle);
  if (!pmid || !title) return undefined;
  const ids = articleIds(entry.PubmedData?.ArticleIdList);
  const eloc = asArray<any>(article.ELocationID).find((e) => e['@_EIdType'] === 'doi' && e['@_ValidYN'] !== 'N');
  const publicationTypes = asArray(article.PublicationTypeList?.PublicationType).map(plain).filter(Boolean) as string[];
  const relations = parseNotices(citation.CommentsCorrectionsList);
  const date = parsePubDate(article.Journal?.JournalIssue?.PubDate);
  const pmcid = normalizePmcid(ids.pmc);
  return makeRecord({
    source: 'pubmed',
    nativeId: pmid,
    title,
    authors: asArray(article.AuthorList?.Author).map(parseAuthor).filter((a) => a !== undefined),
    abstract: parseAbstract(article.Abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: plain(article.Journal?.Title),
    doi: normalizeDoi(ids.doi) ?? normalizeDoi(textOf(eloc)),
    ids: { pmid, pmcid },
    landingUrl: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    categories: asArray<any>(citation.MeshHeadingList?.MeshHeading).map((h) => plain(h.DescriptorName)) as string[],
    type: typeOf(publicationTypes),
    isRetracted: publicationTypes.includes('Retracted Publication') || relations.some((r) => r.kind === 'retracted_by') || undefined,
    relations,
  });
}

/** NCBI Bookshelf chapters and reports appear in PubMed as PubmedBookArticle. */
function parseBook(entry: any): NormalizedRecord | undefined {
  const doc = entry.BookDocument;
  const pmid = normalizePmid(textOf(doc?.PMID));
  const bookTitle = rich(doc?.Book?.BookTitle);
  const title = rich(doc?.ArticleTitle) ?? bookTitle;
  if (!pmid || !title) return undefined;
  const ids = articleIds(doc.ArticleIdList);
  const date = parsePubDate(doc.Book?.PubDate);
  return makeRecord({
    source: 'pubmed',
    nativeId: pmid,
    title,
    authors: asArray(doc.AuthorList?.Author).map(parseAuthor).filter((a) => a !== undefined),
    abstract: parseAbstract(doc.Abstract),
    publicationDate: date?.date,
    datePrecision: date?.precision,
    venue: title === bookTitle ? plain(doc.Book?.Publisher?.PublisherName) : bookTitle,
    doi: normalizeDoi(ids.doi),
    ids: { pmid, pmcid: normalizePmcid(ids.pmc) },
    landingUrl: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    type: doc.ArticleTitle ? 'book-chapter' : 'book',
  });
}

export function parsePubmedArticleSet(body: string): ParsedPage {
  const doc = parseXml(body, ARRAYS, RAW);
  if (!doc || typeof doc !== 'object' || !('PubmedArticleSet' in doc)) throw new ParseError('PubMed efetch answered without a PubmedArticleSet.');
  const set = doc.PubmedArticleSet;
  const articles = asArray<any>(set?.PubmedArticle);
  const books = asArray<any>(set?.PubmedBookArticle);
  const records = [...articles.map(parseArticle), ...books.map(parseBook)].filter((r) => r !== undefined);
  const received = articles.length + books.length;
  return { records, received, unusable: received - records.length };
}
