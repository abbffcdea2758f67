/**
 * SQL of the coverage audit, as fixed prepared statements: id sets travel as
 * one JSON array parameter (json_each), an open window end as NULL, so no
 * statement is assembled from pieces.
 */
import type { Database, Statement } from 'better-sqlite3';
import { perDatabase } from '../db/per-database.js';

export interface ExampleRow {
  id: number;
  title: string;
  abstract: string | null;
  publication_date: string | null;
  doi: string | null;
  sources: string | null;
}

/** A publication date (YYYY, YYYY-MM or YYYY-MM-DD) as the first and last day it may mean. */
const PUB_START = `CASE length(d.publication_date) WHEN 4 THEN d.publication_date || '-01-01' WHEN 7 THEN d.publication_date || '-01' ELSE d.publication_date END`;
const PUB_END = `CASE length(d.publication_date) WHEN 4 THEN d.publication_date || '-12-31' WHEN 7 THEN d.publication_date || '-31' ELSE d.publication_date END`;
const IN_IDS = 'd.id IN (SELECT value FROM json_each(@ids))';

function prepare(db: Database) {
  const s = (sql: string): Statement => db.prepare(sql);
  const q = {
    runSpecs: s('SELECT parameters_json FROM executions WHERE routine_id = ?').pluck(),
    termHits: s('SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?').pluck(),
    resultIds: s('SELECT DISTINCT ed.document_id FROM execution_documents ed JOIN executions e ON e.id = ed.execution_id WHERE e.routine_id = ?').pluck(),
    inWindow: s(`SELECT d.id FROM documents d WHERE ${IN_IDS} AND d.publication_date IS NOT NULL AND (@from IS NULL OR ${PUB_END} >= @from) AND (@to IS NULL OR ${PUB_START} <= @to)`).pluck(),
    undated: s(`SELECT count(*) FROM documents d WHERE ${IN_IDS} AND d.publication_date IS NULL`).pluck(),
    withoutAbstract: s(`SELECT count(*) FROM documents d WHERE ${IN_IDS} AND (d.abstract IS NULL OR d.abstract = '')`).pluck(),
    examples: s(`SELECT d.id, d.title, d.abstract, d.publication_date, d.doi, (SELECT group_concat(DISTINCT source) FROM document_sources s WHERE s.document_id = d.id) AS sources
      FROM documents d WHERE ${IN_IDS} ORDER BY d.sort_date DESC, d.id DESC LIMIT @limit OFFSET @offset`),
  };
  const ids = (set: Iterable<number>) => JSON.stringify([...set]);
  return {
    /** The stored RunSpec JSON of every run of the routine. */
    runSpecs: (routineId: number) => q.runSpecs.all(routineId) as string[],
    /** Documents whose title or abstract match one full-text query. */
    termHits: (match: string) => q.termHits.all(match) as number[],
    /** Documents any run of the routine found. */
    resultIds: (routineId: number) => q.resultIds.all(routineId) as number[],
    /** Of `set`, the dated documents whose publication may fall in the window (null ends are open). */
    inWindow: (set: Iterable<number>, from: string | null, to: string | null) => q.inWindow.all({ ids: ids(set), from, to }) as number[],
    undated: (set: Iterable<number>) => q.undated.get({ ids: ids(set) }) as number,
    withoutAbstract: (set: Iterable<number>) => q.withoutAbstract.get({ ids: ids(set) }) as number,
    /** One page of `set`, newest first. */
    examples: (set: Iterable<number>, limit: number, offset: number) => q.examples.all({ ids: ids(set), limit, offset }) as ExampleRow[],
  };
}

export type CoverageRepo = ReturnType<typeof prepare>;

export const coverageRepo: (db: Database) => CoverageRepo = perDatabase(prepare);
