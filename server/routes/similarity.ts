import * as v from 'valibot';
import { backfillEstimate, embeddingStatus, probeLane, readEmbeddingSettings, writeEmbeddingSettings } from '../../src/similarity/service.js';
import { cancelBackfill, startBackfill, activeLane } from '../../src/similarity/backfill.js';
import { SIMILAR_DEFAULT_LIMIT, SIMILAR_MAX_LIMIT, similarDocuments } from '../../src/similarity/similar.js';
import { rebuildIndex } from '../../src/similarity/vec-index.js';
import { FOR_DOCUMENTS_MAX, collapsePreview, documentLinks, linkStatus, linksForDocuments } from '../../src/similarity/links.js';
import { cancelLinkScan, startLinkScan } from '../../src/similarity/link-scan.js';
import { JsonObject } from '../../src/util/validate.js';
import { queryOf, readValid } from '../body.js';
import { idParam, intQuery } from '../params.js';
import { route, type RouteDef } from '../registry.js';

const SettingsBody = v.object({ settings: JsonObject });
const ProbeBody = v.nullish(v.object({ settings: v.optional(v.nullable(JsonObject), null) }));
const DocumentIds = v.object({
  document_ids: v.optional(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.maxLength(FOR_DOCUMENTS_MAX)), []),
});

const documentId = (p: Record<string, string>) => idParam(p.document_id, 'document_id');

export const similarityRoutes: RouteDef[] = [
  route('GET', '/api/settings/embeddings', (_event, { ctx }) => readEmbeddingSettings(ctx)),
  route('PUT', '/api/settings/embeddings', async (event, { ctx }) => writeEmbeddingSettings(ctx, (await readValid(event, SettingsBody)).settings)),
  route('GET', '/api/embeddings/status', (_event, { ctx }) => embeddingStatus(ctx)),
  route('GET', '/api/embeddings/estimate', (_event, { ctx }) => backfillEstimate(ctx)),
  route('POST', '/api/embeddings/probe', async (event, { ctx }) => {
    const body = await readValid(event, ProbeBody, { optional: true });
    return probeLane(ctx, body?.settings ?? null);
  }),
  route('POST', '/api/embeddings/backfill', async (event, { ctx }) => {
    const answer = await startBackfill(ctx, 'api');
    event.res.status = 202;
    return answer;
  }),
  route('POST', '/api/embeddings/backfill/cancel', (_event, { ctx }) => cancelBackfill(ctx)),
  route('POST', '/api/embeddings/rebuild', (_event, { ctx }) => rebuildIndex(ctx, activeLane(ctx).key)),
  route('GET', '/api/documents/{document_id}/similar', (event, { ctx }, p) =>
    similarDocuments(ctx, documentId(p), intQuery(queryOf(event), 'limit', SIMILAR_DEFAULT_LIMIT, 1, SIMILAR_MAX_LIMIT)),
  ),
  route('GET', '/api/documents/{document_id}/links', (_event, { ctx }, p) => documentLinks(ctx, documentId(p))),
  route('POST', '/api/links/for-documents', async (event, { ctx }) => linksForDocuments(ctx, (await readValid(event, DocumentIds)).document_ids)),
  route('POST', '/api/links/collapse-preview', async (event, { ctx }) => collapsePreview(ctx, (await readValid(event, DocumentIds)).document_ids)),
  route('POST', '/api/links/scan', async (event, { ctx }) => {
    const answer = await startLinkScan(ctx);
    event.res.status = 202;
    return answer;
  }),
  route('POST', '/api/links/scan/cancel', (_event, { ctx }) => cancelLinkScan(ctx)),
  route('GET', '/api/links/status', (_event, { ctx }) => linkStatus(ctx)),
];
