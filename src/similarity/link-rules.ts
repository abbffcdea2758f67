/**
 * Does a pair of documents look like one work, and by what evidence? The
 * methods, strongest first:
 *
 * - relation: a source said so (preprint_of, has_preprint, version_of, has_version naming the other's DOI or arXiv id);
 * - arxiv_version: both carry the same arXiv identifier (any version);
 * - preprint_published: one is a preprint (arXiv, bioRxiv, medRxiv, SSRN… or typed preprint), the other is not,
 *   titles nearly equal, authors shared, publication years at most three apart;
 * - doi_variant: two DOIs, neither a preprint, the same title, the same authors, years at most one apart;
 * - title_variant: nearly equal titles, shared authors, years at most two apart.
 *
 * Refused whatever the titles say: notices (errata, corrections, retractions,
 * comments, replies, editorials) against anything; titles that differ in a
 * number or a part (Part I and Part II); two different arXiv identifiers;
 * short generic titles without an identifier signal; pairs with no author in common.
 */
import { titleKey } from '../sources/normalize.js';
import { words } from './lexical.js';

export type LinkMethod = 'relation' | 'arxiv_version' | 'preprint_published' | 'doi_variant' | 'title_variant';
export const LINK_METHODS: readonly LinkMethod[] = ['relation', 'arxiv_version', 'preprint_published', 'doi_variant', 'title_variant'];

export interface LinkInput {
  id: number;
  title: string;
  authors: { name?: string; family?: string }[];
  year: number | null;
  doi: string | null;
  arxiv_id: string | null;
  doc_type: string | null;
  venue: string | null;
  relations: { kind: string; doi?: string; arxiv?: string }[];
}

export interface LinkFeatures {
  id: number;
  key: string;
  words: Set<string>;
  grams: Set<string>;
  numbers: string;
  authors: string[];
  year: number | null;
  doi: string | null;
  arxiv: string | null;
  preprint: boolean;
  notice: boolean;
  related: Set<string>;
}

export interface LinkVerdict {
  method: LinkMethod;
  score: number;
  evidence: Record<string, unknown>;
}

const PREPRINT_DOI = /^10\.(48550|1101|2139|21203|20944|31219|31234|31235|31222|36227|22541|26434|32942)\//;
const PREPRINT_VENUE = /\b(arxiv|biorxiv|medrxiv|chemrxiv|ssrn|research ?square|preprints?\.org|psyarxiv|socarxiv|osf preprints|techrxiv|eartharxiv|authorea)\b/i;
const NOTICE_TITLE =
  /^\s*(erratum|errata|corrigendum|corrigenda|correction|retraction|retracted|withdrawn|expression of concern|comments?\s+on|commentary\s+on|reply|replies|response|authors?'?\s+(reply|response)|rebuttal|addendum|editorial|publisher'?s?\s+note|notice of)\b/i;
const NOTICE_TYPES = new Set(['correction', 'erratum', 'retraction', 'comment', 'reply', 'editorial', 'expression-of-concern', 'addendum']);
const NUMBER_WORD = /^(\d+|i|ii|iii|iv|v|vi|vii|viii|ix|x|xi|xii|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth)$/;
const MIN_TITLE_KEY = 20;

/** The arXiv identifier without version, from the arXiv id or an arXiv DOI. */
export function arxivBase(arxivId: string | null, doi: string | null): string | null {
  const raw = arxivId ?? (doi && /^10\.48550\/arxiv\./i.test(doi) ? doi.replace(/^10\.48550\/arxiv\./i, '') : null);
  return raw ? raw.toLowerCase().replace(/^arxiv:/, '').replace(/v\d+$/, '') : null;
}

function familyKey(a: { name?: string; family?: string }): string {
  const family = a.family ?? (a.name ?? '').trim().split(/\s+/).pop() ?? '';
  return titleKey(family);
}

