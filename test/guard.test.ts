import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { signDeliveryLink, SIGNATURE_LIFETIME_SECONDS } from '../src/runtime/signing.js';
import { route } from '../server/registry.js';
import { ROUTES } from '../server/routes/index.js';
import { GUARD_EXEMPT_PATHS } from '../server/guard.js';
import { rawRequest, startTestServer, type TestServer } from './_setup.js';

const RENDERER = 'http://127.0.0.1:5173';
let t: TestServer;
let fakeNow = Date.now();
const secrets: Record<string, string> = { '7': 'destination-secret-seven' };

test.before(async () => {
  t = await startTestServer({
    rendererOrigin: RENDERER,
    context: { clock: { now: () => new Date(fakeNow) } },
    routes: [...ROUTES, route('GET', '/api/test/deliveries/{delivery_id}/bundle', (_e, _d, p) => ({ bundle: p.delivery_id }))],
    signedRoutes: [{ method: 'GET', path: '/api/test/deliveries/{delivery_id}/bundle', secretFor: ([id]) => secrets[id!] }],
  });
});
test.after(() => t.close());

const reasonOf = (r: { json(): any }) => r.json().detail.reason;

test('the exemption list is empty', () => {
  assert.equal(GUARD_EXEMPT_PATHS.length, 0);
});

test('Host 127.0.0.1:<port> and localhost:<port> are both accepted', async () => {
  for (const host of [`127.0.0.1:${t.port}`, `localhost:${t.port}`, `LOCALHOST:${t.port}`]) {
    const r = await t.request('GET', '/api/health', { headers: { host } });
    assert.is(r.status, 200, host);
  }
});

test('any other Host is 403 host_refused, even with a valid token', async () => {
  for (const host of ['evil.example', `evil.example:${t.port}`, `127.0.0.1:${t.port + 1}`, '127.0.0.1', `[::1]:${t.port}`, `0.0.0.0:${t.port}`]) {
    const r = await t.request('GET', '/api/health', { headers: { host } });
    assert.is(r.status, 403, host);
    assert.is(reasonOf(r), 'host_refused');
    assert.type(r.json().detail.message, 'string');
  }
  const none = await rawRequest(t.port, { path: '/api/health', headers: { authorization: `Bearer ${t.token}` }, noHost: true });
  assert.is(none.status, 403);
});

test('a foreign Origin is 403 origin_refused with no allow-origin header', async () => {
  for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:5174', 'http://localhost:5173', `${RENDERER}/`]) {
    const r = await t.request('GET', '/api/health', { headers: { origin } });
    assert.is(r.status, 403, origin);
    assert.is(reasonOf(r), 'origin_refused');
    assert.is(r.headers['access-control-allow-origin'], undefined);
  }
});

test('the renderer origin gets its exact origin back, never a wildcard', async () => {
  const r = await t.request('GET', '/api/health', { headers: { origin: RENDERER } });
  assert.is(r.status, 200);
  assert.is(r.headers['access-control-allow-origin'], RENDERER);
  assert.match(String(r.headers.vary), /Origin/);
});

test('no Origin is judged on the token alone', async () => {
  assert.is((await t.request('GET', '/api/health')).status, 200);
});

test('a missing token is 401 token_missing; a wrong one token_invalid', async () => {
  const missing = await t.request('GET', '/api/health', { token: null });
  assert.is(missing.status, 401);
  assert.is(reasonOf(missing), 'token_missing');
  for (const authorization of [`Bearer ${t.token}x`, `Bearer ${t.token.slice(1)}`, `Basic ${t.token}`, 'Bearer', `Bearer  ${t.token} extra`]) {
    const r = await t.request('GET', '/api/health', { token: null, headers: { authorization } });
    assert.is(r.status, 401, authorization);
    assert.ok(['token_invalid', 'token_missing'].includes(reasonOf(r)));
  }
  const wrong = await t.request('GET', '/api/health', { token: 'x'.repeat(43) });
  assert.is(reasonOf(wrong), 'token_invalid');
});

