/**
 * Reference exports in four formats. The union rule: document ids from every
 * selected execution plus explicit document ids, each record once, ordered by
 * publication date then id (both descending), rendered once.
 */
import type { Context } from '../context.js';
import { documentsByIds, type DocumentView } from '../corpus/read.js';
import { conflict, invalid, notFound, type SvcError } from '../errors.js';
import { executionDocumentIds } from '../executions/documents.js';
import { getExecution } from '../executions/repo.js';
import { renderBibtex } from './bibtex.js';
import { renderCsv } from './csv.js';
import { renderJson } from './json.js';
import { renderRis } from './ris.js';

export const REFERENCE_FORMATS = ['bibtex', 'ris', 'csv', 'json'] as const;
export type ReferenceFormat = (typeof REFERENCE_FORMATS)[number];

const FORMAT_INFO: Record<ReferenceFormat, { contentType: string; extension: string; render: (docs: DocumentView[], o: { includeIds?: boolean }) => string }> = {
  bibtex: { contentType: 'application/x-bibtex; charset=utf-8', extension: 'bib', render: renderBibtex },
  ris: { contentType: 'application/x-research-info-systems; charset=utf-8', extension: 'ris', render: renderRis },
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv', render: renderCsv },
  json: { contentType: 'application/json; charset=utf-8', extension: 'json', render: renderJson },
};

export interface RenderedReferences {
  format: ReferenceFormat;
  contentType: string;
  filename: string;
  count: number;
  text: string;
}

export function checkFormat(raw: string | null | undefined, loc: (string | number)[]): ReferenceFormat {
  const format = raw ?? 'bibtex';
  if (!(REFERENCE_FORMATS as readonly string[]).includes(format)) throw invalid(loc, `Input should be one of: ${REFERENCE_FORMATS.join(', ')}`, 'enum', format, { expected: REFERENCE_FORMATS });
  return format as ReferenceFormat;
}

export function renderReferences(docs: DocumentView[], format: ReferenceFormat, basename: string, includeIds = false): RenderedReferences {
  const info = FORMAT_INFO[format];
  return { format, contentType: info.contentType, filename: `${basename}.${info.extension}`, count: docs.length, text: info.render(docs, { includeIds }) };
}

/** The union of executions' documents and explicit ids; unknown executions or documents are 404. */
export function unionReferences(ctx: Context, executionIds: number[], documentIds: number[]): DocumentView[] {
  const ids = new Set<number>();
  for (const id of executionIds) {
    if (!getExecution(ctx.db, id)) throw notFound('execution_not_found', `No execution ${id}.`);
    for (const doc of executionDocumentIds(ctx, id)) ids.add(doc);
  }
  for (const id of documentIds) ids.add(id);
  const docs = documentsByIds(ctx.db, [...ids]);
  const found = new Set(docs.map((d) => d.id));
  const missing = documentIds.filter((id) => !found.has(id));
  if (missing.length) throw notFound('document_not_found', `No document ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}.`, { missing_document_ids: missing.slice(0, 100) });
  return docs;
}

/**
 * Why an export of these executions holds no reference: each one's status (a failed run
 * found nothing). The command line refuses it rather than write an empty file.
 * @example nothingToExport(ctx, [3]).message // "Execution 3 failed and holds no papers (…)"
 */
export function nothingToExport(ctx: Context, executionIds: number[]): SvcError {
  const runs = [...new Set(executionIds)].map((id) => ({ id, status: getExecution(ctx.db, id)?.status ?? 'gone' }));
  const said =
    runs.length === 1
      ? `Execution ${runs[0]!.id} ${runs[0]!.status === 'completed' ? 'completed with no papers' : `${runs[0]!.status} and holds no papers`} (\`svc executions show ${runs[0]!.id}\` says why)`
      : `Executions ${runs.map((r) => `${r.id} (${r.status})`).join(', ')} hold no papers`;
  return conflict('nothing_to_export', `${said}; there is nothing to export, so no file was written.`, { execution_ids: runs.map((r) => r.id) });
}