function trigrams(key: string): Set<string> {
  const out = new Set<string>();
  const padded = ` ${key} `;
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

export function linkFeatures(doc: LinkInput): LinkFeatures {
  const key = titleKey(doc.title);
  const tokens = words(doc.title);
  const doi = doc.doi?.toLowerCase() ?? null;
  const arxiv = arxivBase(doc.arxiv_id, doi);
  const type = (doc.doc_type ?? '').toLowerCase();
  const related = new Set<string>();
  for (const r of doc.relations) {
    if (!/preprint|version/.test(r.kind)) continue;
    if (r.doi) related.add(`d:${r.doi.toLowerCase()}`);
    if (r.arxiv) related.add(`a:${arxivBase(r.arxiv, null)}`);
  }
  return {
    id: doc.id,
    key,
    words: new Set(tokens),
    grams: trigrams(key),
    numbers: tokens.filter((t) => NUMBER_WORD.test(t)).join(' '),
    authors: doc.authors.map(familyKey).filter(Boolean),
    year: doc.year,
    doi,
    arxiv,
    preprint: type === 'preprint' || type === 'posted-content' || (doi !== null && PREPRINT_DOI.test(doi)) || (arxiv !== null && (doi === null || PREPRINT_DOI.test(doi))) || PREPRINT_VENUE.test(doc.venue ?? ''),
    notice: NOTICE_TITLE.test(doc.title) || NOTICE_TYPES.has(type),
    related,
  };
}

function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) common++;
  return (2 * common) / (a.size + b.size);
}

function authorOverlap(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  const common = new Set(a.filter((x) => setB.has(x))).size;
  return common / Math.min(new Set(a).size, setB.size);
}

const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** The verdict on one pair, or null when they should not be linked. */
export function judgePair(a: LinkFeatures, b: LinkFeatures): LinkVerdict | null {
  const relatedTo = (x: LinkFeatures, y: LinkFeatures) => (y.doi !== null && x.related.has(`d:${y.doi}`)) || (y.arxiv !== null && x.related.has(`a:${y.arxiv}`));
  if (relatedTo(a, b) || relatedTo(b, a)) return { method: 'relation', score: 1, evidence: { stated_by_source: true } };
  if (a.notice || b.notice) return null;
  if (a.arxiv && b.arxiv) {
    if (a.arxiv === b.arxiv) return { method: 'arxiv_version', score: 1, evidence: { arxiv_id: a.arxiv } };
    return null;
  }
  if (a.numbers !== b.numbers) return null;
  const exact = a.key === b.key;
  if (Math.min(a.key.length, b.key.length) < MIN_TITLE_KEY) return null;
  const titleSim = exact ? 1 : dice(a.grams, b.grams);
  if (titleSim < 0.82) return null;
  const overlap = authorOverlap(a.authors, b.authors);
  const firstSame = a.authors.length > 0 && a.authors[0] === b.authors[0];
  if (overlap < 0.5 && !firstSame) return null;
  const gap = a.year !== null && b.year !== null ? Math.abs(a.year - b.year) : 0;
  const evidence = { title_similarity: rounded(titleSim), author_overlap: rounded(overlap), year_gap: gap };
  const score = rounded(0.7 * titleSim + 0.3 * Math.max(overlap, firstSame ? 0.5 : 0));
  if (a.preprint !== b.preprint) {
    if (gap > 3) return null;
    return { method: 'preprint_published', score, evidence: { ...evidence, preprint: a.preprint ? a.id : b.id } };
  }
  if (a.doi && b.doi && !a.preprint && !b.preprint) {
    if (titleSim >= 0.97 && overlap >= 0.8 && gap <= 1) return { method: 'doi_variant', score, evidence: { ...evidence, dois: [a.doi, b.doi] } };
    return null;
  }
  if (titleSim >= 0.9 && gap <= 2) return { method: 'title_variant', score, evidence };
  return null;
}
