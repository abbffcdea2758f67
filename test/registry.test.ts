import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROUTES } from '../server/routes/index.js';
import { startTestServer, type TestServer } from './_setup.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

test('no route is declared twice', () => {
  const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
  assert.is(new Set(keys).size, keys.length);
});

test('every route in the registry is mounted (never route_not_found or 405)', async () => {
  for (const r of ROUTES) {
    const path = r.path.replace(/\{[a-z_]+\}/g, '999999');
    const res = await t.request(r.method, path, { headers: { 'content-type': 'application/json' } });
    const reason = res.status === 404 || res.status === 405 ? res.json().detail?.reason : undefined;
    assert.not.ok(reason === 'route_not_found' || reason === 'method_not_allowed', `${r.method} ${r.path} → ${res.status} ${reason}`);
  }
});

test('a path outside the registry is not mounted', async () => {
  for (const path of ['/api/settings/unknown-group', '/api/healthz', '/api/health/extra']) {
    const res = await t.request('GET', path);
    assert.is(res.status, 404, path);
    assert.is(res.json().detail.reason, 'route_not_found');
  }
});

test.run();