test('/ opened in a browser is refused like any path (none is exempt), and the refusal says what this is, that the window is `svc window` and where the docs are', async () => {
  const root = await t.request('GET', '/', { token: null });
  assert.is(root.status, 401);
  assert.is(reasonOf(root), 'token_missing');
  const said = root.json().detail.message as string;
  assert.match(said, /^This is the svc HTTP API for the desktop window and agents, not a web page/);
  assert.match(said, /The window is `svc window`\./);
  assert.match(said, /The docs: README\.md in the svc folder, `man svc`/);
  // Every other path keeps the short refusal.
  assert.not.match((await t.request('GET', '/api/health', { token: null })).json().detail.message, /svc window/);
});

test('guard order: Host before Origin before token', async () => {
  const r1 = await t.request('GET', '/api/health', { token: null, headers: { host: 'evil.example', origin: 'http://evil.example' } });
  assert.is(reasonOf(r1), 'host_refused');
  const r2 = await t.request('GET', '/api/health', { token: null, headers: { origin: 'http://evil.example' } });
  assert.is(reasonOf(r2), 'origin_refused');
});

test('unknown paths are guarded too (no exemption) and then 404 route_not_found', async () => {
  assert.is((await t.request('GET', '/api/nowhere', { token: null })).status, 401);
  assert.is((await t.request('GET', '/', { token: null })).status, 401);
  const r = await t.request('GET', '/api/nowhere');
  assert.is(r.status, 404);
  assert.equal(Object.keys(r.json().detail).sort(), ['message', 'reason']);
  assert.is(reasonOf(r), 'route_not_found');
});

test('a known path with another method is 405 with Allow', async () => {
  const r = await t.request('DELETE', '/api/health');
  assert.is(r.status, 405);
  assert.is(r.headers.allow, 'GET');
  assert.is(reasonOf(r), 'method_not_allowed');
});

test('preflight from the renderer origin is answered without the token', async () => {
  const r = await t.request('OPTIONS', '/api/settings/ai', { token: null, headers: { origin: RENDERER, 'access-control-request-method': 'PUT' } });
  assert.is(r.status, 204);
  assert.is(r.headers['access-control-allow-origin'], RENDERER);
  assert.match(String(r.headers['access-control-allow-methods']), /PUT/);
  assert.match(String(r.headers['access-control-allow-headers']), /Authorization/);
  assert.is(r.headers['access-control-allow-private-network'], undefined);
});

test('Allow-Private-Network only on a preflight that asked for it', async () => {
  const asked = await t.request('OPTIONS', '/api/health', {
    token: null,
    headers: { origin: RENDERER, 'access-control-request-method': 'GET', 'access-control-request-private-network': 'true' },
  });
  assert.is(asked.status, 204);
  assert.is(asked.headers['access-control-allow-private-network'], 'true');
  const plain = await t.request('GET', '/api/health', { headers: { origin: RENDERER, 'access-control-request-private-network': 'true' } });
  assert.is(plain.headers['access-control-allow-private-network'], undefined);
});

test('preflight from a foreign origin is refused; OPTIONS without a preflight needs the token', async () => {
  const foreign = await t.request('OPTIONS', '/api/health', { token: null, headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' } });
  assert.is(foreign.status, 403);
  assert.is(reasonOf(foreign), 'origin_refused');
  assert.is(foreign.headers['access-control-allow-origin'], undefined);
  const noOrigin = await t.request('OPTIONS', '/api/health', { token: null, headers: { 'access-control-request-method': 'GET' } });
  assert.is(noOrigin.status, 401);
  const notPreflight = await t.request('OPTIONS', '/api/health', { token: null, headers: { origin: RENDERER } });
  assert.is(notPreflight.status, 401);
});

test('the guard answers before reading the body', async () => {
  // Declare a large body, send none of it: a guard that waited for the body would hang.
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: t.port, method: 'PUT', path: '/api/settings/ai', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) } });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (err) => (String(err).includes('socket hang up') ? undefined : reject(err)));
    req.flushHeaders();
    setTimeout(() => reject(new Error('guard waited for the body')), 3000);
  });
  assert.is(status, 401);
});

