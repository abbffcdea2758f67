/**
 * The MCP tools over a recording fake fetch: health answers an identity, a
 * handler answers the rest (404 otherwise), and every request is kept so a
 * test can say which were made.
 */
import { createBackend } from '../src/mcp/backend.js';
import { callTool } from '../src/mcp/call.js';
import type { Paths } from '../src/paths.js';

export const RUNTIME = '11111111-1111-4111-8111-111111111111';

export type Handler = (method: string, url: URL, body: any) => { status?: number; json: unknown } | undefined;

export interface Recorder {
  seen: { method: string; path: string; query: Record<string, string>; body: any }[];
  call(name: string, args?: Record<string, unknown>): Promise<any>;
}

export function backendWith(handler: Handler = () => undefined): Recorder {
  const seen: Recorder['seen'] = [];
  const fakeFetch = (async (input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    seen.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body });
    const answer = handler(method, url, body) ?? (url.pathname === '/api/health' ? { json: { status: 'ok', identity: { runtime_id: RUNTIME } } } : { status: 404, json: { detail: 'Not Found' } });
    return new Response(JSON.stringify(answer.json), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  const backend = createBackend({ port: 5999, paths: {} as Paths, fetch: fakeFetch, token: 'tok' });
  return {
    seen,
    async call(name, args = {}) {
      const r = await callTool(backend, name, args);
      return r.isError ? { isError: true, ...(r.structuredContent as object) } : r.structuredContent;
    },
  };
}
