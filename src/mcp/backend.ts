/**
 * The MCP server is a client of the running backend over HTTP and never
 * opens the database. Discovery, in order: SVC_PORT, the port file in the
 * state directory, then 8742 only when neither named a port. A named port is
 * never widened to the default. Each candidate is confirmed with GET
 * /api/health and the token read from <state dir>/api-token-<port>; no Origin
 * header is sent. When nothing answers, every tool says backend_unavailable
 * with the base URLs it tried.
 */
import type { Paths } from '../paths.js';
import { DEFAULT_PORT } from '../client/discover.js';
import { readPublishedPort, readPublishedToken } from '../runtime/token.js';
import { fromHttp, McpToolError } from './errors.js';

export const HEALTH_TIMEOUT_MS = 1500;
export const CALL_TIMEOUT_MS = 60_000;

export interface BackendOptions {
  /** SVC_PORT, already parsed by the config module. */
  port: number | undefined;
  paths: Paths;
  fetch: typeof fetch;
  /** The token, when the caller is the server itself (the assistant's tools): no token file is read. */
  token?: string;
}

export interface Answer {
  status: number;
  text: string;
  json: unknown;
  headers: Headers;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Answer non-2xx as data instead of throwing (the caller maps it). */
  acceptStatus?: number[];
  /**
   * A request the backend holds open until a person answers (a permission
   * request): no CALL_TIMEOUT_MS, only this signal ends it early.
   */
  held?: AbortSignal;
}

export interface Backend {
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** GET and parse, mapping refusals to MCP errors. */
  get<T = any>(path: string, query?: CallOptions['query']): Promise<T>;
  send<T = any>(method: string, path: string, body?: unknown, query?: CallOptions['query']): Promise<T>;
  /**
   * GET an answer that only changes when the service does (the source catalog): asked once, then
   * kept while this backend talks to the same service. A restart (noticed by a refused token or a
   * closed connection, which make the backend look for the service again) asks again; so does `fresh`.
   */
  getStable<T = any>(path: string, options?: { fresh?: boolean }): Promise<T>;
}

interface Located {
  baseUrl: string;
  token: string;
}

function candidates(options: BackendOptions): { port: number; named: boolean } {
  if (options.port !== undefined) return { port: options.port, named: true };
  // The port file of this data directory (a stale one still names its port: health then finds nothing there).
  const published = readPublishedPort(options.paths);
  if (published !== undefined) return { port: published.port, named: true };
  return { port: DEFAULT_PORT, named: false };
}

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function queryString(query: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export function createBackend(options: BackendOptions): Backend {
  let located: Located | undefined;
  // Answers of getStable, each with the service (the Located found) that gave it.
  const stable = new Map<string, { from: Located; answer: unknown }>();

  const unavailable = (tried: string[], why: string) =>
    new McpToolError('backend_unavailable', `The svc service is not running (${why}); start it with \`svc serve\` or \`svc daemon start\`.`, { tried });

  async function locate(): Promise<Located> {
    if (located) return located;
    const { port } = candidates(options);
    const baseUrl = `http://127.0.0.1:${port}`;
    const token = options.token ?? readPublishedToken(options.paths, port);
    if (!token) throw unavailable([baseUrl], `no token file for port ${port} in the state directory`);
    let response: Response;
    try {
      response = await options.fetch(`${baseUrl}/api/health`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    } catch {
      throw unavailable([baseUrl], `nothing answers on ${baseUrl}`);
    }
    const body = parse(await response.text()) as { status?: unknown; identity?: unknown } | null;
    if (!response.ok || !body || typeof body !== 'object' || !('identity' in body)) throw unavailable([baseUrl], `${baseUrl} is not an svc service that accepts this state directory's token`);
    located = { baseUrl, token };
    return located;
  }

  async function send(where: Located, method: string, path: string, callOptions: CallOptions): Promise<Response> {
    try {
      return await options.fetch(`${where.baseUrl}${path}${queryString(callOptions.query)}`, {
        method,
        headers: { authorization: `Bearer ${where.token}`, ...(callOptions.body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body),
        signal: callOptions.held ?? AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch {
      located = undefined; // the server went away: look again next time
      throw unavailable([where.baseUrl], `nothing answers on ${where.baseUrl}`);
    }
  }

  async function call(method: string, path: string, callOptions: CallOptions = {}): Promise<Answer> {
    let where = await locate();
    let response: Response;
    try {
      response = await send(where, method, path, callOptions);
    } catch (err) {
      // A kept-alive connection the service closed when it restarted fails the next request: a GET changes
      // nothing, so it is sent once more on a fresh connection (a write is not: it may have been admitted).
      if (method !== 'GET') throw err;
      where = await locate();
      response = await send(where, method, path, callOptions);
    }
    if (response.status === 401 && options.token === undefined) {
      // The service restarted between two calls and minted a new token: read the token file again, once.
      // The refused request was not admitted (the guard answers before any route), so sending it again is safe.
      await response.body?.cancel();
      located = undefined;
      where = await locate();
      response = await send(where, method, path, callOptions);
      if (response.status === 401) {
        await response.body?.cancel();
        located = undefined;
        throw unavailable([where.baseUrl], `${where.baseUrl} does not accept the token in this state directory`);
      }
    }
    // Document 3: tool results and relayed errors are scrubbed of the token, whatever the backend said.
    const text = (await response.text()).split(where.token).join('[redacted]');
    const answer = { status: response.status, text, json: parse(text), headers: response.headers };
    if (!response.ok && !(callOptions.acceptStatus ?? []).includes(response.status)) throw fromHttp(response.status, answer.json);
    return answer;
  }

  return {
    call,
    async get(path, query) {
      return (await call('GET', path, { query })).json as any;
    },
    async send(method, path, body, query) {
      return (await call(method, path, { body, query })).json as any;
    },
    async getStable(path, stableOptions = {}) {
      const kept = stable.get(path);
      if (kept && !stableOptions.fresh && kept.from === (await locate())) return kept.answer as any;
      const answer = (await call('GET', path)).json;
      // The service that answered: `call` may have found it again (a restart) on the way.
      if (located) stable.set(path, { from: located, answer });
      return answer as any;
    },
  };
}
