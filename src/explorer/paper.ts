/**
 * The compact view of a paper in explorer pages and the reading queue: what a
 * list row shows (id, title, authors, date, source, doi, url), plus the
 * sources that found it.
 */
import type { Database } from 'better-sqlite3';
import { identifiersOf } from '../corpus/identifiers.js';
import { readDocumentRow } from '../corpus/repo.js';
import type { Author } from '../sources/types.js';
import type { Paper } from '../wire/explorer.js';
import type { AuthorDetail, PaperDetail } from '../wire/papers.js';

export interface PaperRow {
  id: number;
  title: string;
  authors_json: string;
  publication_date: string | null;
  year: number | null;
  venue: string | null;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  landing_url: string | null;
  categories_json: string;
  doc_type: string | null;
  is_retracted: number;
  sort_date: string;
  sources: string | null;
}

export type { Paper } from '../wire/explorer.js';

/** Columns of `documents d` a paper needs, and its sources (distinct, comma-joined). */
export const PAPER_COLUMNS = `d.id, d.title, d.authors_json, d.publication_date, d.year, d.venue, d.doi, d.arxiv_id, d.pmid, d.landing_url, d.categories_json,
  d.doc_type, d.is_retracted, d.sort_date, (SELECT group_concat(DISTINCT s.source) FROM document_sources s WHERE s.document_id = d.id) AS sources`;

function urlOf(row: PaperRow): string | null {
  if (row.landing_url) return row.landing_url;
  if (row.doi) return `https://doi.org/${row.doi}`;
  if (row.arxiv_id) return `https://arxiv.org/abs/${row.arxiv_id}`;
  if (row.pmid) return `https://pubmed.ncbi.nlm.nih.gov/${row.pmid}/`;
  return null;
}

export function paperView(row: PaperRow): Paper {
  const sources = row.sources ? row.sources.split(',').sort() : [];
  return {
    id: row.id,
    title: row.title,
    authors: (JSON.parse(row.authors_json) as Author[]).map((a) => a.name),
    publication_date: row.publication_date,
    year: row.year,
    venue: row.venue,
    doi: row.doi,
    url: urlOf(row),
    source: sources[0] ?? null,
    sources,
    categories: JSON.parse(row.categories_json),
    type: row.doc_type,
    is_retracted: row.is_retracted === 1,
  };
}

const cache = new WeakMap<Database, ReturnType<Database['prepare']>>();

/** Papers by id, in the order given; unknown ids are left out. */
export function papersByIds(db: Database, ids: number[]): Paper[] {
  let one = cache.get(db);
  if (!one) cache.set(db, (one = db.prepare(`SELECT ${PAPER_COLUMNS} FROM documents d WHERE d.id = ?`)));
  const out: Paper[] = [];
  for (const id of ids) {
    const row = one.get(id) as PaperRow | undefined;
    if (row) out.push(paperView(row));
  }
  return out;
}

/**
 * One paper in full, or undefined when there is no such document: the list
 * view, plus the abstract, the authors with their ORCID iDs and affiliations
 * as the sources gave them, how precise the date is, every identifier with the
 * page it opens, and the full text's address and licence where a source gave them.
 */
export function paperDetail(db: Database, id: number): PaperDetail | undefined {
  const paper = papersByIds(db, [id])[0];
  const row = readDocumentRow(db, id);
  if (!paper || !row) return undefined;
  return {
    ...paper,
    abstract: row.abstract,
    author_details: JSON.parse(row.authors_json) as AuthorDetail[],
    date_precision: row.date_precision,
    identifiers: identifiersOf({ doi: row.doi, arxiv_id: row.arxiv_id, pmid: row.pmid, pmcid: row.pmcid, ids: JSON.parse(row.ids_json) }),
    pdf_url: row.pdf_url,
    license: row.license,
    open_access: row.open_access === null ? null : row.open_access === 1,
  };
}
