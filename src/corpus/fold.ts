/**
 * Folding two documents into one, when a record proves they are the same work
 * (its DOI names one and its arXiv id the other, say). Every row that points
 * at the dropped document — provenance, execution links, Library paper links,
 * whatever later tables add — is moved to the kept one (found through the
 * schema's foreign keys, so new tables are covered without a list to keep up);
 * rows that would then repeat are dropped with the document. A run's links to
 * the dropped document move as not new: the kept document is the older, so the
 * work was known before the dropped one was made (as mergeRecords answers when
 * both records are in one batch, whether a page is stored in one transaction or
 * several: executions/store-records.ts).
 */
import type { Database } from 'better-sqlite3';
import type { NormalizedRecord } from '../sources/types.js';
import type { DocumentRow } from './read.js';
import { clearRunLinksNew, deleteDocumentRow, documentReferences as readReferences, moveStatements, readDocumentRow } from './repo.js';

/** A document row as merge and fold read it. */
export type StoredDocument = DocumentRow;

const referencesCache = new WeakMap<Database, { table: string; column: string }[]>();

/** Every (table, column) with a foreign key to documents(id) (read once per connection). */
export function documentReferences(db: Database): { table: string; column: string }[] {
  let found = referencesCache.get(db);
  if (!found) referencesCache.set(db, (found = readReferences(db)));
  return found;
}

/** Move everything of `dropId` to `keepId` and delete `dropId`; answers the dropped row so its fields can be joined. */
export function foldDocument(db: Database, keepId: number, dropId: number): StoredDocument {
  const dropped = readDocumentRow(db, dropId) as StoredDocument;
  clearRunLinksNew(db, dropId);
  for (const { table, column } of documentReferences(db)) {
    const { move, drop } = moveStatements(db, table, column);
    move.run(keepId, dropId);
    drop.run(dropId);
  }
  deleteDocumentRow(db, dropId);
  return dropped;
}

/** A stored document seen as a record, to join its fields into another document. */
export function rowAsRecord(row: StoredDocument): NormalizedRecord {
  const ids = { ...(JSON.parse(row.ids_json) as Record<string, string>) };
  if (row.arxiv_id) ids.arxiv = row.arxiv_id;
  if (row.pmid) ids.pmid = row.pmid;
  if (row.pmcid) ids.pmcid = row.pmcid;
  return {
    // The folded document speaks with the authority of the source that described it.
    source: row.meta_source ?? '',
    nativeId: '',
    title: row.title,
    authors: JSON.parse(row.authors_json),
    abstract: row.abstract ?? undefined,
    publicationDate: row.publication_date ?? undefined,
    datePrecision: (row.date_precision as NormalizedRecord['datePrecision']) ?? undefined,
    venue: row.venue ?? undefined,
    doi: row.doi ?? undefined,
    ids,
    landingUrl: row.landing_url ?? undefined,
    pdfUrl: row.pdf_url ?? undefined,
    categories: JSON.parse(row.categories_json),
    license: row.license ?? undefined,
    openAccess: row.open_access === null ? undefined : row.open_access === 1,
    type: row.doc_type ?? undefined,
    isRetracted: row.is_retracted === 1,
    relations: JSON.parse(row.relations_json),
  };
}
