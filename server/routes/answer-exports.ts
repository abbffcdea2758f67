/**
 * GET /api/evidence/projects/{project_id}/answers/{answer_id}/export
 * ?expected_vault_id=…&format=zip|html (spec 2, Exports). Other or omitted
 * formats are 422; the Library guard runs first (through answerRoute).
 */
import { EXPORT_FORMATS, exportAnswer, type ExportFormat } from '../../src/answers/export.js';
import { SvcError } from '../../src/errors.js';
import { strictQuery, uuidParam } from '../library-input.js';
import type { RouteDef } from '../registry.js';
import { answerRoute } from './answers.js';

export const answerExportRoutes: RouteDef[] = [
  answerRoute('GET', '/api/evidence/projects/{project_id}/answers/{answer_id}/export', async (event, deps, params) => {
    const q = strictQuery(event, { expected_vault_id: { required: true, kind: 'uuid' }, format: { required: true, kind: 'string', min: 1, max: 16 } });
    if (!(EXPORT_FORMATS as readonly string[]).includes(q.format)) {
      throw new SvcError(422, 'invalid_format', 'format must be zip or html.', { loc: ['query', 'format'] });
    }
    const r = await exportAnswer(deps.ctx, {
      expectedVaultId: q.expected_vault_id,
      projectId: uuidParam(params, 'project_id'),
      answerId: uuidParam(params, 'answer_id'),
      format: q.format as ExportFormat,
    });
    return new Response(new Uint8Array(r.bytes), { status: 200, headers: r.headers });
  }),
];
