/**
 * Security audit, tool surface (document 3 "Authentication"): tool results and
 * relayed errors are scrubbed of the API token, whatever the backend answers.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBackend } from '../src/mcp/backend.js';
import { callTool } from '../src/mcp/call.js';
import type { Paths } from '../src/paths.js';

const TOKEN = 'tok-AUDIT-2f9b7c1d8e3a4b5c6d7e8f90a1b2c3d4';

function toolsAnswering(answer: (path: string) => { status: number; body: unknown }) {
  const fakeFetch = (async (input: string) => {
    const url = new URL(input);
    const a = url.pathname === '/api/health' ? { status: 200, body: { status: 'ok', identity: { runtime_id: '11111111-1111-4111-8111-111111111111' } } } : answer(url.pathname);
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return createBackend({ port: 5999, paths: {} as Paths, fetch: fakeFetch, token: TOKEN });
}

test('a token in a backend answer never reaches a tool result', async () => {
  const backend = toolsAnswering(() => ({ status: 200, body: { id: 3, name: `routine ${TOKEN}`, is_active: true, missed_fires: { count: 0 } } }));
  const r = await callTool(backend, 'get_routine', { routine_id: 3 });
  const text = JSON.stringify(r);
  assert.not.ok(text.includes(TOKEN), text);
  assert.ok(text.includes('[redacted]'));
});

test('a token in a backend refusal never reaches the relayed error', async () => {
  for (const status of [400, 404, 409, 422, 500, 502]) {
    const backend = toolsAnswering(() => ({ status, body: { detail: { reason: 'x', message: `Bearer ${TOKEN} refused` } } }));
    const r = await callTool(backend, 'get_routine', { routine_id: 3 });
    assert.ok(r.isError, String(status));
    assert.not.ok(JSON.stringify(r).includes(TOKEN), `${status}: ${JSON.stringify(r)}`);
  }
});

test.run();
