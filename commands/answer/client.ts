/**
 * How `svc answer` talks to the running server: answers run in the server
 * that admitted them (previews live in its memory, the model runs there and
 * only its runtime may watch or cancel), so every subcommand is an HTTP call.
 * Selected-answer routes want the Library headers: the CLI registers the
 * server's own loopback origin (idempotent; it takes one of the eight renderer
 * slots) and sends it with X-Svc-Library: 1. The token never leaves headers.
 */
import { locateServer, type ServerHandle } from '../../src/client/discover.js';
import type { Context } from '../../src/context.js';
import { SvcError } from '../../src/errors.js';
import { resolveFileId } from '../../src/library/index.js';
import { resolveProjectId } from '../../src/evidence/index.js';
import { restoreWaiting } from '../library/state.js';

export interface AnswerClient {
  server: ServerHandle;
  vaultId: string;
  runtimeId: string;
  /** The file_id of a Library file named by its ID (the number `svc library list` prints) or its file_id. */
  fileIdOf(ref: string): string;
  /** The project_id of a project named by its ID, PROJECT_ID or exact NAME (as `svc evidence list` prints them). */
  projectIdOf(ref: string): string;
  json(method: string, path: string, body?: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  bytes(path: string): Promise<{ bytes: Buffer; headers: Headers }>;
  events(path: string, signal: AbortSignal): AsyncGenerator<{ event: string; id: string | null; data: unknown }>;
}

async function refusal(response: Response): Promise<SvcError> {
  const text = await response.text();
  let detail: unknown;
  try {
    detail = (JSON.parse(text) as { detail?: unknown }).detail;
  } catch {
    detail = undefined;
  }
  const d = detail && typeof detail === 'object' && !Array.isArray(detail) ? (detail as Record<string, unknown>) : {};
  const message = typeof detail === 'string' ? detail : Array.isArray(detail) ? detail.map((i) => (i as { msg?: string }).msg).join('; ') : String(d.message ?? `The server answered ${response.status}.`);
  const { reason: _r, message: _m, ...extra } = d;
  return new SvcError(response.status, typeof d.reason === 'string' ? d.reason : Array.isArray(detail) ? 'validation_failed' : `http_${response.status}`, message, extra);
}

export async function connectAnswers(ctx: Context): Promise<AnswerClient> {
  const server = locateServer(ctx);
  const origin = `http://127.0.0.1:${server.port}`;
  const base = { authorization: `Bearer ${server.token}` };
  const lib = { ...base, origin, 'x-svc-library': '1' };
  const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown, signal?: AbortSignal) => {
    let response: Response;
    try {
      response = await ctx.fetch(server.baseUrl + path, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ?? AbortSignal.timeout(120_000),
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new SvcError(503, 'server_not_running', `Nothing answers on ${server.baseUrl}; start the server with \`svc serve\`.`);
    }
    if (!response.ok) throw await refusal(response);
    return response;
  };
  await send('POST', '/api/auth/renderer-origin', base, { origin });
  const health = (await (await send('GET', '/api/health', base)).json()) as { identity: { runtime_id: string } };
  const library = (await (await send('GET', '/api/library', lib)).json()) as { vault?: { vault_id?: string } | null };
  const vaultId = library.vault?.vault_id;
  if (!vaultId) {
    // A restore staged while this server runs brings its vault at the server's next start: say that, not "create one".
    const waiting = restoreWaiting(ctx);
    throw new SvcError(409, 'vault_not_configured', waiting ? `No Library vault yet. ${waiting}` : 'No Library vault is configured; create one with `svc library init`.');
  }
  return {
    server,
    vaultId,
    runtimeId: health.identity.runtime_id,
    fileIdOf: (ref) => resolveFileId(ctx, vaultId, ref),
    projectIdOf: (ref) => resolveProjectId(ctx, vaultId, ref),
    json: async (method, path, body) => (await send(method, path, lib, body)).json(),
    async bytes(path) {
      const response = await send('GET', path, lib);
      return { bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
    },
    async *events(path, signal) {
      const response = await send('GET', path, { ...lib, accept: 'text/event-stream' }, undefined, signal);
      if (!response.body) return;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let id: string | null = null;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) yield { event, id, data: JSON.parse(data.join('\n')) };
        }
      }
    },
  };
}
