/** The documents an execution found, in corpus order, with the sources that found each in that run. */
import type { Context } from '../context.js';
import { DOCUMENT_COLUMNS, documentView, type DocumentRow, type DocumentView } from '../corpus/read.js';

export interface ExecutionDocument extends DocumentView {
  found_by: string[];
  is_new: boolean;
}

export function executionDocumentIds(ctx: Context, executionId: number): number[] {
  return ctx.db
    .prepare(
      `SELECT d.id FROM documents d JOIN (SELECT DISTINCT document_id FROM execution_documents WHERE execution_id = ?) e ON e.document_id = d.id
       ORDER BY d.sort_date DESC, d.id DESC`,
    )
    .pluck()
    .all(executionId) as number[];
}

export function executionDocumentsPage(ctx: Context, executionId: number, limit: number, offset: number): { total: number; documents: ExecutionDocument[] } {
  const total = ctx.db.prepare('SELECT count(DISTINCT document_id) FROM execution_documents WHERE execution_id = ?').pluck().get(executionId) as number;
  const rows = ctx.db
    .prepare(
      `SELECT ${DOCUMENT_COLUMNS}, e.found_by, e.is_new FROM documents d
       JOIN (SELECT document_id, group_concat(source) AS found_by, max(is_new) AS is_new FROM execution_documents WHERE execution_id = ? GROUP BY document_id) e
         ON e.document_id = d.id
       ORDER BY d.sort_date DESC, d.id DESC LIMIT ? OFFSET ?`,
    )
    .all(executionId, limit, offset) as (DocumentRow & { found_by: string; is_new: number })[];
  return {
    total,
    documents: rows.map((row) => ({ ...documentView(row), found_by: row.found_by.split(',').sort(), is_new: row.is_new === 1 })),
  };
}
