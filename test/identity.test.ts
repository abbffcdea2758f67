import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isUuid4 } from '../src/random.js';
import { startTestServer, type TestServer } from './_setup.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

test('health answers version, schema, scheduler, daemon and the identity object', async () => {
  const body = (await t.request('GET', '/api/health')).json();
  assert.type(body.version, 'string');
  assert.is(body.schema_version, t.ctx.schemaVersion);
  assert.ok(body.schema_version >= 2);
  assert.is(body.scheduler.state, 'disabled', 'SVC_DISABLE_SCHEDULER is set in tests');
  assert.is(body.daemon.state, 'absent');
  const id = body.identity;
  assert.equal(Object.keys(id).sort(), ['build_id', 'contract_version', 'corpus_id', 'runtime_id', 'schema_version']);
  assert.is(id.contract_version, 1);
  assert.ok(isUuid4(id.runtime_id));
  assert.is(id.schema_version, body.schema_version);
  assert.is(id.corpus_id, null);
  assert.is(id.build_id, null);
});

test('runtime id is stable within a process and new in another', async () => {
  const a = (await t.request('GET', '/api/health')).json().identity.runtime_id;
  const b = (await t.request('GET', '/api/health')).json().identity.runtime_id;
  assert.is(a, b);
  const other = await startTestServer();
  try {
    assert.is.not((await other.request('GET', '/api/health')).json().identity.runtime_id, a);
  } finally {
    await other.close();
  }
});

test('expected_runtime_id: match 200, malformed or empty 422, different 409 instance_mismatch', async () => {
  const actual = t.ctx.runtimeId;
  assert.is((await t.request('GET', `/api/health?expected_runtime_id=${actual}`)).status, 200);
  for (const bad of ['', 'abc', actual.toUpperCase(), actual.replace(/-/g, ''), '00000000-0000-0000-0000-000000000000', `${actual}x`]) {
    const r = await t.request('GET', `/api/health?expected_runtime_id=${encodeURIComponent(bad)}`);
    assert.is(r.status, 422, bad);
    assert.equal(r.json().detail[0].loc, ['query', 'expected_runtime_id']);
  }
  assert.is((await t.request('GET', `/api/health?expected_runtime_id=${actual}&expected_runtime_id=${actual}`)).status, 422);
  const other = '3f2b8c1e-9a4d-4e7b-8c2a-1d0e9f8a7b6c';
  const r = await t.request('GET', `/api/health?expected_runtime_id=${other}`);
  assert.is(r.status, 409);
  const d = r.json().detail;
  assert.is(d.code, 'instance_mismatch');
  assert.is(d.expected_runtime_id, other);
  assert.is(d.actual_runtime_id, actual);
  assert.type(d.message, 'string');
});

test('heartbeat records renderer presence, shown by health', async () => {
  const r = await t.request('POST', '/api/renderer/heartbeat');
  assert.is(r.status, 200);
  const at = r.json().received_at_utc;
  assert.match(at, /Z$/);
  assert.is((await t.request('GET', '/api/health')).json().renderer_last_seen_at_utc, at);
});

test('onboarding: card facts, then dismissed for good', async () => {
  const first = (await t.request('GET', '/api/onboarding')).json();
  assert.is(first.show_card, true);
  assert.ok(first.steps.some((s: any) => s.id === 'contact_email' && s.done === false));
  await t.request('PUT', '/api/settings/email', { body: { settings: { contact_email: 'me@example.org' } } });
  assert.ok((await t.request('GET', '/api/onboarding')).json().steps.find((s: any) => s.id === 'contact_email').done);
  const dismissed = (await t.request('POST', '/api/onboarding/dismiss')).json();
  assert.is(dismissed.show_card, false);
  const again = (await t.request('POST', '/api/onboarding/dismiss')).json();
  assert.is(again.dismissed_at_utc, dismissed.dismissed_at_utc, 'the first dismissal time is kept');
});

test.run();
