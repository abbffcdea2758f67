import * as v from 'valibot';
import { CHECK_LIMIT, startCheck, stopCheck } from '../../src/lifecycle/check.js';
import { EVENT_KINDS } from '../../src/lifecycle/repo.js';
import { documentLifecycle, EVENTS_LIMIT, lifecycleForDocuments, lifecycleOverview, MAX_FOR_DOCUMENTS, runView } from '../../src/lifecycle/service.js';
import { queryOf, readValid } from '../body.js';
import { enumQuery, idParam, intQuery } from '../params.js';
import { route } from '../registry.js';

const CheckBody = v.nullish(
  v.object({
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(CHECK_LIMIT.min), v.maxValue(CHECK_LIMIT.max)), CHECK_LIMIT.default),
    run_until_done: v.optional(v.boolean(), false),
  }),
);
const ForDocumentsBody = v.object({
  document_ids: v.optional(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.maxLength(MAX_FOR_DOCUMENTS)), []),
});

export const lifecycleRoutes = [
  route('GET', '/api/lifecycle', (event, { ctx }) => {
    const q = queryOf(event);
    return lifecycleOverview(ctx, {
      kind: enumQuery(q, 'kind', EVENT_KINDS),
      limit: intQuery(q, 'limit', EVENTS_LIMIT.default, EVENTS_LIMIT.min, EVENTS_LIMIT.max),
      offset: intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    });
  }),
  route('POST', '/api/lifecycle/check', async (event, { ctx }) => {
    const body = (await readValid(event, CheckBody, { optional: true })) ?? { limit: CHECK_LIMIT.default, run_until_done: false };
    const { run } = startCheck(ctx, { limit: body.limit, runUntilDone: body.run_until_done });
    event.res.status = 202;
    return runView(run);
  }),
  route('POST', '/api/lifecycle/stop', (_event, { ctx }) => stopCheck(ctx)),
  route('POST', '/api/lifecycle/for-documents', async (event, { ctx }) => lifecycleForDocuments(ctx, (await readValid(event, ForDocumentsBody)).document_ids)),
  route('GET', '/api/documents/{doc_id}/lifecycle', (_event, { ctx }, p) => documentLifecycle(ctx, idParam(p.doc_id, 'doc_id'))),
];
