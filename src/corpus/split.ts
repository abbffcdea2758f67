/**
 * Splitting records that were never one work out of a document (the corpus
 * audit's write, audit.ts plans it). The document keeps its id for the records
 * it is really about, described anew from them alone; each group of records
 * that leaves becomes a new document described from its own records, and its
 * provenance rows move there whole (first and last seen kept). Everything else
 * that names the document (reading queue, profile matches, Library links,
 * lifecycle findings, links, vectors) stays with it; a run's list of found
 * documents follows the records it found (repo.ts followRunRows). One
 * transaction per document.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { NormalizedRecord } from '../sources/types.js';
import { identityKeys } from './identity-keys.js';
import { countNewDocumentYear, insertDocument, joinDocument, redescribeDocument, statements, type Statements } from './merge.js';
import { followRunRows, moveSourceRows } from './repo.js';

export interface RecordGroup {
  /** document_sources row ids. */
  rowIds: number[];
  sources: string[];
  records: NormalizedRecord[];
}

/** The record without the identifiers another document holds (the columns are unique; a record that held one would have joined it). */
function withFreeIdentifiers(st: Statements, record: NormalizedRecord): NormalizedRecord {
  const held = (lookup: Statement, value: string | undefined) => value !== undefined && lookup.get(value) !== undefined;
  const ids = { ...record.ids };
  if (held(st.byArxiv, ids.arxiv)) delete ids.arxiv;
  if (held(st.byPmid, ids.pmid)) delete ids.pmid;
  if (held(st.byPmcid, ids.pmcid)) delete ids.pmcid;
  return { ...record, doi: held(st.byDoi, record.doi) ? undefined : record.doi, ids };
}

/** Split `leaving` groups out of document `documentId`, `staying` describing it; answers the new documents' ids in order. */
export function splitDocument(db: Database, documentId: number, staying: RecordGroup, leaving: RecordGroup[], now: string): number[] {
  const st = statements(db);
  return db.transaction(() => {
    // First the document lets go of what only the leaving records gave it (their DOI, say), so the new documents can hold it.
    redescribeDocument(st, documentId, staying.records, now);
    const stayingSources = new Set(staying.sources);
    return leaving.map((group) => {
      const [first, ...rest] = group.records;
      const record = withFreeIdentifiers(st, first!);
      const inserted = insertDocument(st, record, identityKeys(record), now);
      countNewDocumentYear(st, inserted.year);
      for (const record of rest) joinDocument(st, inserted.id, record, now);
      moveSourceRows(db, group.rowIds, inserted.id);
      followRunRows(db, documentId, inserted.id, [...new Set(group.sources)], stayingSources);
      return inserted.id;
    });
  })();
}
