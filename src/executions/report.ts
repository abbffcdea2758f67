/**
 * A readable report of one run: what was asked, what each source answered
 * (and if nothing, why), and the documents found. Written to the reports
 * directory when the run ends; the report route renders the same text.
 */
import path from 'node:path';
import type { Context } from '../context.js';
import { followReportLines } from '../follow/report.js';
import { findSource } from '../sources/index.js';
import type { ZeroReason } from '../sources/types.js';
import { writeOwnerOnlyFile } from '../util/owned-files.js';
import { executionCitations, executionDocumentCount, type CitedDocument } from './documents.js';
import { laneLine, presentLane, SUMMARY_CAVEAT } from './ai-lane.js';
import { getExecution, getSources, setReportPath } from './repo.js';
import { searchWords, type RunSpec } from './request.js';
import { isRenderedReason, nothingReason, ZERO_REASON_MEANING } from './zero-reasons.js';
import { count } from '../util/words.js';

export const REPORT_DOCUMENT_LIMIT = 500;

function seconds(from: string, to: string | null): string {
  return to ? `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s` : 'still running';
}

export function citationLine(doc: Omit<CitedDocument, 'is_new'>): string {
  const names = doc.authors.map((a) => a.family ?? a.name);
  const authors = names.length === 0 ? '' : names.length > 3 ? `${names.slice(0, 3).join(', ')} et al.` : names.join(', ');
  const where = [doc.venue, doc.year].filter(Boolean).join(', ');
  const id = doc.doi ? `doi:${doc.doi}` : doc.arxiv_id ? `arXiv:${doc.arxiv_id}` : doc.pmid ? `PMID ${doc.pmid}` : (doc.url ?? '');
  return [doc.title.replace(/\.$/, '') + '.', authors && `${authors.replace(/\.$/, '')}.`, where && `${where.replace(/\.$/, '')}.`, id].filter(Boolean).join(' ');
}

/** The report's AI section: the summary labelled as the model's, or why there is none; nothing when AI was not asked for. */
function aiSection(ctx: Context, row: NonNullable<ReturnType<typeof getExecution>>): string[] {
  const lane = presentLane(row.ai_lane_json, row, ctx.clock.now().getTime());
  if (!lane.requested) return [];
  if (!lane.used || !lane.summary) return [laneLine(lane), ''];
  const considered = `${lane.documents_considered ?? 0} of ${lane.documents_total ?? row.result_count} documents considered`;
  return [
    `AI summary (${lane.provider ?? '?'} / ${lane.model ?? '?'}; ${SUMMARY_CAVEAT}; ${considered}; numbers are the documents' numbers below)`,
    ...lane.summary.split(/\r?\n/).map((l) => (l.trim() ? `  ${l.trimEnd()}` : '')),
    ...(lane.summary_truncated ? ['  [summary cut at its length limit]'] : []),
    '',
  ];
}

export interface ReportOptions {
  /** Leave the AI section out (an email for a routine whose email_ai_summary_enabled is off). */
  aiSummary?: boolean;
}

export function renderReport(ctx: Context, executionId: number, options: ReportOptions = {}): string | undefined {
  const row = getExecution(ctx.db, executionId);
  if (!row) return undefined;
  const spec = JSON.parse(row.parameters_json) as RunSpec;
  const lines: string[] = [];
  lines.push(`svc report: execution ${row.id} (${row.type})`, '');
  lines.push(`Query:     ${searchWords(spec)}`);
  if (spec.keywords.length) lines.push(`Keywords:  ${spec.keywords.join(', ')}`);
  if (spec.dateFrom || spec.dateTo) lines.push(`Window:    ${spec.dateFrom ?? 'any'} to ${spec.dateTo ?? 'any'}`);
  lines.push(`Sources:   ${spec.repositories.join(', ')} (up to ${spec.maxResults} each)`);
  lines.push(`Started:   ${row.started_at_utc}`);
  lines.push(`Finished:  ${row.finished_at_utc ?? '-'} (${seconds(row.started_at_utc, row.finished_at_utc)})`);
  lines.push(`Status:    ${row.status}${row.interrupted_reason ? ` (${row.interrupted_reason})` : ''}${row.error ? ` — ${row.error}` : ''}`);
  if (row.restarted_from) lines.push(`Restarted from execution ${row.restarted_from}`);
  lines.push(`Results:   ${count(row.result_count, 'document')} (${row.new_count} new to the corpus)`, '');
  if (options.aiSummary !== false) lines.push(...aiSection(ctx, row));
  lines.push('Sources');
  for (const s of getSources(ctx.db, executionId)) {
    const name = findSource(s.source)?.name ?? s.source;
    const timing = s.ms !== null ? `, ${count(s.pages, 'page')}, ${(s.ms / 1000).toFixed(1)} s` : '';
    if (s.record_count > 0) {
      lines.push(`  ${name.padEnd(18)} ${count(s.record_count, 'record')} (${s.new_count} new)${timing}`);
      if (s.message) lines.push(`  ${''.padEnd(18)} note: ${s.message}`);
    } else {
      lines.push(`  ${name.padEnd(18)} nothing: ${nothingReason(s.zero_reason, s.status)}${timing}`);
      if (s.message) lines.push(`  ${''.padEnd(18)} ${s.message}`);
      if (isRenderedReason(s.zero_reason)) lines.push(`  ${''.padEnd(18)} (${ZERO_REASON_MEANING[s.zero_reason as ZeroReason] ?? s.zero_reason})`);
    }
  }
  lines.push(...followReportLines(ctx, executionId)); // area: follow — a routine following a profile for retractions
  const total = executionDocumentCount(ctx, executionId);
  const documents = executionCitations(ctx, executionId, REPORT_DOCUMENT_LIMIT);
  lines.push('', `Documents (${total}, newest first)`);
  documents.forEach((doc, i) => lines.push(`  ${String(i + 1).padStart(3)}. ${citationLine(doc)}${doc.is_new ? '' : ' [seen before]'}`));
  if (total > documents.length) lines.push(`  … and ${total - documents.length} more (export the references for the full list)`);
  return lines.join('\n') + '\n';
}

/** Where reports go: the storage setting, else <data dir>/reports. */
export function reportsDir(ctx: Context): string {
  const configured = String(ctx.settings.read('storage').reports_dir ?? '');
  return configured ? path.resolve(configured) : ctx.paths.reportsDir;
}

export function writeReportFile(ctx: Context, executionId: number): string | null {
  const text = renderReport(ctx, executionId);
  if (!text) return null;
  const file = path.join(reportsDir(ctx), `execution-${executionId}.txt`);
  try {
    writeOwnerOnlyFile(file, text);
    setReportPath(ctx.db, executionId, file);
    return file;
  } catch (err) {
    ctx.log.warn(`could not write the report of execution ${executionId}`, { error: (err as Error).message });
    return null;
  }
}
