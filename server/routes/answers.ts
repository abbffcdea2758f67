/**
 * The selected-answer routes (spec 2, prefix /api/evidence/projects/{project_id}):
 * preview, send, history, read, events and cancel (the export route lives
 * with the exports). Each runs the Library guard first, reads its strict
 * query and body, calls one service function and answers no-store.
 */
import type { H3Event } from 'h3';
import * as v from 'valibot';
import { createPreview } from '../../src/answers/previews.js';
import type { AnswerMode } from '../../src/answers/types.js';
import { evidenceOf } from '../../src/evidence/service.js';
import { parseChoices, parseNoteIds, parseSelections } from '../answers-input.js';
import { bool, jsonBody, jsonInt, queryInt, say, text, uuid } from '../../src/util/strict-schemas.js';
import { readValid } from '../body.js';
import { libraryRoute } from '../library-guard.js';
import { strictQuery, uuidParam } from '../params.js';
import type { AppDeps, Method, RouteDef } from '../registry.js';
import * as reasons from '../../src/answers/reasons.js';
import { cancelAnswer, listAnswers, showAnswer, watchAnswer } from '../../src/answers/history.js';
import type { Subscriber } from '../../src/answers/live.js';
import { sendAnswer } from '../../src/answers/send.js';
import { sseFrame } from '../sse.js';
import type { AnswerRead, AnswerSent } from '../../src/wire/answers.js';

const P = '/api/evidence/projects/{project_id}';

type Answer = { status?: number; body: unknown } | Response;
type Handler = (event: H3Event, deps: AppDeps, params: Record<string, string>) => Answer | Promise<Answer>;

/** A Library-guarded, no-store route (libraryRoute) whose handler may name its status. */
export function answerRoute(method: Method, path: string, handler: Handler): RouteDef {
  return libraryRoute(method, path, async (event, deps, params) => {
    const answer = await handler(event, deps, params);
    if (answer instanceof Response) return answer;
    event.res.status = answer.status ?? 200;
    return answer.body;
  });
}

export const VAULT = { expected_vault_id: uuid() };
const RUNTIME = { expected_runtime_id: uuid() };
const strictBody = (deps: AppDeps) => ({ strict: true, limit: evidenceOf(deps.ctx).limits.jsonBodyBytes });
/** Nested parts (selections, note ids, choices) are parsed by answers-input.ts, which names each location. */
const nested = v.unknown();
const SHA256 = v.pipe(text(64, 64), v.regex(/^[0-9a-f]{64}$/, say('invalid_string', '{name} must be 64 lowercase hex digits.')));

/** The body's expected runtime must be this server's (409 otherwise). */
export function checkRuntime(deps: AppDeps, expected: string): void {
  if (expected !== deps.ctx.runtimeId) throw reasons.runtimeMismatch(deps.ctx.runtimeId);
}

const MODES: readonly AnswerMode[] = ['answer', 'briefing'];
const MODE = v.picklist(MODES, say('invalid_value', 'mode must be answer or briefing.'));

export const answerRoutes: RouteDef[] = [
  answerRoute('POST', `${P}/answer-previews`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(
      event,
      jsonBody({ ...VAULT, ...RUNTIME, expected_revision: jsonInt(1), selections: nested, note_ids: v.optional(nested), instruction: text(0, 1_000_000), mode: MODE, choices: nested }),
      strictBody(deps),
    );
    checkRuntime(deps, b.expected_runtime_id);
    const view = await createPreview(deps.ctx, {
      expectedVaultId: b.expected_vault_id,
      projectId: uuidParam(params, 'project_id'),
      expectedRevision: b.expected_revision,
      selections: parseSelections(b.selections),
      noteIds: parseNoteIds(b.note_ids),
      instruction: b.instruction,
      mode: b.mode,
      choices: parseChoices(b.choices),
      signal: event.req.signal,
    });
    return { status: 201, body: view };
  }),
];

const ANSWER = '/answers/{answer_id}';

function ref(q: { expected_vault_id: string }, params: Record<string, string>) {
  return { expectedVaultId: q.expected_vault_id, projectId: uuidParam(params, 'project_id') };
}

/** An SSE stream read by pulling: frames leave the bounded queue only as fast as the client reads. */
function eventStream(sub: Subscriber): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(stream) {
        const frame = await sub.next();
        if (frame === null) {
          stream.close();
          return;
        }
        stream.enqueue(encoder.encode(sseFrame({ id: frame.sequence, event: frame.type, data: frame })));
      },
      cancel() {
        sub.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-accel-buffering': 'no' },
  });
}

answerRoutes.push(
  answerRoute('POST', `${P}/answers`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(event, jsonBody({ ...VAULT, ...RUNTIME, preview_id: uuid(), request_sha256: SHA256, confirmed: bool() }), strictBody(deps));
    const { answer, replayed } = await sendAnswer(deps.ctx, {
      ...ref(b, params),
      expectedRuntimeId: b.expected_runtime_id,
      previewId: b.preview_id,
      requestSha256: b.request_sha256,
      confirmed: b.confirmed,
      signal: event.req.signal,
    });
    const sent: AnswerSent = { contract_version: 1, replayed, answer };
    return { status: replayed ? 200 : 201, body: sent };
  }),

  answerRoute('GET', `${P}/answers`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, after_id: v.optional(queryInt(0)), through_id: v.optional(queryInt(0)), limit: v.optional(queryInt(1, 50)) });
    return { body: listAnswers(ctx, { ...ref(q, params), afterId: q.after_id, throughId: q.through_id, limit: q.limit }) };
  }),

  answerRoute('GET', `${P}${ANSWER}`, (event, { ctx }, params) => {
    const q = strictQuery(event, VAULT);
    const read: AnswerRead = { contract_version: 1, answer: showAnswer(ctx, { ...ref(q, params), answerId: uuidParam(params, 'answer_id') }) };
    return { body: read };
  }),

  answerRoute('GET', `${P}${ANSWER}/events`, (event, { ctx }, params) => {
    const q = strictQuery(event, { ...VAULT, ...RUNTIME });
    const sub = watchAnswer(ctx, { ...ref(q, params), answerId: uuidParam(params, 'answer_id'), expectedRuntimeId: q.expected_runtime_id });
    return eventStream(sub);
  }),

  answerRoute('POST', `${P}${ANSWER}/cancel`, async (event, deps, params) => {
    strictQuery(event, {});
    const b = await readValid(event, jsonBody({ ...VAULT, ...RUNTIME }), strictBody(deps));
    const read: AnswerRead = { contract_version: 1, answer: cancelAnswer(deps.ctx, { ...ref(b, params), answerId: uuidParam(params, 'answer_id'), expectedRuntimeId: b.expected_runtime_id }) };
    return { body: read };
  }),
);