test('renderer-origin registration: exact origin, refused with an Origin, eight kept', async () => {
  const withOrigin = await t.request('POST', '/api/auth/renderer-origin', { body: { origin: 'http://127.0.0.1:6000' }, headers: { origin: RENDERER } });
  assert.is(withOrigin.status, 403);
  assert.is(reasonOf(withOrigin), 'origin_refused');
  for (const bad of ['', 'x'.repeat(65), 'http://127.0.0.1:6000/', 'http://127.0.0.1:6000/path', 'ftp://127.0.0.1', 'not a url']) {
    const r = await t.request('POST', '/api/auth/renderer-origin', { body: { origin: bad } });
    assert.is(r.status, 422, bad);
    assert.ok(Array.isArray(r.json().detail));
  }
  const first = 'http://127.0.0.1:6001';
  const ok = await t.request('POST', '/api/auth/renderer-origin', { body: { origin: first } });
  assert.is(ok.status, 200);
  assert.is((await t.request('GET', '/api/health', { headers: { origin: first } })).status, 200);
  for (let i = 2; i <= 9; i++) await t.request('POST', '/api/auth/renderer-origin', { body: { origin: `http://127.0.0.1:60${String(i).padStart(2, '0')}` } });
  const last = await t.request('POST', '/api/auth/renderer-origin', { body: { origin: 'http://127.0.0.1:6009' } });
  assert.is(last.json().registered_origins.length, 8);
  const evicted = await t.request('GET', '/api/health', { headers: { origin: first } });
  assert.is(evicted.status, 403);
  assert.is((await t.request('GET', '/api/health', { headers: { origin: RENDERER } })).status, 200, 'launch origin always kept');
  const maxLength = 'http://127.0.0.1:1/'.slice(0, -1);
  assert.is((await t.request('POST', '/api/auth/renderer-origin', { body: { origin: maxLength } })).status, 200);
});

const signedPath = (id: string, q: { expires?: number; signature?: string }) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  return `/api/test/deliveries/${id}/bundle?${params}`;
};

test('a signed route admits a valid signature without the token', async () => {
  const link = signDeliveryLink(secrets['7']!, '7', Math.floor(fakeNow / 1000));
  const r = await t.request('GET', signedPath('7', link), { token: null });
  assert.is(r.status, 200);
  assert.equal(r.json(), { bundle: '7' });
});

test('missing, wrong, expired or foreign signatures are 403 signature_invalid', async () => {
  const nowS = Math.floor(fakeNow / 1000);
  const good = signDeliveryLink(secrets['7']!, '7', nowS);
  const cases = [
    {},
    { expires: good.expires },
    { signature: good.signature },
    { expires: good.expires, signature: good.signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
    { expires: good.expires + 1, signature: good.signature },
    signDeliveryLink('another-secret', '7', nowS),
  ];
  for (const q of cases) {
    const r = await t.request('GET', signedPath('7', q), { token: null });
    assert.is(r.status, 403, JSON.stringify(q));
    assert.is(reasonOf(r), 'signature_invalid');
  }
  // A signature for delivery 7 does not open delivery 8, and an unknown delivery never verifies.
  assert.is((await t.request('GET', signedPath('8', good), { token: null })).status, 403);
  // Expired: signed 24 h + 1 s ago.
  const old = signDeliveryLink(secrets['7']!, '7', nowS - SIGNATURE_LIFETIME_SECONDS - 1);
  assert.is(reasonOf(await t.request('GET', signedPath('7', old), { token: null })), 'signature_invalid');
  // The bearer token is not a substitute for the signature on this route.
  assert.is((await t.request('GET', signedPath('7', {}))).status, 403);
});

test('a signed route still enforces Host and Origin', async () => {
  const link = signDeliveryLink(secrets['7']!, '7', Math.floor(fakeNow / 1000));
  assert.is(reasonOf(await t.request('GET', signedPath('7', link), { token: null, headers: { host: 'evil.example' } })), 'host_refused');
  assert.is(reasonOf(await t.request('GET', signedPath('7', link), { token: null, headers: { origin: 'http://evil.example' } })), 'origin_refused');
});

test.run();
