import * as v from 'valibot';
import { invalid, SvcError } from '../../src/errors.js';
import { createConfiguration, deleteConfiguration, listConfigurations, updateConfiguration } from '../../src/configurations/service.js';
import { CONFIG_TYPES } from '../../src/configurations/schema.js';
import { exportConfigurations, importConfigurations, MAX_EXPORT_IDS, MAX_IMPORT_BYTES } from '../../src/configurations/transfer.js';
import { queryOf, readBodyBytes, readJson, readValid } from '../body.js';
import { enumQuery, idParam } from '../params.js';
import { route } from '../registry.js';
import { fileResponse } from './executions.js';

const ExportBody = v.object({ ids: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.minLength(1), v.maxLength(MAX_EXPORT_IDS)) });

export const configurationRoutes = [
  route('GET', '/api/configurations', (event, { ctx }) => listConfigurations(ctx, enumQuery(queryOf(event), 'config_type', CONFIG_TYPES))),
  route('POST', '/api/configurations', async (event, { ctx }) => {
    const created = createConfiguration(ctx, await readJson(event));
    event.res.status = 201;
    return created;
  }),
  route('POST', '/api/configurations/export', async (event, { ctx }) => {
    const body = await readValid(event, ExportBody);
    const file = exportConfigurations(ctx, body.ids);
    return fileResponse(file.text, 'application/json; charset=utf-8', file.filename);
  }),
  route('POST', '/api/configurations/import', async (event, { ctx }) => {
    const type = event.req.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) throw new SvcError(415, 'unsupported_media_type', 'Send the files as multipart/form-data in the field "files".');
    // The size limit is enforced on the raw bytes before anything is parsed.
    const bytes = await readBodyBytes(event, MAX_IMPORT_BYTES);
    let form: FormData;
    try {
      form = await new Request('http://svc.invalid/', { method: 'POST', headers: { 'content-type': type }, body: bytes }).formData();
    } catch {
      throw invalid(['body'], 'The multipart body cannot be read', 'multipart_invalid');
    }
    const parts = form.getAll('files');
    const files = await Promise.all(
      parts.map(async (part, i) => {
        if (typeof part === 'string') throw invalid(['body', 'files', i], 'Each part of "files" must be a file', 'file_type');
        return { name: part.name, text: await part.text() };
      }),
    );
    const answer = importConfigurations(ctx, files);
    event.res.status = 201;
    return answer;
  }),
  route('PUT', '/api/configurations/{config_id}', async (event, { ctx }, p) => {
    const id = idParam(p.config_id, 'config_id');
    return updateConfiguration(ctx, id, await readJson(event));
  }),
  route('DELETE', '/api/configurations/{config_id}', (_event, { ctx }, p) => deleteConfiguration(ctx, idParam(p.config_id, 'config_id'))),
];
