/**
 * How large one source answer may be: its page, each record read from it, and
 * each field of a record. svc-search(1) SOURCE CAPS states the same numbers; a
 * page over its cap fails the source as parse_failure naming the cap
 * (http.ts), a field over its cap is cut to it with a warning (cap-record.ts).
 *
 * The values keep real scholarly data whole. The largest real records are
 * collaboration papers: ATLAS and CMS sign with about 3,000 names (5,154 on
 * the 2015 Higgs mass paper; COVIDSurg's 2021 paper has 15,025), about 450 kB
 * a record with INSPIRE's author fields, so 100 of them make a page near
 * 45 MB; arXiv's Atom for the same 100 is about 13 MB. An ordinary 100-record
 * page is under 1 MB (the largest recorded one, test/fixtures, is 0.3 MB), a
 * real abstract rarely passes 10–20 kB, a title 1 kB.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

export interface SourceCaps {
  /** A page may hold this much for each record asked of it… */
  pageBytesPerRecord: number;
  /** …but never less than this (a few records can be large) … */
  pageBytesMin: number;
  /** …nor more than this. */
  pageBytesMax: number;
  /** A record as stored (its JSON); past it the author list, then relations and categories, are cut. */
  recordBytes: number;
  titleBytes: number;
  abstractBytes: number;
  /** Names in an author list. */
  authors: number;
  /** Each of an author's name, given and family name. */
  authorNameBytes: number;
  affiliationsPerAuthor: number;
  /** Any other text: venue, licence, type, an affiliation, a category, a relation's label; and identifiers and URLs (left out when over it: a cut identifier would name another work). */
  textBytes: number;
  /** Categories, and relations, of one record. */
  listItems: number;
}

export const SOURCE_CAPS: SourceCaps = {
  pageBytesPerRecord: 512 * KiB,
  pageBytesMin: 16 * MiB,
  pageBytesMax: 64 * MiB,
  recordBytes: 4 * MiB,
  titleBytes: 4 * KiB,
  abstractBytes: 64 * KiB,
  authors: 20_000,
  authorNameBytes: 512,
  affiliationsPerAuthor: 32,
  textBytes: 4 * KiB,
  listItems: 500,
};

/**
 * The cap of one page from a source asked `recordsAsked` records a page: 512 KiB each, at least
 * 16 MiB, at most 64 MiB (a dive of 100 results: 50 MiB; of 10: 16 MiB).
 */
export function pageCapBytes(caps: SourceCaps, recordsAsked: number): number {
  return Math.min(caps.pageBytesMax, Math.max(caps.pageBytesMin, recordsAsked * caps.pageBytesPerRecord));
}
