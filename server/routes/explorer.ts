import { exportExplorer } from '../../src/explorer/export.js';
import { explorerFacets } from '../../src/explorer/facets.js';
import { parseExportBody, parseFacetsBody, parseSearchBody } from '../../src/explorer/filters.js';
import { searchExplorer } from '../../src/explorer/search.js';
import { whyDocument } from '../../src/explorer/why.js';
import { readJson } from '../body.js';
import { idParam } from '../params.js';
import { route } from '../registry.js';
import { fileResponse } from './executions.js';

export const explorerRoutes = [
  route('POST', '/api/explorer/search', async (event, { ctx }) => searchExplorer(ctx, parseSearchBody(await readJson(event)))),
  route('POST', '/api/explorer/facets', async (event, { ctx }) => explorerFacets(ctx, parseFacetsBody(await readJson(event)))),
  route('POST', '/api/explorer/export', async (event, { ctx }) => {
    const rendered = exportExplorer(ctx, parseExportBody(await readJson(event)));
    const response = fileResponse(rendered.text, rendered.contentType, rendered.filename);
    response.headers.set('x-svc-count', String(rendered.count));
    return response;
  }),
  route('GET', '/api/documents/{doc_id}/why', (_event, { ctx }, p) => whyDocument(ctx, idParam(p.doc_id, 'doc_id'))),
];
