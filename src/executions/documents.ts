/** The documents an execution found, in corpus order, with the sources that found each in that run. */
import type { Context } from '../context.js';
import { DOCUMENT_COLUMNS, documentView, urlOf, type DocumentRow, type DocumentView } from '../corpus/read.js';
import type { RunDocument } from '../wire/executions.js';

export type { RunDocument as ExecutionDocument } from '../wire/executions.js';

export function executionDocumentIds(ctx: Context, executionId: number): number[] {
  return ctx.db
    .prepare(
      `SELECT d.id FROM documents d JOIN (SELECT DISTINCT document_id FROM execution_documents WHERE execution_id = ?) e ON e.document_id = d.id
       ORDER BY d.sort_date DESC, d.id DESC`,
    )
    .pluck()
    .all(executionId) as number[];
}

export function executionDocumentsPage(ctx: Context, executionId: number, limit: number, offset: number): { total: number; documents: RunDocument[] } {
  const total = executionDocumentCount(ctx, executionId);
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

/** What a citation line shows of a document (report.ts). */
export type CitedDocument = Pick<DocumentView, 'title' | 'authors' | 'venue' | 'year' | 'doi' | 'arxiv_id' | 'pmid' | 'url'> & { is_new: boolean };

/**
 * The first `limit` documents of a run in corpus order, with only what a citation shows: the
 * report lists up to 500 after every run, and reading whole documents (abstracts, every JSON
 * list) for that took most of its time.
 */
export function executionCitations(ctx: Context, executionId: number, limit: number): CitedDocument[] {
  const rows = ctx.db
    .prepare(
      `SELECT d.title, d.authors_json, d.venue, d.year, d.doi, d.arxiv_id, d.pmid, d.landing_url, e.is_new FROM documents d
       JOIN (SELECT document_id, max(is_new) AS is_new FROM execution_documents WHERE execution_id = ? GROUP BY document_id) e ON e.document_id = d.id
       ORDER BY d.sort_date DESC, d.id DESC LIMIT ?`,
    )
    .all(executionId, limit) as (Pick<DocumentRow, 'title' | 'authors_json' | 'venue' | 'year' | 'doi' | 'arxiv_id' | 'pmid' | 'landing_url'> & { is_new: number })[];
  return rows.map((row) => ({
    title: row.title,
    authors: JSON.parse(row.authors_json),
    venue: row.venue,
    year: row.year,
    doi: row.doi,
    arxiv_id: row.arxiv_id,
    pmid: row.pmid,
    url: urlOf(row),
    is_new: row.is_new === 1,
  }));
}

/** How many documents a run found. */
export function executionDocumentCount(ctx: Context, executionId: number): number {
  return ctx.db.prepare('SELECT count(DISTINCT document_id) FROM execution_documents WHERE execution_id = ?').pluck().get(executionId) as number;
}

/** What an AI summary may see of a document: its public bibliographic record and its number in the report. */
export interface SummaryCandidate {
  number: number;
  title: string;
  authors: { name?: string | null; given?: string | null; family?: string | null }[];
  year: number | null;
  abstract: string | null;
  found_by: string[];
  is_new: boolean;
}

/**
 * Up to `limit` documents of a run for its AI summary: numbered as the report numbers them (its
 * first `reportLimit` lines, so every number can be looked up there), the run's new ones first,
 * then the others, each group in report order.
 */
export function summaryCandidates(ctx: Context, executionId: number, reportLimit: number, limit: number): SummaryCandidate[] {
  const rows = ctx.db
    .prepare(
      `SELECT * FROM (
         SELECT d.title, d.authors_json, d.year, d.abstract, e.found_by, e.is_new, row_number() OVER (ORDER BY d.sort_date DESC, d.id DESC) AS number FROM documents d
         JOIN (SELECT document_id, group_concat(source) AS found_by, max(is_new) AS is_new FROM execution_documents WHERE execution_id = ? GROUP BY document_id) e ON e.document_id = d.id
         ORDER BY d.sort_date DESC, d.id DESC LIMIT ?)
       ORDER BY is_new DESC, number LIMIT ?`,
    )
    .all(executionId, reportLimit, limit) as { title: string; authors_json: string; year: number | null; abstract: string | null; found_by: string; is_new: number; number: number }[];
  return rows.map((r) => ({ number: r.number, title: r.title, authors: JSON.parse(r.authors_json), year: r.year, abstract: r.abstract, found_by: r.found_by.split(',').sort(), is_new: r.is_new === 1 }));
}
