/** Reading documents as the API, exports and reports show them. */
import type { Database } from 'better-sqlite3';
import type { StoredDocument as DocumentView } from '../wire/documents.js';

export interface DocumentRow {
  id: number;
  title: string;
  abstract: string | null;
  authors_json: string;
  publication_date: string | null;
  date_precision: string | null;
  year: number | null;
  venue: string | null;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  pmcid: string | null;
  ids_json: string;
  landing_url: string | null;
  pdf_url: string | null;
  categories_json: string;
  license: string | null;
  open_access: number | null;
  doc_type: string | null;
  is_retracted: number;
  relations_json: string;
  first_seen_at_utc: string;
  sort_date?: string;
  meta_source?: string | null;
}

export type { StoredDocument as DocumentView } from '../wire/documents.js';

export const DOCUMENT_COLUMNS = `d.id, d.title, d.abstract, d.authors_json, d.publication_date, d.date_precision, d.year, d.venue, d.doi, d.arxiv_id, d.pmid, d.pmcid,
  d.ids_json, d.landing_url, d.pdf_url, d.categories_json, d.license, d.open_access, d.doc_type, d.is_retracted, d.relations_json, d.first_seen_at_utc`;

/** The best link for people: the landing page, else the DOI, else arXiv, else PubMed. */
export function urlOf(row: Pick<DocumentRow, 'landing_url' | 'doi' | 'arxiv_id' | 'pmid'>): string | null {
  if (row.landing_url) return row.landing_url;
  if (row.doi) return `https://doi.org/${row.doi}`;
  if (row.arxiv_id) return `https://arxiv.org/abs/${row.arxiv_id}`;
  if (row.pmid) return `https://pubmed.ncbi.nlm.nih.gov/${row.pmid}/`;
  return null;
}

export function documentView(row: DocumentRow): DocumentView {
  return {
    id: row.id,
    title: row.title,
    authors: JSON.parse(row.authors_json),
    abstract: row.abstract,
    publication_date: row.publication_date,
    date_precision: row.date_precision,
    year: row.year,
    venue: row.venue,
    doi: row.doi,
    arxiv_id: row.arxiv_id,
    pmid: row.pmid,
    pmcid: row.pmcid,
    ids: JSON.parse(row.ids_json),
    url: urlOf(row),
    pdf_url: row.pdf_url,
    categories: JSON.parse(row.categories_json),
    license: row.license,
    open_access: row.open_access === null ? null : row.open_access === 1,
    type: row.doc_type,
    is_retracted: row.is_retracted === 1,
    relations: JSON.parse(row.relations_json),
    first_seen_at_utc: row.first_seen_at_utc,
  };
}

/** Documents by id in corpus order: publication date descending, then id descending. Unknown ids are left out. */
export function documentsByIds(db: Database, ids: number[]): DocumentView[] {
  if (ids.length === 0) return [];
  const rows: DocumentRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    rows.push(...(db.prepare(`SELECT ${DOCUMENT_COLUMNS}, d.sort_date FROM documents d WHERE d.id IN (${chunk.map(() => '?').join(',')})`).all(...chunk) as DocumentRow[]));
  }
  return rows.sort(byCorpusOrder).map(documentView);
}

/** Publication date descending, then id descending. */
export function byCorpusOrder(a: { sort_date?: string; id: number }, b: { sort_date?: string; id: number }): number {
  const da = a.sort_date ?? '';
  const db = b.sort_date ?? '';
  return da === db ? b.id - a.id : da < db ? 1 : -1;
}

export function existingDocumentIds(db: Database, ids: number[]): Set<number> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const id of db.prepare(`SELECT id FROM documents WHERE id IN (${chunk.map(() => '?').join(',')})`).pluck().all(...chunk) as number[]) found.add(id);
  }
  return found;
}
