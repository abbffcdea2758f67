/**
 * The search record sends each source's stored outcome as its declared shape
 * (src/wire/executions.ts): read back through a checked parse, never passed
 * on as stored, so what the window reads and what the route sends cannot drift.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, internalErrorPlanned, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';

let crossref: Stub;
let t: TestServer;
let id: number;

const stored = () => JSON.parse((t.ctx.db.prepare('SELECT outcome_json FROM execution_sources WHERE execution_id = ?').get(id) as { outcome_json: string }).outcome_json);
const store = (outcome: unknown) => t.ctx.db.prepare('UPDATE execution_sources SET outcome_json = ? WHERE execution_id = ?').run(JSON.stringify(outcome), id);

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  t = await serverWithSources({ crossref: crossref.url });
  id = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
  await finished(t, id);
});
test.after(async () => {
  await t.close();
  await crossref.close();
});

test('a source row carries its caps and the record its zero reasons, as the window reads them', async () => {
  const record = (await t.request('GET', `/api/executions/${id}/search-record`)).json();
  assert.type(record.sources[0].caps.page_bytes, 'number');
  assert.equal(record.sources[0].caps.cut, []);
  assert.equal(record.zero_reasons, {});
});

test('a field the stored outcome holds but the record does not declare is not sent on', async () => {
  const original = stored();
  try {
    store({ ...original, request: { ...original.request, api_key: 'planted-secret' }, traces: original.traces.map((tr: object) => ({ ...tr, headers: { authorization: 'planted-secret' } })) });
    const response = await t.request('GET', `/api/executions/${id}/search-record`);
    assert.is(response.status, 200);
    assert.not.ok(response.text.includes('planted-secret'), 'neither the request nor a trace passes an undeclared field on');
    assert.is(response.json().sources[0].request.query, 'ecology');
  } finally {
    store(original);
  }
});

test('a stored outcome that no longer fits its shape is refused, not sent on as it is', async () => {
  const original = stored();
  try {
    store({ ...original, traces: 'not a list' });
    internalErrorPlanned(/stored source outcome does not fit its shape at traces/);
    const response = await t.request('GET', `/api/executions/${id}/search-record`);
    assert.is(response.status, 500);
    assert.not.ok(response.text.includes('not a list'));
  } finally {
    store(original);
  }
  assert.is((await t.request('GET', `/api/executions/${id}/search-record`)).status, 200);
});

test.run();
