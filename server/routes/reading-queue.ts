import * as v from 'valibot';
import { invalid } from '../../src/errors.js';
import { listQueue, QUEUE_FILTERS, QUEUE_LIST_LIMIT, QUEUE_QUERY_MAX_LENGTH, QUEUE_STATUSES, removeFromQueue, saveToQueue, setQueueStatus } from '../../src/queue/service.js';
import { queryOf, readValid } from '../body.js';
import { enumQuery, idParam, intQuery } from '../params.js';
import { route } from '../registry.js';
import type { QueueSaved } from '../../src/wire/queue.js';

const SaveBody = v.object({ document_id: v.pipe(v.number(), v.integer(), v.minValue(1)) });
const StatusBody = v.object({ status: v.picklist(QUEUE_STATUSES) });

function textQuery(raw: string | null): string | undefined {
  if (raw !== null && raw.length > QUEUE_QUERY_MAX_LENGTH) {
    throw invalid(['query', 'q'], `String should have at most ${QUEUE_QUERY_MAX_LENGTH} characters`, 'string_too_long', undefined, { max_length: QUEUE_QUERY_MAX_LENGTH });
  }
  return raw ?? undefined;
}

export const readingQueueRoutes = [
  route('GET', '/api/reading-queue', (event, { ctx }) => {
    const q = queryOf(event);
    return listQueue(ctx, {
      status: enumQuery(q, 'status', QUEUE_FILTERS),
      limit: intQuery(q, 'limit', QUEUE_LIST_LIMIT.default, QUEUE_LIST_LIMIT.min, QUEUE_LIST_LIMIT.max),
      offset: intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
      query: textQuery(q.get('q')),
      documentId: q.has('document_id') ? intQuery(q, 'document_id', 0, 1, Number.MAX_SAFE_INTEGER) : undefined,
    });
  }),
  route('POST', '/api/reading-queue', async (event, { ctx }): Promise<QueueSaved> => {
    const { created, entry } = saveToQueue(ctx, (await readValid(event, SaveBody)).document_id);
    event.res.status = created ? 201 : 200;
    return { ...entry, created };
  }),
  route('PUT', '/api/reading-queue/{document_id}', async (event, { ctx }, p) => {
    const id = idParam(p.document_id, 'document_id');
    return setQueueStatus(ctx, id, (await readValid(event, StatusBody)).status);
  }),
  route('DELETE', '/api/reading-queue/{document_id}', (_event, { ctx }, p) => removeFromQueue(ctx, idParam(p.document_id, 'document_id'))),
];
