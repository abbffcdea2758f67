/**
 * GET /api/evidence/projects/{project_id}/answers/{answer_id}/export
 * ?expected_vault_id=…&format=zip|html (spec 2, Exports). Other or omitted
 * formats are 422; the Library guard runs first (through answerRoute).
 */
import { EXPORT_FORMATS, exportAnswer, type ExportFormat } from '../../src/answers/export.js';
import * as v from 'valibot';
import { say, text } from '../../src/util/strict-schemas.js';
import { strictQuery, uuidParam } from '../params.js';
import type { RouteDef } from '../registry.js';
import { answerRoute, VAULT } from './answers.js';

const FORMAT = v.pipe(text(1, 16), v.picklist(EXPORT_FORMATS, say('invalid_format', 'format must be zip or html.')));

export const answerExportRoutes: RouteDef[] = [
  answerRoute('GET', '/api/evidence/projects/{project_id}/answers/{answer_id}/export', async (event, deps, params) => {
    const q = strictQuery(event, { ...VAULT, format: FORMAT });
    const r = await exportAnswer(deps.ctx, {
      expectedVaultId: q.expected_vault_id,
      projectId: uuidParam(params, 'project_id'),
      answerId: uuidParam(params, 'answer_id'),
      format: q.format as ExportFormat,
    });
    return new Response(new Uint8Array(r.bytes), { status: 200, headers: r.headers });
  }),
];
