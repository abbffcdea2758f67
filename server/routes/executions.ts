import { Readable } from 'node:stream';
import * as v from 'valibot';
import type { Context } from '../../src/context.js';
import { notFound } from '../../src/errors.js';
import { exportArchive, MAX_EXPORT_IDS } from '../../src/executions/archive.js';
import { executionDocumentIds, executionDocumentsPage } from '../../src/executions/documents.js';
import { followEvents, listEvents, TERMINAL_KINDS } from '../../src/executions/events.js';
import { EXECUTION_LIST_LIMIT, listExecutions } from '../../src/executions/list.js';
import { renderLog } from '../../src/executions/log.js';
import { executionManager } from '../../src/executions/manager.js';
import { getExecution, runningExecutions, getSources } from '../../src/executions/repo.js';
import { renderReport } from '../../src/executions/report.js';
import { searchRecord } from '../../src/executions/search-record.js';
import { executionDetail, listRow } from '../../src/executions/views.js';
import { documentsByIds } from '../../src/corpus/read.js';
import { checkFormat, renderReferences } from '../../src/exports/references.js';
import { parseWith } from '../../src/util/validate.js';
import type { ActiveRuns, RunDocuments, RunLog, RunProgress, RunReport } from '../../src/wire/executions.js';
import { queryOf, readJson, readValid } from '../body.js';
import { requireExpectedRuntime } from '../expected-runtime.js';
import { boolQuery, enumQuery, idParam, intQuery } from '../params.js';
import { route } from '../registry.js';
import { sseResponse } from '../sse.js';

const STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'] as const;
const TYPES = ['dive', 'sweep', 'routine'] as const;

function existing(ctx: Context, raw: string | undefined) {
  const id = idParam(raw, 'exec_id');
  const row = getExecution(ctx.db, id);
  if (!row) throw notFound('execution_not_found', `No execution ${id}.`);
  return row;
}

const RestartBody = v.nullish(v.object({ request_id: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), null) }));
const ExportBody = v.object({ ids: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.minLength(1), v.maxLength(MAX_EXPORT_IDS)) });

