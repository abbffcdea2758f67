/**
 * Security audit of the guard (spec 1 "Authentication") with crafted requests
 * against a real server on port 0: look-alike Hosts (DNS rebinding), look-alike
 * Origins on state-changing requests carrying a valid token, preflights, and
 * credentials sent anywhere but the Authorization header. A refused request
 * changes nothing.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import net from 'node:net';
import os from 'node:os';
import { rawRequest, startTestServer, type TestServer } from './_setup.js';

const RENDERER = 'http://127.0.0.1:5173';
let t: TestServer;
test.before(async () => {
  t = await startTestServer({ rendererOrigin: RENDERER });
});
test.after(() => t.close());

const reasonOf = (r: { json(): any }) => r.json().detail.reason;
const stored = () => t.ctx.credentials.status('openai_api_key');

test('the server listens on 127.0.0.1 only: no other local address of this machine reaches it', async () => {
  const others = Object.values(os.networkInterfaces()).flat().filter((i) => i && !i.address.startsWith('127.')).map((i) => i!.address);
  for (const address of [...new Set(['::1', ...others])]) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: address, port: t.port, timeout: 1000 }, () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
      socket.on('timeout', () => (socket.destroy(), resolve(false)));
    });
    assert.not.ok(connected, `reachable on ${address}`);
  }
  assert.is(t.server.baseUrl, `http://127.0.0.1:${t.port}`);
});

test('look-alike and rebinding Hosts are 403 host_refused even with a valid token, and change nothing', async () => {
  const p = t.port;
  const hosts = [
    `attacker.example:${p}`, `localhost.:${p}`, `127.0.0.1.:${p}`, `127.1:${p}`, `2130706433:${p}`, `0x7f000001:${p}`, `127.0.0.2:${p}`,
    `localhost.attacker.example:${p}`, `127.0.0.1.nip.io:${p}`, `127.0.0.1:0${p}`, `127.0.0.1:${p}:${p}`, `[::ffff:127.0.0.1]:${p}`, `localhost`,
  ];
  for (const host of hosts) {
    const r = await rawRequest(t.port, {
      method: 'PUT',
      path: '/api/credentials/openai_api_key',
      headers: { host, authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'sk-should-not-be-stored' }),
    });
    assert.is(r.status, 403, `Host [${host}]: ${r.text}`);
    assert.is(reasonOf(r), 'host_refused', host);
    assert.is(r.headers['access-control-allow-origin'], undefined);
  }
  assert.is(stored(), 'absent');
});

test('a foreign or look-alike Origin on a state-changing request with a valid token is 403 origin_refused and changes nothing', async () => {
  const origins = ['http://attacker.example', 'null', 'http://127.0.0.1:5173.attacker.example', 'http://127.0.0.1:51730', 'https://127.0.0.1:5173', 'HTTP://127.0.0.1:5173', `http://127.0.0.1:${t.port}`, `http://localhost:${t.port}`, ''];
  for (const origin of origins) {
    for (const [method, path, body] of [
      ['PUT', '/api/credentials/openai_api_key', { value: 'sk-should-not-be-stored' }],
      ['PUT', '/api/settings/ai', { settings: { base_url: 'http://attacker.example/v1' } }],
      ['POST', '/api/admin/factory-reset', { confirm: 'factory-reset' }],
      ['POST', '/api/auth/renderer-origin', { origin: 'http://attacker.example' }],
    ] as const) {
      const r = await t.request(method, path, { body, headers: { origin } });
      assert.is(r.status, 403, `${origin} ${method} ${path}`);
      assert.is(reasonOf(r), 'origin_refused');
      assert.is(r.headers['access-control-allow-origin'], undefined);
    }
  }
  assert.is(stored(), 'absent');
  assert.is(t.ctx.settings.read('ai').base_url, '');
  assert.equal(t.server.runtime.origins.registered(), []);
});

test('preflights: only the renderer origin is answered, never with a wildcard, and a preflight admits nothing by itself', async () => {
  const foreign = await t.request('OPTIONS', '/api/credentials/openai_api_key', { token: null, headers: { origin: 'http://127.0.0.1:5173.attacker.example', 'access-control-request-method': 'PUT' } });
  assert.is(foreign.status, 403);
  assert.is(foreign.headers['access-control-allow-origin'], undefined);
  const ok = await t.request('OPTIONS', '/api/credentials/openai_api_key', { token: null, headers: { origin: RENDERER, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type' } });
  assert.is(ok.status, 204);
  assert.is(ok.headers['access-control-allow-origin'], RENDERER);
  assert.is(ok.headers['access-control-allow-credentials'], undefined);
  // The request the preflight announced, sent without the token: 401, and it carries the origin so the page can read why.
  const after = await t.request('PUT', '/api/credentials/openai_api_key', { token: null, body: { value: 'sk-should-not-be-stored' }, headers: { origin: RENDERER } });
  assert.is(after.status, 401);
  assert.is(reasonOf(after), 'token_missing');
  assert.is(stored(), 'absent');
});

test('the token counts only in Authorization: Bearer (not in the query, a cookie or another header)', async () => {
  const tries: { path: string; headers: Record<string, string> }[] = [
    { path: `/api/credentials?token=${t.token}`, headers: {} },
    { path: `/api/credentials?access_token=${t.token}`, headers: {} },
    { path: '/api/credentials', headers: { cookie: `token=${t.token}` } },
    { path: '/api/credentials', headers: { 'x-api-token': t.token } },
    { path: '/api/credentials', headers: { authorization: t.token } },
    { path: '/api/credentials', headers: { authorization: `Token ${t.token}` } },
    { path: '/api/credentials', headers: { authorization: `Bearer ${t.token}, Bearer x` } },
  ];
  for (const { path, headers } of tries) {
    const r = await rawRequest(t.port, { path, headers: { host: `127.0.0.1:${t.port}`, ...headers } });
    assert.is(r.status, 401, `${path} ${JSON.stringify(headers)}`);
    assert.not.ok(r.text.includes(t.token), 'the refusal quotes the token');
  }
});

test('guard refusals never quote the token or the Authorization header back', async () => {
  const wrong = `${t.token.slice(0, -2)}zz`;
  const r = await t.request('GET', '/api/credentials', { token: wrong });
  assert.is(reasonOf(r), 'token_invalid');
  assert.not.ok(r.text.includes(wrong) || r.text.includes(t.token));
  assert.not.ok(t.logLines.join('\n').includes(t.token), 'the token reached a log line');
});

test.run();
