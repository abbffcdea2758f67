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

export function deleteDocumentRow(db: Database, id: number): void {
  corpusStatements(db).deleteDocument.run(id);
}

/** Every source's record of a document, oldest first. */
export function provenanceOf(db: Database, documentId: number): ProvenanceRow[] {
  return (corpusStatements(db).provenance.all(documentId) as (Omit<ProvenanceRow, 'record'> & { record_json: string })[]).map(({ record_json, ...row }) => ({
    ...row,
    record: JSON.parse(record_json) as NormalizedRecord,
  }));
}
