/**
 * Does a pair of documents look like one work, or like two versions of one
 * piece of research, and by what evidence? Each link says which (its kind):
 *
 * same_work, by method, strongest first:
 * - relation: a source said so (preprint_of, has_preprint, version_of, has_version naming the other's DOI or arXiv id);
 * - arxiv_version: both carry the same arXiv identifier (any version);
 * - preprint_published: one is a preprint (arXiv, bioRxiv, medRxiv, SSRN… or typed preprint), the other is not,
 *   titles the same or revised (corpus/titles.ts), authors agreeing, publication years at most three apart;
 * - doi_variant: two DOIs, neither a preprint's, the same title, the same authors, years at most one apart;
 * - title_variant: the same title (markup, spelling, a dropped subtitle aside), authors agreeing, years at most two apart.
 *
 * related_version (never folded by a collapse):
 * - abstract_and_paper: a conference abstract (or poster, talk) and a paper of the same title and authors, at most three years apart;
 * - thesis_and_paper: a thesis and a paper of the same title sharing its author, at most six years apart.
 *
 * Refused whatever the titles say: notices (errata, corrections, retractions), comments, replies, editorials and
 * reviews of another work against anything; a dataset or software against a paper; titles that differ in a number
 * or a part (Part I and Part II) or in one content word (one species, organ, cancer type or platform for another)
 * unless an identifier says they are one; two different arXiv identifiers; short generic titles without an
 * identifier; authors that do not agree as people (corpus/people.ts: a first author's surname and initial shared
 * with no co-author in common is not enough).
 */
import { compareAuthors, peopleOf, personOf, type People } from '../corpus/people.js';
import { compareTitles, titleForms, titleKeys, type TitleComparison, type TitleForms } from '../corpus/titles.js';
import { isPreprintType, workClass, type WorkClass } from '../corpus/work-class.js';
import { words } from './lexical.js';

export type LinkMethod = 'relation' | 'arxiv_version' | 'preprint_published' | 'doi_variant' | 'title_variant' | 'abstract_and_paper' | 'thesis_and_paper';
export const LINK_METHODS: readonly LinkMethod[] = ['relation', 'arxiv_version', 'preprint_published', 'doi_variant', 'title_variant', 'abstract_and_paper', 'thesis_and_paper'];
export type LinkKind = 'same_work' | 'related_version';
export const LINK_KINDS: readonly LinkKind[] = ['same_work', 'related_version'];

export interface LinkInput {
  id: number;
  title: string;
  authors: { name?: string; given?: string; family?: string }[];
  year: number | null;
  doi: string | null;
  arxiv_id: string | null;
  doc_type: string | null;
  venue: string | null;
  relations: { kind: string; doi?: string; arxiv?: string }[];
}

export interface LinkFeatures {
  id: number;
  title: TitleForms;
  people: People;
  year: number | null;
  doi: string | null;
  arxiv: string | null;
  preprint: boolean;
  workClass: WorkClass;
  /** Never linked to anything: notices, comments, reviews of another work. */
  notice: boolean;
  related: Set<string>;
}

export interface LinkVerdict {
  method: LinkMethod;
  kind: LinkKind;
  score: number;
  evidence: Record<string, unknown>;
}

const PREPRINT_DOI = /^10\.(48550|1101|2139|21203|20944|31219|31234|31235|31222|36227|22541|26434|32942)\//;
const PREPRINT_VENUE = /\b(arxiv|biorxiv|medrxiv|chemrxiv|ssrn|research ?square|preprints?\.org|psyarxiv|socarxiv|osf preprints|techrxiv|eartharxiv|authorea)\b/i;
const NEVER_LINKED: ReadonlySet<WorkClass> = new Set(['notice', 'comment', 'review-of-work']);
/** Classes that are not a paper and are never linked to one (they may be linked to their own kind). */
const NOT_A_VERSION: ReadonlySet<WorkClass> = new Set(['dataset', 'software']);
const MIN_TITLE_KEY = 20;
/** Title differences each method accepts. */
const SAME_TITLE = new Set(['equal', 'near', 'subtitle_dropped']);
const REVISED_TITLE = new Set(['equal', 'near', 'subtitle_dropped', 'revised']);

/** The arXiv identifier without version, from the arXiv id or an arXiv DOI. */
export function arxivBase(arxivId: string | null, doi: string | null): string | null {
  const raw = arxivId ?? (doi && /^10\.48550\/arxiv\./i.test(doi) ? doi.replace(/^10\.48550\/arxiv\./i, '') : null);
  return raw ? raw.toLowerCase().replace(/^arxiv:/, '').replace(/v\d+$/, '') : null;
}

/** What the scan's blocking reads of a document (link-scan.ts blockKeys): the cheap part of linkFeatures. */
export interface BlockingFeatures {
  doi: string | null;
  arxiv: string | null;
  related: Set<string>;
  notice: boolean;
  /** Title words, for MinHash. */
  words: Set<string>;
  /** Title key and main title key (before a subtitle). */
  titleKey: string;
  mainKey: string | undefined;
  /** The first author's family name (folded), "" when nobody is named. */
  firstAuthor: string;
}

export function blockingFeatures(doc: LinkInput): BlockingFeatures {
  const doi = doc.doi?.toLowerCase() ?? null;
  const arxiv = arxivBase(doc.arxiv_id, doi);
  const related = new Set<string>();
  for (const r of doc.relations) {
    if (!/preprint|version/.test(r.kind)) continue;
    if (r.doi) related.add(`d:${r.doi.toLowerCase()}`);
    if (r.arxiv) related.add(`a:${arxivBase(r.arxiv, null)}`);
  }
  const { key, main } = titleKeys(doc.title);
  const first = doc.authors[0] ? personOf(doc.authors[0]) : undefined;
  return {
    doi,
    arxiv,
    related,
    notice: NEVER_LINKED.has(workClass(doc.doc_type, doc.title, doc.venue, doi)),
    words: new Set(words(doc.title)),
    titleKey: key,
    mainKey: main,
    firstAuthor: first?.family.at(-1) ?? '',
  };
}

