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
  /**
   * Facets: per filter (authors, categories, sources, years), values and paper counts, each facet
   * applying every filter but its own. Besides the spec's fields (total, limit_per_facet, facets.*.
   * distinct_values and values) the answer says how exact it is: each facet carries `exact` and
   * `counted_papers`, and the answer an overall `exact`. A facet with no other filter is read from
   * counters kept exact as papers are stored; otherwise it counts at most 10,000 matching papers
   * (COUNT_BOUND), and beyond that it counts over the 10,000 most recently added of them with
   * exact: false (each count then a lower bound). `total` is always exact.
   */
  route('POST', '/api/explorer/facets', async (event, { ctx }) => explorerFacets(ctx, parseFacetsBody(await readJson(event)))),
  route('POST', '/api/explorer/export', async (event, { ctx }) => {
    const rendered = exportExplorer(ctx, parseExportBody(await readJson(event)));
    const response = fileResponse(rendered.text, rendered.contentType, rendered.filename);
    response.headers.set('x-svc-count', String(rendered.count));
    return response;
  }),
  route('GET', '/api/documents/{doc_id}/why', (_event, { ctx }, p) => whyDocument(ctx, idParam(p.doc_id, 'doc_id'))),
];
