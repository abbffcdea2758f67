/**
 * When a record and a document share no identifier, a title alone never makes
 * them one document: a dataset, software, thesis or erratum under the paper's
 * title, or another group's paper under the same words, would lose its own
 * identity inside the paper's. The title match must be confirmed:
 *
 * - the same title key (titleKey: markup, accents, case and punctuation aside);
 * - the same class of work (work-class.ts: a paper with a paper, a dataset
 *   with a dataset; never a dataset, software, thesis, notice, comment, review
 *   of another work or conference abstract with a paper);
 * - publication years at most one apart (online and print dates differ);
 * - no identifier of one kind that differs (two DOIs, arXiv ids, PMIDs or
 *   PMCIDs: two records that name different ones are two works, or two
 *   versions the link scan can tell apart; a DOI on one side only is no conflict);
 * - authors that agree as people (people.ts: a shared co-author where both name
 *   co-authors, initials meeting full names).
 */
import type { NormalizedRecord } from '../sources/types.js';
import { compareAuthors, peopleOf } from './people.js';
import { workClass } from './work-class.js';

/** What a candidate document is read with (d names documents). */
export const TITLE_MATCH_COLUMNS = 'd.id, d.title, d.doc_type, d.venue, d.year, d.authors_json, d.doi, d.arxiv_id, d.pmid, d.pmcid';

export interface TitleMatchRow {
  id: number;
  title: string;
  doc_type: string | null;
  venue: string | null;
  year: number | null;
  authors_json: string;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  pmcid: string | null;
}

const differ = (a: string | null | undefined, b: string | null | undefined) => Boolean(a && b && a !== b);

/** Does a document with the record's title key stand for the same work? (The caller found it by title key and year ±1.) */
export function confirmTitleMatch(record: NormalizedRecord, row: TitleMatchRow): boolean {
  if (workClass(record.type, record.title, record.venue, record.doi) !== workClass(row.doc_type, row.title, row.venue, row.doi)) return false;
  if (differ(record.doi, row.doi) || differ(record.ids.arxiv, row.arxiv_id) || differ(record.ids.pmid, row.pmid) || differ(record.ids.pmcid, row.pmcid)) return false;
  return compareAuthors(peopleOf(record.authors), peopleOf(JSON.parse(row.authors_json))).verdict === 'agree';
}
