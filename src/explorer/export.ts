/** Explorer export: every paper matching the filters (not the page), in corpus order, in any reference format. */
import type { Context } from '../context.js';
import { documentsByIds } from '../corpus/read.js';
import { tooLarge } from '../errors.js';
import { checkFormat, renderReferences, type RenderedReferences } from '../exports/references.js';
import type { Filters } from './filters.js';
import { ensureIndexed, filterWhere, prepared } from './repo.js';

/** The most papers one export renders (the reference export route's own document id limit). */
export const EXPLORER_EXPORT_MAX = 100_000;

export function exportExplorer(ctx: Context, request: { filters: Filters; format: string; includeIds: boolean }): RenderedReferences {
  const format = checkFormat(request.format, ['body', 'format']);
  ensureIndexed(ctx.db);
  const where = filterWhere(request.filters);
  const ids = prepared(ctx.db, `SELECT d.id FROM documents d WHERE ${where.sql} ORDER BY d.sort_date DESC, d.id DESC LIMIT ?`).pluck().all(...where.args, EXPLORER_EXPORT_MAX + 1) as number[];
  if (ids.length > EXPLORER_EXPORT_MAX) {
    throw tooLarge('export_too_large', `More than ${EXPLORER_EXPORT_MAX} papers match; narrow the filters (a date window, a source) and export in parts.`, { limit: EXPLORER_EXPORT_MAX });
  }
  return renderReferences(documentsByIds(ctx.db, ids), format, 'svc-explorer', request.includeIds);
}
