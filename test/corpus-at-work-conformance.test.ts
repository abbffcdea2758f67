/**
 * Conformance of the "corpus at work" routes (explorer, reading queue, why,
 * analytics, watchdog, lifecycle) over real HTTP on loopback, against spec 1:
 * every route of routes.tsv is guarded with the spec's reasons and envelope,
 * every 422 item has the whole validation shape {loc, msg, type, input, ctx},
 * and refusals leave stored data as it was.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';
import { addRun, daysAgo } from './_history.js';

let t: TestServer;
let ids: number[];

test.before(async () => {
  t = await startTestServer();
  ids = seed(t.ctx, [1, 2, 3].map((n) => makeRecord(n, { title: `Soil carbon study ${n}` })));
});
test.after(async () => t.close());

const SPEC_ROUTES = '/work/shared/spec/routes.tsv';
const AREA = /^\/api\/(explorer|reading-queue|analytics|watchdog|lifecycle)\b|^\/api\/documents\/\{doc_id\}\/(why|lifecycle)$/;

function areaRoutes(): [string, string][] {
  // The spec's own list when it is on this machine; otherwise the routes the brief names.
  const rows = fs.existsSync(SPEC_ROUTES)
    ? fs.readFileSync(SPEC_ROUTES, 'utf8').split('\n').map((line) => line.split('\t') as [string, string])
    : [];
  const listed = rows.filter(([method, path]) => /^(GET|POST|PUT|DELETE)$/.test(method) && AREA.test(path ?? ''));
  return listed.length ? listed : [['POST', '/api/explorer/search'], ['GET', '/api/reading-queue'], ['GET', '/api/watchdog'], ['POST', '/api/lifecycle/check']];
}

const ISSUE_KEYS = ['loc', 'msg', 'type', 'input', 'ctx'];

test('every corpus-at-work route of routes.tsv is behind the guard: 401 token_missing and token_invalid in the {detail: {reason, message}} envelope', async () => {
  const routes = areaRoutes();
  assert.ok(routes.length >= 20, `${routes.length} routes`);
  for (const [method, spec] of routes) {
    const path = spec.replace(/\{[a-z_]+\}/g, String(ids[0]));
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    for (const [token, reason] of [[null, 'token_missing'], ['not-the-token', 'token_invalid']] as const) {
      const r = await t.request(method, path, { token, body });
      assert.is(r.status, 401, `${method} ${spec}`);
      const detail = r.json().detail;
      assert.equal([detail.reason, typeof detail.message], [reason, 'string'], `${method} ${spec}`);
    }
  }
});

test('every 422 of these routes is the spec\'s validation item, input and ctx included (path id, query integer and boolean, missing body, explorer refusals)', async () => {
  const cases: [string, string, unknown?][] = [
    ['GET', '/api/documents/abc/why'],
    ['GET', '/api/documents/0/lifecycle'],
    ['PUT', '/api/reading-queue/x', { status: 'read' }],
    ['DELETE', '/api/reading-queue/-1'],
    ['GET', '/api/reading-queue?limit=ten'],
    ['GET', '/api/lifecycle?offset=x'],
    ['GET', '/api/analytics/routine-health?runs=many'],
    ['GET', '/api/analytics/keyword-contribution?routine_id=x'],
    ['GET', '/api/watchdog?include_muted=yes'],
    ['POST', '/api/explorer/search'],
    ['POST', '/api/explorer/facets'],
    ['POST', '/api/watchdog/mute'],
    ['POST', '/api/lifecycle/for-documents'],
    ['POST', '/api/reading-queue'],
    ['POST', '/api/explorer/search', { sort: 'relevance' }],
    ['POST', '/api/explorer/search', { query: '-soil' }],
    ['POST', '/api/explorer/facets', { date_from: '2021-02-01', date_to: '2021-01-01' }],
  ];
  for (const [method, path, body] of cases) {
    const r = await t.request(method, path, { body });
    assert.is(r.status, 422, `${method} ${path} ${JSON.stringify(body)}: ${r.text.slice(0, 200)}`);
    const detail = r.json().detail;
    assert.ok(Array.isArray(detail) && detail.length > 0, `${method} ${path}: the detail array`);
    for (const issue of detail) {
      assert.equal(ISSUE_KEYS.filter((k) => !(k in issue)), [], `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(issue)}`);
      assert.ok(Array.isArray(issue.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string', JSON.stringify(issue));
      assert.ok(typeof issue.ctx === 'object' && issue.ctx !== null && !Array.isArray(issue.ctx), `ctx is an object: ${JSON.stringify(issue)}`);
    }
  }
});

const snapshot = (sql: string) => JSON.stringify(t.ctx.db.prepare(sql).all());

test('refusals leave stored data as it was: reading queue, watchdog mutes, lifecycle runs', async () => {
  assert.is((await t.request('POST', '/api/reading-queue', { body: { document_id: ids[0] } })).status, 201);
  assert.is((await t.request('PUT', `/api/reading-queue/${ids[0]}`, { body: { status: 'read' } })).status, 200);
  const queue = snapshot('SELECT * FROM reading_queue ORDER BY document_id');
  const refusals: [string, string, unknown, number][] = [
    ['POST', '/api/reading-queue', { document_id: 999_999 }, 404],
    ['POST', '/api/reading-queue', { document_id: 0 }, 422],
    ['PUT', `/api/reading-queue/${ids[0]}`, { status: 'all' }, 422],
    ['PUT', `/api/reading-queue/${ids[1]}`, { status: 'read' }, 404],
    ['PUT', '/api/reading-queue/999999', { status: 'unread' }, 404],
    ['DELETE', `/api/reading-queue/${ids[1]}`, undefined, 404],
    ['DELETE', '/api/reading-queue/999999', undefined, 404],
  ];
  for (const [method, path, body, status] of refusals) {
    const r = await t.request(method, path, { body });
    assert.is(r.status, status, `${method} ${path} ${JSON.stringify(body)}: ${r.text.slice(0, 200)}`);
  }
  assert.is(snapshot('SELECT * FROM reading_queue ORDER BY document_id'), queue, 'the queue is unchanged');

  for (const n of [3, 2, 1]) addRun(t.ctx, { startedAt: daysAgo(n), sources: { crossref: { zeroReason: 'upstream_failure' } } });
  const key = 'source_failing:crossref';
  assert.is((await t.request('POST', '/api/watchdog/mute', { body: { key, note: 'known outage' } })).status, 200);
  const mutes = snapshot('SELECT * FROM watchdog_mutes ORDER BY finding_key');
  for (const [path, body, status] of [
    ['/api/watchdog/mute', { key: 'source_failing:nosuch' }, 404],
    ['/api/watchdog/mute', { key, note: 'x'.repeat(501) }, 422],
    ['/api/watchdog/mute', { key: '' }, 422],
    ['/api/watchdog/unmute', { key: 'source_failing:nosuch' }, 404],
    ['/api/watchdog/unmute', { key: 'x'.repeat(301) }, 422],
  ] as const) {
    const r = await t.request('POST', path, { body });
    assert.is(r.status, status, `${path} ${JSON.stringify(body).slice(0, 80)}: ${r.text.slice(0, 200)}`);
  }
  assert.is(snapshot('SELECT * FROM watchdog_mutes ORDER BY finding_key'), mutes, 'the mutes are unchanged');

  const runs = snapshot('SELECT * FROM lifecycle_runs ORDER BY id');
  for (const body of [{ limit: 0 }, { limit: 5001 }, { limit: 1000.5 }, { run_until_done: 'true' }, []]) {
    assert.is((await t.request('POST', '/api/lifecycle/check', { body })).status, 422, JSON.stringify(body));
  }
  assert.is(snapshot('SELECT * FROM lifecycle_runs ORDER BY id'), runs, 'no lifecycle check was started');
});

test.run();
