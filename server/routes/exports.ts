import * as v from 'valibot';
import { checkFormat, renderReferences, unionReferences } from '../../src/exports/references.js';
import { readValid } from '../body.js';
import { route } from '../registry.js';
import { fileResponse } from './executions.js';

const Ids = v.array(v.pipe(v.number(), v.integer(), v.minValue(1)));
const ReferenceExportBody = v.object({
  document_ids: v.optional(v.pipe(Ids, v.maxLength(100_000)), []),
  execution_ids: v.optional(v.nullable(v.pipe(Ids, v.maxLength(1000))), null),
  format: v.optional(v.string(), 'bibtex'),
  include_ids: v.optional(v.boolean(), false),
});

export const exportRoutes = [
  route('POST', '/api/export/references', async (event, { ctx }) => {
    const body = await readValid(event, ReferenceExportBody);
    const format = checkFormat(body.format, ['body', 'format']);
    const docs = unionReferences(ctx, body.execution_ids ?? [], body.document_ids);
    const rendered = renderReferences(docs, format, 'svc-references', body.include_ids);
    return fileResponse(rendered.text, rendered.contentType, rendered.filename);
  }),
];
