/**
 * The assistant (spec 3) and the model-provider administration routes of
 * spec 1 (credentials validate, models list, CLI status).
 */
import * as v from 'valibot';
import { cliStatus, assistantStatus } from '../../src/assistant/connections.js';
import { listModelIds, validateCredential } from '../../src/assistant/ai-admin.js';
import { exportSession } from '../../src/assistant/export.js';
import { permissionBroker } from '../../src/assistant/permissions.js';
import { assistantTools } from '../../src/assistant/runner.js';
import { browseSessions, createSession, deleteSession, legacyList, LEGACY_LIST_DEFAULT, sessionDetail } from '../../src/assistant/sessions.js';
import { cancelTurn, sendMessage } from '../../src/assistant/turns.js';
import { invalid } from '../../src/errors.js';
import { JsonObject, parseWith } from '../../src/util/validate.js';
import { queryOf, readJson, readValid } from '../body.js';
import { enumQuery, idParam, intQuery } from '../params.js';
import { route } from '../registry.js';
import { sseResponse } from '../sse.js';

const MAX_TEXT = 100_000;
const OptionalString = v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2048))));

const CreateBody = v.strictObject({
  choices: v.optional(v.unknown()),
  title: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(500)))),
});
const MessageBody = v.strictObject({
  text: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_TEXT)),
  legacy_adoption: v.optional(v.nullable(v.strictObject({ confirmed: v.boolean(), choices: v.unknown() }))),
});
const PermissionOpenBody = v.object({
  session_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  tool_name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  tool_use_id: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200))), null),
  input: v.optional(JsonObject, {}),
});
const PermissionAnswerBody = v.object({ allow: v.boolean(), reason: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2000))), null) });
// Spec 1 "Credential": provider and key required. The stored key is validated by `svc credentials validate`, not over HTTP.
const ValidateBody = v.object({ provider: v.pipe(v.string(), v.minLength(1), v.maxLength(64)), key: v.pipe(v.string(), v.minLength(1), v.maxLength(2048)), base_url: OptionalString });
const ModelsBody = v.object({
  provider: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  base_url: OptionalString,
  binary_path: OptionalString,
  endpoint: OptionalString,
  header_prefix: OptionalString,
  key: OptionalString,
});

const INT64_MAX = 9223372036854775807n;

/** An optional 64-bit id query value (positive, or non-negative with `allowZero`). */
function bigIdQuery(query: URLSearchParams, name: string, allowZero: boolean): bigint | null {
  const raw = query.get(name);
  if (raw === null) return null;
  const min = allowZero ? 0n : 1n;
  if (!/^\d{1,19}$/.test(raw) || BigInt(raw) < min || BigInt(raw) > INT64_MAX) {
    throw invalid(['query', name], `Input should be an integer from ${min} to ${INT64_MAX}`, 'int_range', raw.slice(0, 40));
  }
  return BigInt(raw);
}

const sessionId = (p: Record<string, string>) => idParam(p.session_id, 'session_id');

export const assistantRoutes = [
  route('GET', '/api/assistant/status', (_event, { ctx }) => assistantStatus(ctx)),
  route('GET', '/api/settings/ai/cli-status', (_event, { ctx }) => cliStatus(ctx)),
  route('POST', '/api/credentials/validate', async (event, { ctx }) => validateCredential(ctx, await readValid(event, ValidateBody, { hideInput: true, limit: 64 * 1024 }))),
  route('POST', '/api/ai/models', async (event, { ctx }) => listModelIds(ctx, await readValid(event, ModelsBody, { hideInput: true, limit: 64 * 1024 }))),
  route('GET', '/api/assistant/sessions', (event, { ctx }) => legacyList(ctx, intQuery(queryOf(event), 'limit', LEGACY_LIST_DEFAULT, 1, 500))),
  route('POST', '/api/assistant/sessions', async (event, { ctx }) => {
    const raw = (await readJson(event, { optional: true })) ?? {};
    if (Array.isArray(raw)) throw invalid(['body'], 'Input should be a valid object', 'object_type');
    const body = parseWith(CreateBody, raw, ['body']);
    event.res.status = 201;
    return createSession(ctx, body);
  }),
  route('GET', '/api/assistant/sessions/browse', (event, { ctx }) => {
    const q = queryOf(event);
    const text = q.get('q');
    if (text !== null && text.length > 200) throw invalid(['query', 'q'], 'String should have at most 200 characters', 'string_too_long', undefined, { max_length: 200 });
    return browseSessions(ctx, {
      limit: intQuery(q, 'limit', 50, 1, 100),
      beforeId: bigIdQuery(q, 'before_id', false),
      throughId: bigIdQuery(q, 'through_id', true),
      q: text === '' ? null : text,
    });
  }),
  route('GET', '/api/assistant/sessions/{session_id}', (_event, { ctx }, p) => sessionDetail(ctx, sessionId(p))),
  route('DELETE', '/api/assistant/sessions/{session_id}', (_event, { ctx }, p) => deleteSession(ctx, sessionId(p))),
  route('GET', '/api/assistant/sessions/{session_id}/export', (event, { ctx }, p) => {
    const id = sessionId(p);
    return exportSession(ctx, id, enumQuery(queryOf(event), 'format', ['json', 'markdown'] as const) ?? 'json');
  }),
  route('POST', '/api/assistant/sessions/{session_id}/messages', async (event, { ctx, runtime }, p) => {
    const id = sessionId(p);
    const body = await readValid(event, MessageBody, { limit: 1024 * 1024 });
    const turn = sendMessage(ctx, id, body, { serverPort: runtime.port, permissionPort: runtime.port, token: runtime.token, tools: assistantTools(ctx) });
    return sseResponse(async function* (signal) {
      // The reader went away: ask the worker to stop; the claim stays until it finishes.
      signal.addEventListener('abort', () => turn.abandon(), { once: true });
      for await (const frame of turn.frames.read(signal)) yield { event: frame.event, data: frame.data };
    });
  }),
  route('POST', '/api/assistant/sessions/{session_id}/cancel', (_event, { ctx }, p) => cancelTurn(ctx, sessionId(p))),
  route('POST', '/api/assistant/permissions', async (event, { ctx }) => {
    const body = await readValid(event, PermissionOpenBody);
    const abort = new AbortController();
    const { requestId, held } = permissionBroker(ctx).open(body, abort.signal);
    event.req.signal?.addEventListener('abort', () => abort.abort(), { once: true });
    const encoder = new TextEncoder();
    // Held open until answered: a leading space flushes the headers (with the request id) at once, and
    // another now and then keeps the body from looking dead to the client while the person thinks.
    let keepalive: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(' '));
        keepalive = setInterval(() => {
          controller.enqueue(encoder.encode(' '));
          ctx.log.debug(`permission request ${requestId} kept open: still waiting for the person's answer`);
        }, ctx.tuning.permissionKeepaliveMs);
        const answer = await held;
        clearInterval(keepalive);
        try {
          controller.enqueue(encoder.encode(JSON.stringify(answer) + '\n'));
          controller.close();
        } catch {
          // The requester went away first (its abort denied the request): nobody to tell.
        }
      },
      cancel() {
        clearInterval(keepalive);
        abort.abort();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-svc-permission-request-id': requestId } });
  }),
  route('POST', '/api/assistant/permissions/{request_id}', async (event, { ctx }, p) => {
    const body = await readValid(event, PermissionAnswerBody);
    return permissionBroker(ctx).answer(p.request_id!, body.allow, body.reason);
  }),
];
