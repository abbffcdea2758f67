/**
 * What kind of work a record describes, coarsely: a paper (article, preprint,
 * proceedings paper, chapter, review article, report…) or one of the works
 * that share a paper's title without being it. Librarians' practice
 * (JabRef's duplicate check refuses different entry types; Zotero merges only
 * items of one type): a dataset, software, a thesis, a notice (erratum,
 * correction, retraction), a comment or reply, a review of another work or a
 * conference abstract never becomes the paper's document by title.
 *
 * The type is the adapters' vocabulary (sources/types.ts: each adapter maps
 * its source's own names onto it); the title and venue catch what a source
 * types as an article ("Erratum: …", "Abstract 1234: …", a journal's meeting
 * abstracts supplement).
 */
export type WorkClass = 'paper' | 'dataset' | 'software' | 'thesis' | 'notice' | 'comment' | 'review-of-work' | 'abstract';

const BY_TYPE: Record<string, WorkClass> = {
  dataset: 'dataset',
  database: 'dataset',
  component: 'dataset',
  'supplementary-materials': 'dataset',
  image: 'dataset',
  video: 'dataset',
  audio: 'dataset',
  map: 'dataset',
  software: 'software',
  workflow: 'software',
  thesis: 'thesis',
  dissertation: 'thesis',
  correction: 'notice',
  erratum: 'notice',
  retraction: 'notice',
  'expression-of-concern': 'notice',
  addendum: 'notice',
  withdrawal: 'notice',
  comment: 'comment',
  reply: 'comment',
  editorial: 'comment',
  'peer-review': 'review-of-work',
  'book-review': 'review-of-work',
  'conference-abstract': 'abstract',
  poster: 'abstract',
  presentation: 'abstract',
  lecture: 'abstract',
};

/** Notices and comments as their titles announce them. */
const NOTICE_TITLE =
  /^\s*(erratum|errata|corrigendum|corrigenda|correction|retraction|retracted|withdrawn|withdrawal|expression of concern|addendum|publisher'?s?\s+note|notice of)\b/i;
const COMMENT_TITLE = /^\s*(comments?\s+(on|to)|commentary\s+on|reply|replies|response\s+to|authors?'?\s+(reply|response)|rebuttal|editorial|in\s+reply|re:)(?=\W)/i;
/** Reviews of another work as their titles announce them ("Referee report for: X", "Review of: X", "Book review: X"). */
const REVIEW_TITLE = /^\s*(referee report|reviewer report|peer review report|decision letter|book review|review of\s*[:"“'«])/i;
/** Abstract numbers as meetings print them: "Abstract 1234:", "Poster 12 -", "P-123:", "OP-12." (never "p53: …"). */
const ABSTRACT_TITLE = /^\s*((abstract|poster|oral presentation)\s*(no\.?\s*|#\s*)?[a-z]{0,3}-?\d+[a-z]?|(p|op|pp|po|oa|lb|ps)-\d{1,4}[a-z]?)\s*[:.\-–]/i;
const ABSTRACT_VENUE = /\b(meeting abstracts?|abstracts? (book|of papers|supplement)|abstract book|conference abstracts?|congress abstracts?)\b|^abstracts\b/i;
const THESIS_VENUE = /\b(dissertation abstracts|proquest dissertations|dissertations? (and|&) theses)\b/i;

/** DOI prefixes of repositories that hold data only (Dryad, PANGAEA, Dataverse, Mendeley Data, GBIF): a record there of no known type is a dataset. */
const DATA_DOI = /^10\.(5061|1594|7910|17632|15468)\//;
const UNTYPED = new Set(['other', 'misc', 'unknown', 'posted-content']);

/** The class of a record from its type, title, venue and DOI (any may be missing: a paper, then). */
export function workClass(type: string | null | undefined, title?: string | null, venue?: string | null, doi?: string | null): WorkClass {
  const byType = type ? BY_TYPE[type.toLowerCase()] : undefined;
  if (byType) return byType;
  if (doi && DATA_DOI.test(doi) && (!type || UNTYPED.has(type.toLowerCase()))) return 'dataset';
  if (title) {
    if (NOTICE_TITLE.test(title)) return 'notice';
    if (COMMENT_TITLE.test(title)) return 'comment';
    if (REVIEW_TITLE.test(title)) return 'review-of-work';
    if (ABSTRACT_TITLE.test(title)) return 'abstract';
  }
  if (venue) {
    if (ABSTRACT_VENUE.test(venue)) return 'abstract';
    if (THESIS_VENUE.test(venue)) return 'thesis';
  }
  return 'paper';
}

/** Preprints by type, as merge and the link scan read them. */
export const isPreprintType = (type: string | null | undefined) => type === 'preprint' || type === 'posted-content';
