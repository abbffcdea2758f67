/**
 * The validation shape everywhere (spec 1): every item of a 422 `detail` array
 * over HTTP has exactly {loc, msg, type, input, ctx}. Where the value is a
 * secret (credentials), a destination (delivery targets, the test email's
 * address) or was refused for its size, `input` is null and the value appears
 * nowhere in the answer: not in ctx.received, not in msg.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type RawResponse, type TestServer } from './_setup.js';
import { newRoutine } from './_delivery.js';

let t: TestServer;
let routineId: number;
let targetId: number;

test.before(async () => {
  t = await startTestServer();
  routineId = await newRoutine(t);
  const r = await t.request('POST', `/api/routines/${routineId}/delivery-targets`, { body: { channel: 'email', target: '' } });
  targetId = r.json().id;
});
test.after(async () => t.close());

const ISSUE_KEYS = ['ctx', 'input', 'loc', 'msg', 'type'];

/** The 422's items, each checked for the whole shape. */
function issuesOf(r: RawResponse, what: string): any[] {
  assert.is(r.status, 422, `${what}: ${r.text.slice(0, 300)}`);
  const detail = r.json().detail;
  assert.ok(Array.isArray(detail) && detail.length > 0, `${what}: the detail array, not ${r.text.slice(0, 200)}`);
  for (const issue of detail) {
    assert.equal(Object.keys(issue).sort(), ISSUE_KEYS, `${what}: ${JSON.stringify(issue)}`);
    assert.ok(Array.isArray(issue.loc) && issue.loc.every((p: unknown) => typeof p === 'string' || Number.isInteger(p)), `${what}: loc ${JSON.stringify(issue.loc)}`);
    assert.ok(typeof issue.msg === 'string' && issue.msg !== '' && typeof issue.type === 'string', `${what}: ${JSON.stringify(issue)}`);
    assert.ok(issue.ctx !== null && typeof issue.ctx === 'object' && !Array.isArray(issue.ctx), `${what}: ctx ${JSON.stringify(issue.ctx)}`);
    assert.ok(issue.input !== undefined, `${what}: input`);
  }
  return detail;
}

