/**
 * GET …/answers/{answer_id}/export: one saved row read once (a corrupt row is
 * the explicit answer_unreadable refusal, never repaired), then the ZIP or
 * the HTML built whole in memory, so a limit refuses (413 export_limit)
 * before any byte is offered for download.
 */
import type { Context } from '../context.js';
import type { ProjectRef } from '../evidence/service.js';
import { buildAnswerHtml } from './export-html.js';
import { buildAnswerZip } from './export-zip.js';
import { showAnswer } from './history.js';

export const EXPORT_FORMATS = ['zip', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface AnswerExport { bytes: Buffer; headers: Record<string, string> }

export async function exportAnswer(ctx: Context, ref: ProjectRef & { answerId: string; format: ExportFormat }): Promise<AnswerExport> {
  const view = showAnswer(ctx, ref);
  if (ref.format === 'html') return buildAnswerHtml(view);
  const bytes = await buildAnswerZip(view);
  const { sha256Hex } = await import('./canonical-json.js');
  return {
    bytes,
    headers: {
      'content-type': 'application/zip',
      'content-disposition': 'attachment; filename="selected-answer.zip"',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-svc-vault': view.vault_id,
      'x-svc-project': view.project_id,
      'x-svc-bundle': view.answer_id,
      'x-svc-version': view.request_sha256,
      'content-length': String(bytes.length),
      'x-svc-sha256': sha256Hex(bytes),
    },
  };
}