export function linkFeatures(doc: LinkInput): LinkFeatures {
  const doi = doc.doi?.toLowerCase() ?? null;
  const arxiv = arxivBase(doc.arxiv_id, doi);
  const type = (doc.doc_type ?? '').toLowerCase();
  const related = new Set<string>();
  for (const r of doc.relations) {
    if (!/preprint|version/.test(r.kind)) continue;
    if (r.doi) related.add(`d:${r.doi.toLowerCase()}`);
    if (r.arxiv) related.add(`a:${arxivBase(r.arxiv, null)}`);
  }
  const people = peopleOf(doc.authors);
  const cls = workClass(type, doc.title, doc.venue, doi);
  return {
    id: doc.id,
    title: titleForms(doc.title),
    people,
    year: doc.year,
    doi,
    arxiv,
    preprint: isPreprintType(type) || (doi !== null && PREPRINT_DOI.test(doi)) || (arxiv !== null && (doi === null || PREPRINT_DOI.test(doi))) || PREPRINT_VENUE.test(doc.venue ?? ''),
    workClass: cls,
    notice: NEVER_LINKED.has(cls),
    related,
  };
}

const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** What the evidence says of titles and authors, in every link the rules make. */
function titleAndAuthorEvidence(title: TitleComparison, authors: ReturnType<typeof compareAuthors>, gap: number) {
  return {
    title_similarity: rounded(title.similarity),
    title_difference: title.relation,
    author_overlap: rounded(authors.overlap),
    shared_authors: authors.shared,
    authors_compared: authors.compared,
    year_gap: gap,
  };
}

/** The verdict on one pair, or null when they should not be linked. */
export function judgePair(a: LinkFeatures, b: LinkFeatures): LinkVerdict | null {
  const sameClass = a.workClass === b.workClass;
  if (!sameClass && (NOT_A_VERSION.has(a.workClass) || NOT_A_VERSION.has(b.workClass))) return null;
  const relatedTo = (x: LinkFeatures, y: LinkFeatures) => (y.doi !== null && x.related.has(`d:${y.doi}`)) || (y.arxiv !== null && x.related.has(`a:${y.arxiv}`));
  if (relatedTo(a, b) || relatedTo(b, a)) return { method: 'relation', kind: 'same_work', score: 1, evidence: { stated_by_source: true, identifiers: { dois: [a.doi, b.doi], arxiv_ids: [a.arxiv, b.arxiv] } } };
  if (a.notice || b.notice) return null;
  if (a.arxiv && b.arxiv) {
    if (a.arxiv === b.arxiv) return { method: 'arxiv_version', kind: 'same_work', score: 1, evidence: { arxiv_id: a.arxiv, identifiers: { arxiv_id: a.arxiv } } };
    return null;
  }
  if (Math.min(a.title.key.length, b.title.key.length) < MIN_TITLE_KEY) return null;
  const title = compareTitles(a.title, b.title);
  // A swapped content word is another work unless an identifier said otherwise (above).
  if (title.relation === 'different' || title.relation === 'word_swapped') return null;
  const authors = compareAuthors(a.people, b.people);
  if (authors.verdict !== 'agree') return null;
  const gap = a.year !== null && b.year !== null ? Math.abs(a.year - b.year) : 0;
  const evidence: Record<string, unknown> = titleAndAuthorEvidence(title, authors, gap);
  const titleScore = title.relation === 'equal' || title.relation === 'subtitle_dropped' ? 1 : title.similarity;
  const score = rounded(0.7 * titleScore + 0.3 * authors.overlap);

  if (!sameClass) {
    const classes = new Set([a.workClass, b.workClass]);
    const withPaper = classes.has('paper');
    if (withPaper && classes.has('abstract') && gap <= 3 && SAME_TITLE.has(title.relation)) {
      return { method: 'abstract_and_paper', kind: 'related_version', score, evidence: { ...evidence, classes: [a.workClass, b.workClass] } };
    }
    if (withPaper && classes.has('thesis') && gap <= 6 && REVISED_TITLE.has(title.relation)) {
      return { method: 'thesis_and_paper', kind: 'related_version', score, evidence: { ...evidence, classes: [a.workClass, b.workClass] } };
    }
    return null;
  }
  if (a.preprint !== b.preprint) {
    if (gap > 3 || !REVISED_TITLE.has(title.relation)) return null;
    return { method: 'preprint_published', kind: 'same_work', score, evidence: { ...evidence, preprint: a.preprint ? a.id : b.id, identifiers: { dois: [a.doi, b.doi] } } };
  }
  if (!SAME_TITLE.has(title.relation)) return null;
  if (a.doi && b.doi && !a.preprint && !b.preprint) {
    // Two DOIs are two records unless titles and authors are all but identical (a repository's copy, a re-deposit).
    if ((title.relation === 'equal' || title.similarity >= 0.97) && authors.overlap >= 0.8 && gap <= 1) return { method: 'doi_variant', kind: 'same_work', score, evidence: { ...evidence, dois: [a.doi, b.doi], identifiers: { dois: [a.doi, b.doi] } } };
    return null;
  }
  if (gap <= 2) return { method: 'title_variant', kind: 'same_work', score, evidence: { ...evidence, identifiers: { dois: [a.doi, b.doi] } } };
  return null;
}