test('refusals across the routes answer items with every key of the spec shape (path, query, body, settings, routines, runs, origins, lifecycle, profiles, embeddings)', async () => {
  const cases: [string, string, unknown?][] = [
    ['GET', '/api/executions/abc'],
    ['GET', '/api/executions/1?expected_runtime_id=not-a-uuid'],
    ['GET', '/api/executions?limit=ten'],
    ['POST', '/api/export/references', { format: 'docx', document_ids: [1] }],
    ['GET', '/api/calendar/events?from=yesterday'],
    ['GET', '/api/analytics/publication-volume?window=forever'],
    ['POST', '/api/search/dive'],
    ['POST', '/api/search/dive', '[1, 2]'],
    ['POST', '/api/search/dive', '{"query": "a", "query": "b"}'],
    ['POST', '/api/search/dive', '{"query": '],
    ['POST', '/api/search/dive', { repository: 'nowhere', query: 'soil' }],
    ['POST', '/api/search/dive', { repository: 'crossref', query: 'soil', max_results: 'many' }],
    ['POST', '/api/search/dive', { repository: 'crossref', query: 'soil', ai_settings: { instructions: 3 } }],
    ['POST', '/api/search/sweep', { repositories: ['crossref'], query: 'soil', date_from: '2024-02-01', date_to: '2024-01-01' }],
    ['POST', '/api/routines', { name: 'x', schedule_cron: 'every day', parameters: { repositories: ['crossref'], query: 'soil' } }],
    ['POST', '/api/routines', { name: 'x', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'soil', page_size: 3 } }],
    ['PUT', '/api/settings/email', { settings: { smtp_port: 'twenty-five', recipient: 'nobody' } }],
    ['PUT', '/api/settings/cloud', { settings: { url: 'https://me:pw@dav.example.org/' } }],
    ['PUT', '/api/settings/execution', { max_concurrent_executions: 0 }],
    ['PUT', '/api/settings/embeddings', { settings: { provider: 'anthropic' } }],
    ['POST', '/api/auth/renderer-origin', { origin: 'http://127.0.0.1:5173/path' }],
    ['POST', '/api/lifecycle/for-documents', { document_ids: ['one'] }],
    ['POST', '/api/profiles/import', { profiles: [{ format: 'svc-watch-profile', version: 99, profile: {} }] }],
    ['POST', '/api/profiles', { name: 5 }],
    ['POST', '/api/explorer/search', { sort: 'relevance' }],
    ['POST', '/api/configurations', { name: 'x', config_type: 'teleport', parameters: {} }],
    ['POST', `/api/routines/${'x'}/delivery-targets`, { channel: 'email' }],
  ];
  for (const [method, path, body] of cases) issuesOf(await t.request(method, path, { body }), `${method} ${path} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
});

test('a value refused for its size is not echoed: input null, the limit and the length in ctx', async () => {
  const ids = Array.from({ length: 501 }, (_, i) => i + 1);
  const [many] = issuesOf(await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: ids } }), 'lifecycle 501 ids');
  assert.equal([many.type, many.input, many.ctx], ['max_length', null, { expected: '<=500', received: '501' }]);

  const long = 'soil '.repeat(250);
  const r = await t.request('POST', '/api/explorer/search', { body: { query: long } });
  const [query] = issuesOf(r, 'explorer query of 1,250 characters');
  assert.equal([query.type, query.input], ['max_length', null]);
  assert.not.ok(r.text.includes(long.trim()), 'the long query is not sent back');

  const name = 'n'.repeat(5000);
  const named = await t.request('POST', '/api/routines', { body: { name, schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'soil' } } });
  for (const issue of issuesOf(named, 'a routine name of 5,000 characters')) assert.is(issue.input, null, JSON.stringify(issue));
  assert.not.ok(named.text.includes(name), 'the long name is not sent back');
});

/** Refusals whose value must not come back: each answer is searched for it whole. */
const SECRET = 'sk-live-Zq7Xw2Hidden4Value9';
const NUMBER_SECRET = 738291045561;

test('credential refusals never carry the value: input null, no ctx.received, no "Received …" in msg', async () => {
  const refusals: [string, string, unknown, string][] = [
    ['PUT', '/api/credentials/core_api_key', { value: NUMBER_SECRET }, String(NUMBER_SECRET)],
    ['PUT', '/api/credentials/core_api_key', { value: [SECRET] }, SECRET],
    ['PUT', '/api/credentials/core_api_key', { value: SECRET.repeat(400) }, SECRET],
    ['POST', '/api/credentials/validate', { provider: 'openai', key: NUMBER_SECRET }, String(NUMBER_SECRET)],
    ['POST', '/api/ai/models', { provider: 'openai', key: { value: SECRET } }, SECRET],
    ['POST', '/api/cloud/link', { url: 'https://dav.example.org/', username: 'me', password: NUMBER_SECRET }, String(NUMBER_SECRET)],
    ['POST', '/api/search/dive', { repository: 'core', query: 'soil', ephemeral_credentials: { core_api_key: NUMBER_SECRET } }, String(NUMBER_SECRET)],
  ];
  for (const [method, path, body, value] of refusals) {
    const r = await t.request(method, path, { body });
    const what = `${method} ${path}`;
    for (const issue of issuesOf(r, what)) {
      assert.is(issue.input, null, `${what}: ${JSON.stringify(issue)}`);
      assert.not.ok('received' in issue.ctx, `${what}: ${JSON.stringify(issue)}`);
    }
    assert.not.ok(r.text.includes(value), `${what} echoed the value: ${r.text}`);
  }
  // A missing value has nothing to hide, and says it is missing.
  const [missing] = issuesOf(await t.request('PUT', '/api/credentials/core_api_key', { body: {} }), 'no value');
  assert.equal([missing.loc, missing.input], [['body', 'value'], null]);
  assert.match(missing.msg, /received undefined/);
});

test('delivery destinations are never echoed: a refused address, folder, webhook URL or feed path appears nowhere in the 422', async () => {
  const address = 'not-an-address.zq7x';
  const folder = '/no/such/zq7x-reports';
  const webhook = 'ftp://hooks.zq7x.test/inbox';
  const feed = 'feeds/zq7x.xml';
  const refusals: [string, string, unknown, string][] = [
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'email', target: address }, address],
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'folder', target: folder }, folder],
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'webhook', target: webhook }, webhook],
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'feed', target: feed }, feed],
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'folder', target: `/${'d'.repeat(5000)}zq7x` }, 'zq7x'],
    // A destination in the wrong field, or of the wrong type, is still a destination.
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'me@zq7x.org' }, 'zq7x'],
    ['POST', `/api/routines/${routineId}/delivery-targets`, { channel: 'webhook', target: ['https://hooks.zq7x.test/'] }, 'zq7x'],
    ['PUT', `/api/routines/${routineId}/delivery-targets/${targetId}`, { target: address }, address],
    ['PUT', `/api/routines/${routineId}/delivery-targets/${targetId}`, { mode: 'me@zq7x.org' }, 'zq7x'],
    ['POST', '/api/settings/email/test', { to: address }, address],
    ['POST', '/api/settings/email/test', { to: 73829104 }, '73829104'],
  ];
  for (const [method, path, body, value] of refusals) {
    const r = await t.request(method, path, { body });
    const what = `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`;
    for (const issue of issuesOf(r, what)) {
      assert.is(issue.input, null, `${what}: ${JSON.stringify(issue)}`);
      assert.not.ok('received' in issue.ctx, `${what}: ${JSON.stringify(issue)}`);
    }
    assert.not.ok(r.text.includes(value), `${what} echoed the destination: ${r.text}`);
  }
});

test.run();
