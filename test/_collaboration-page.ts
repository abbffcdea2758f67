/**
 * A parser for tests of large parsed pages: its "answer" is two numbers, and
 * it makes that many records with that many authors each (collaboration papers,
 * within the caps), so a parse worker hands back a large page at once without
 * the seconds an XML page of that size takes to parse.
 */
import { author, makeRecord } from '../src/sources/normalize.js';
import { pageParser } from '../src/sources/parse-page.js';
import type { ParsedPage } from '../src/sources/types.js';

/** "100 3000": 100 records of 3,000 authors, each with an affiliation. */
export function parseCollaborationPage(text: string): ParsedPage {
  const [records, authors] = text.trim().split(/\s+/).map(Number) as [number, number];
  return {
    records: Array.from({ length: records }, (_, r) =>
      makeRecord({
        source: 'arxiv',
        nativeId: `2401.${String(10000 + r)}`,
        title: `Measurement ${r} of a collaboration`,
        authors: Array.from({ length: authors }, (_, a) => author(`Given${a} Family${a}-${r}`, { affiliations: [`Institute ${a % 200}`] })),
        ids: { arxiv: `2401.${String(10000 + r)}` },
      }),
    ),
    received: records,
    total: records,
  };
}

export const COLLABORATION_PAGE = pageParser(import.meta.url, parseCollaborationPage);
