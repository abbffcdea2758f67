/**
 * The corpus's SQL that is not merge's hot path: folding documents together
 * and reading provenance. Prepared once per connection.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { NormalizedRecord } from '../sources/types.js';
import type { DocumentRow } from './read.js';

export interface ProvenanceRow {
  source: string;
  native_id: string;
  first_seen_at_utc: string;
  last_seen_at_utc: string;
  record: NormalizedRecord;
}

/**
 * A provenance row's record as JSON text, whichever way it is stored (migration 32): whole, or a merge
 * patch against its document's canonical record. `s` names document_sources in the query.
 */
export const PROVENANCE_RECORD_JSON = `CASE WHEN s.record_base IS NULL THEN s.record_json
  ELSE json_patch((SELECT c.record FROM document_canonical_records c WHERE c.id = s.record_base), s.record_json) END`;

function prepare(db: Database) {
  const s = (sql: string) => db.prepare(sql);
  return {
    document: s('SELECT * FROM documents WHERE id = ?'),
    deleteDocument: s('DELETE FROM documents WHERE id = ?'),
    provenance: s(`SELECT s.source, s.native_id, s.first_seen_at_utc, s.last_seen_at_utc, ${PROVENANCE_RECORD_JSON} AS record_json
                   FROM document_sources s WHERE s.document_id = ? ORDER BY s.first_seen_at_utc, s.id`),
    sourceRecords: s(`SELECT s.id, s.source, s.native_id, s.first_seen_at_utc, s.last_seen_at_utc, ${PROVENANCE_RECORD_JSON} AS record_json
                      FROM document_sources s WHERE s.document_id = ? ORDER BY s.first_seen_at_utc, s.id`),
    severalRecords: s('SELECT document_id FROM document_sources WHERE document_id > ? GROUP BY document_id HAVING count(*) > 1 ORDER BY document_id LIMIT ?').pluck(),
    moveRows: s('UPDATE document_sources SET document_id = ? WHERE id IN (SELECT value FROM json_each(?))'),
    // Cleared before a fold moves them: the kept document is the older, so no run found the work first with the dropped one.
    runLinksNotNew: s('UPDATE execution_documents SET is_new = 0 WHERE document_id = ? AND is_new = 1'),
    moveRunRows: s('UPDATE OR IGNORE execution_documents SET document_id = ? WHERE document_id = ? AND source = ?'),
    copyRunRows: s(`INSERT OR IGNORE INTO execution_documents (execution_id, document_id, source, rank, is_new)
                    SELECT execution_id, ?, source, rank, is_new FROM execution_documents WHERE document_id = ? AND source = ?`),
    tables: s(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck(),
    foreignKeys: s('SELECT "table" AS target, "from" AS column FROM pragma_foreign_key_list(?)'),
    /** Per (table, column) referencing documents: move rows to the kept document, drop what would repeat. */
    moves: new Map<string, { move: Statement; drop: Statement }>(),
  };
}

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database, Statements>();

export function corpusStatements(db: Database): Statements {
  let st = cache.get(db);
  if (!st) cache.set(db, (st = prepare(db)));
  return st;
}

/** Every (table, column) with a foreign key to documents(id), read from the schema. */
export function documentReferences(db: Database): { table: string; column: string }[] {
  const st = corpusStatements(db);
  return (st.tables.all() as string[]).flatMap((table) =>
    (st.foreignKeys.all(table) as { target: string; column: string }[]).filter((fk) => fk.target === 'documents').map((fk) => ({ table, column: fk.column })),
  );
}

/** The statements that move one referencing column's rows from a dropped document to the kept one. */
export function moveStatements(db: Database, table: string, column: string): { move: Statement; drop: Statement } {
  const st = corpusStatements(db);
  const key = `${table}.${column}`;
  let found = st.moves.get(key);
  if (!found) {
    // Identifiers come from sqlite_master and pragma_foreign_key_list, never from input; quoted all the same.
    const t = `"${table.replace(/"/g, '""')}"`;
    const c = `"${column.replace(/"/g, '""')}"`;
    found = { move: db.prepare(`UPDATE OR IGNORE ${t} SET ${c} = ? WHERE ${c} = ?`), drop: db.prepare(`DELETE FROM ${t} WHERE ${c} = ?`) };
    st.moves.set(key, found);
  }
  return found;
}

export function readDocumentRow(db: Database, id: number): DocumentRow | undefined {
  return corpusStatements(db).document.get(id) as DocumentRow | undefined;
}

/** A run's links to a document no longer say it found the work new (a fold: mergeRecords answers the same for one batch). */
export function clearRunLinksNew(db: Database, id: number): void {
  corpusStatements(db).runLinksNotNew.run(id);
}

export function deleteDocumentRow(db: Database, id: number): void {
  corpusStatements(db).deleteDocument.run(id);
}

/** A provenance row with its row id, as the corpus audit moves it. */
export interface SourceRecordRow extends ProvenanceRow {
  id: number;
}

/** Every source's record of a document with its row id, oldest first. */
export function sourceRecordsOf(db: Database, documentId: number): SourceRecordRow[] {
  const st = corpusStatements(db);
  return (st.sourceRecords.all(documentId) as (Omit<SourceRecordRow, 'record'> & { record_json: string })[]).map(({ record_json, ...row }) => ({
    ...row,
    record: JSON.parse(record_json) as NormalizedRecord,
  }));
}

/** Documents with more than one provenance row, in id order after `afterId`. */
export function documentsWithSeveralRecords(db: Database, afterId: number, limit: number): number[] {
  return corpusStatements(db).severalRecords.all(afterId, limit) as number[];
}

/** Move provenance rows to another document (the move triggers keep counts and patches right). */
export function moveSourceRows(db: Database, rowIds: number[], documentId: number): void {
  corpusStatements(db).moveRows.run(documentId, JSON.stringify(rowIds));
}

/**
 * A run's list of the documents it found names the document and the source that gave it: the
 * rows of `sources` go with the records that left for `newId`; a source that also gave a record
 * that stayed keeps its row and gets one on the new document too (which record the run saw is
 * not recorded).
 */
export function followRunRows(db: Database, fromId: number, newId: number, sources: string[], sourcesStaying: Set<string>): void {
  const st = corpusStatements(db);
  for (const source of sources) {
    if (sourcesStaying.has(source)) st.copyRunRows.run(newId, fromId, source);
    else st.moveRunRows.run(newId, fromId, source);
  }
}

/** Every source's record of a document, oldest first. */
export function provenanceOf(db: Database, documentId: number): ProvenanceRow[] {
  return (corpusStatements(db).provenance.all(documentId) as (Omit<ProvenanceRow, 'record'> & { record_json: string })[]).map(({ record_json, ...row }) => ({
    ...row,
    record: JSON.parse(record_json) as NormalizedRecord,
  }));
}