export function fileResponse(text: string, contentType: string, filename: string): Response {
  return new Response(text, { headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${filename}"` } });
}

export const executionRoutes = [
  route('GET', '/api/executions', (event, { ctx }) => {
    const q = queryOf(event);
    return listExecutions(ctx, {
      status: enumQuery(q, 'status', STATUSES),
      type: enumQuery(q, 'type', TYPES),
      routineId: q.has('routine_id') ? intQuery(q, 'routine_id', 0, 1, Number.MAX_SAFE_INTEGER) : undefined,
      limit: intQuery(q, 'limit', EXECUTION_LIST_LIMIT.default, EXECUTION_LIST_LIMIT.min, EXECUTION_LIST_LIMIT.max),
      offset: intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    });
  }),
  route('GET', '/api/executions/active', (_event, { ctx }): ActiveRuns => ({
    executions: runningExecutions(ctx.db).map((row) => ({
      ...listRow(row),
      owner: { pid: row.owner_pid, runtime_id: row.owner_runtime_id, last_seen_at_utc: row.last_seen_at_utc },
      sources: getSources(ctx.db, row.id).map((s) => ({ source: s.source, status: s.status, record_count: s.record_count, zero_reason: s.zero_reason })),
    })),
    queued_routine_fires: executionManager(ctx).queued(),
  })),
  route('POST', '/api/executions/export', async (event, { ctx }) => {
    const body = await readValid(event, ExportBody);
    const { filename, stream } = exportArchive(ctx, body.ids);
    return new Response(Readable.toWeb(stream) as ReadableStream, { headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="${filename}"` } });
  }),
  route('GET', '/api/executions/{exec_id}', (event, { ctx }, p) => {
    const id = idParam(p.exec_id, 'exec_id');
    requireExpectedRuntime(event, ctx.runtimeId); // 422, then 409 before any lookup
    const row = getExecution(ctx.db, id);
    if (!row) throw notFound('execution_not_found', `No execution ${id}.`);
    return executionDetail(ctx, row);
  }),
  route('DELETE', '/api/executions/{exec_id}', (_event, { ctx }, p) => executionManager(ctx).remove(idParam(p.exec_id, 'exec_id'))),
  route('GET', '/api/executions/{exec_id}/documents', (event, { ctx }, p): RunDocuments => {
    const row = existing(ctx, p.exec_id);
    const q = queryOf(event);
    const limit = intQuery(q, 'limit', 50, 1, 500);
    const offset = intQuery(q, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const page = executionDocumentsPage(ctx, row.id, limit, offset);
    return { execution_id: row.id, total: page.total, limit, offset, next_offset: offset + page.documents.length < page.total ? offset + page.documents.length : null, documents: page.documents };
  }),
  route('GET', '/api/executions/{exec_id}/log', (_event, { ctx }, p): RunLog => {
    const row = existing(ctx, p.exec_id);
    const events = listEvents(ctx, row.id, 0, 100_000);
    return { execution_id: row.id, status: row.status, events, text: renderLog(events) };
  }),
  route('GET', '/api/executions/{exec_id}/report', (_event, { ctx }, p): RunReport => {
    const row = existing(ctx, p.exec_id);
    // undefined only when the run was deleted (by another process) since it was read: the same 404.
    const text = renderReport(ctx, row.id);
    if (text === undefined) throw notFound('execution_not_found', `No execution ${row.id}.`);
    return { execution_id: row.id, status: row.status, format: 'text', report_path: row.report_path, text };
  }),
  route('GET', '/api/executions/{exec_id}/search-record', (_event, { ctx }, p) => searchRecord(ctx, existing(ctx, p.exec_id).id)),
  route('GET', '/api/executions/{exec_id}/progress/events', (event, { ctx }, p): RunProgress => {
    const row = existing(ctx, p.exec_id);
    const q = queryOf(event);
    const after = intQuery(q, 'after', 0, 0, Number.MAX_SAFE_INTEGER);
    const events = listEvents(ctx, row.id, after, intQuery(q, 'limit', 500, 1, 1000));
    const last = events.length ? events[events.length - 1]!.seq : after;
    const current = getExecution(ctx.db, row.id)!;
    const done = current.status !== 'running' && listEvents(ctx, row.id, last, 1).length === 0;
    return { execution_id: row.id, status: current.status, events, next_after: last, done, terminal: events.some((e) => TERMINAL_KINDS.has(e.kind)) };
  }),
  route('GET', '/api/executions/{exec_id}/progress/stream', (event, { ctx }, p) => {
    const row = existing(ctx, p.exec_id);
    const lastEventId = event.req.headers.get('last-event-id');
    const after = lastEventId && /^\d+$/.test(lastEventId) ? Number(lastEventId) : intQuery(queryOf(event), 'after', 0, 0, Number.MAX_SAFE_INTEGER);
    return sseResponse(async function* (signal) {
      for await (const e of followEvents(ctx, row.id, after, signal)) yield { id: e.seq, event: e.kind, data: e };
    });
  }),
  route('GET', '/api/executions/{exec_id}/references', (event, { ctx }, p) => {
    const row = existing(ctx, p.exec_id);
    const q = queryOf(event);
    const format = checkFormat(q.get('format'), ['query', 'format']);
    const includeIds = boolQuery(q, 'include_ids');
    const rendered = renderReferences(documentsByIds(ctx.db, executionDocumentIds(ctx, row.id)), format, `svc-execution-${row.id}`, includeIds);
    return fileResponse(rendered.text, rendered.contentType, rendered.filename);
  }),
  route('POST', '/api/executions/{exec_id}/cancel', (_event, { ctx }, p) => executionManager(ctx).cancel(idParam(p.exec_id, 'exec_id'))),
  route('POST', '/api/executions/{exec_id}/restart', async (event, { ctx }, p) => {
    const id = idParam(p.exec_id, 'exec_id');
    const body = parseWith(RestartBody, await readJson(event, { optional: true }), ['body']);
    const submitted = executionManager(ctx).restart(id, body?.request_id ?? null);
    event.res.status = submitted.replayed ? 200 : 202;
    return submitted;
  }),
];
