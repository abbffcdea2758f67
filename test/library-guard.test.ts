import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { ROUTES } from '../server/routes/index.js';
import { rawRequest } from './_setup.js';
import { LIB_HEADERS, RENDERER, reasonOf, startLibraryServer, type LibraryServer } from './_library.js';

let s: LibraryServer;
const ZERO = '00000000-0000-4000-8000-000000000000';

test.before(async () => {
  s = await startLibraryServer();
});
test.after(() => s.close());

const SPEC_ROUTES: [string, string][] = [
  ['GET', '/api/library'],
  ['POST', '/api/library/vault'],
  ['GET', '/api/library/files'],
  ['POST', '/api/library/files'],
  ['GET', '/api/library/files/{file_id}'],
  ['POST', '/api/library/files/{file_id}/paper-links'],
  ['POST', '/api/library/files/{file_id}/open'],
  ['GET', '/api/library/export'],
  ['GET', '/api/library/files/{file_id}/text'],
];
const LIBRARY_ROUTES = SPEC_ROUTES.map(([m, p]) => [m, p.replace('{file_id}', ZERO)] as const);

function send(method: string, path: string, headers: Record<string, string | string[]>) {
  return rawRequest(s.t.port, {
    method,
    path,
    headers: { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json', ...headers },
    body: method === 'POST' ? '{}' : undefined,
  });
}

test('all nine Library routes are mounted', () => {
  const mounted = ROUTES.filter((r) => r.path.startsWith('/api/library')).map((r) => `${r.method} ${r.path}`);
  assert.equal(mounted.sort(), SPEC_ROUTES.map(([m, p]) => `${m} ${p}`).sort());
});

test('every Library route refuses a missing, null, foreign, malformed or repeated Origin with 403', async () => {
  const origins: (string | string[] | undefined)[] = [
    undefined,
    'null',
    'http://evil.example',
    'http://localhost:5173',
    'http://127.0.0.1',
    'http://127.0.0.1:05173',
    'http://127.0.0.1:99999',
    'https://127.0.0.1:5173',
    `${RENDERER}/`,
    [RENDERER, RENDERER],
  ];
  for (const [method, path] of LIBRARY_ROUTES) {
    for (const origin of origins) {
      const headers: Record<string, string | string[]> = { 'x-svc-library': '1' };
      if (origin !== undefined) headers.origin = origin;
      const r = await send(method, path, headers);
      assert.is(r.status, 403, `${method} ${path} origin=${JSON.stringify(origin)}`);
      assert.ok(['origin_refused', 'library_origin_refused'].includes(reasonOf(r)), r.text);
      assert.type(r.json().detail.message, 'string');
    }
  }
});

test('a missing Origin and a null one are refused by the Library guard itself', async () => {
  const r = await send('GET', '/api/library', { 'x-svc-library': '1' });
  assert.is(reasonOf(r), 'library_origin_refused');
  assert.is(r.json().detail.problem, 'missing');
  assert.is(r.headers['cache-control'], 'no-store');
});

test('an allowed origin that is not http://127.0.0.1:<port> is refused', async () => {
  const registered = await s.t.request('POST', '/api/auth/renderer-origin', { body: { origin: 'http://localhost:6001' } });
  assert.is(registered.status, 200);
  const r = await send('GET', '/api/library', { origin: 'http://localhost:6001', 'x-svc-library': '1' });
  assert.is(r.status, 403);
  assert.is(reasonOf(r), 'library_origin_refused');
  assert.is(r.json().detail.problem, 'malformed');
});

test('every Library route refuses a missing, wrong or repeated X-Svc-Library header', async () => {
  const values: (string | string[] | undefined)[] = [undefined, '0', 'true', '', ' 2', '1, 1', ['1', '1']];
  for (const [method, path] of LIBRARY_ROUTES) {
    for (const value of values) {
      const headers: Record<string, string | string[]> = { origin: RENDERER };
      if (value !== undefined) headers['x-svc-library'] = value;
      const r = await send(method, path, headers);
      assert.is(r.status, 403, `${method} ${path} header=${JSON.stringify(value)}`);
      assert.is(reasonOf(r), 'library_header_refused');
    }
  }
});

test('with both headers the routes answer (guard passed)', async () => {
  const r = await send('GET', '/api/library', LIB_HEADERS);
  assert.is(r.status, 200);
  assert.is(r.json().vault.vault_id, s.vaultId);
});

test('the general guard still comes first: no token is 401 even with the Library headers', async () => {
  const r = await rawRequest(s.t.port, { path: '/api/library', headers: { host: `127.0.0.1:${s.t.port}`, ...LIB_HEADERS } });
  assert.is(r.status, 401);
});

test('the Library guard answers before reading the body', async () => {
  for (const path of ['/api/library/vault', `/api/library/files?expected_vault_id=${s.vaultId}&filename=a.pdf`]) {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port: s.t.port,
        method: 'POST',
        path,
        agent: false,
        headers: { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, origin: RENDERER, 'content-type': 'application/octet-stream', 'content-length': String(50 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (err) => (String(err).includes('socket hang up') ? undefined : reject(err)));
      req.flushHeaders();
      setTimeout(() => reject(new Error('the guard waited for the body')), 3000).unref();
    });
    assert.is(status, 403, path);
  }
});

test('a refused request has no effect', async () => {
  const before = (await send('GET', `/api/library/files?expected_vault_id=${s.vaultId}`, LIB_HEADERS)).json().items.length;
  const r = await s.importBytes('x.txt', 'hello', '', { 'x-svc-library': '2' });
  assert.is(r.status, 403);
  const after = (await send('GET', `/api/library/files?expected_vault_id=${s.vaultId}`, LIB_HEADERS)).json().items.length;
  assert.is(after, before);
});

test.run();
