/**
 * What the window's Search and run pages read from the service instead of
 * deciding it themselves: which sources cannot answer a run with or without a
 * date window (GET /api/search/repositories?window=…, in the words the run
 * records), each source's zero reason in words on the execution read, and an
 * interrupted run's reason in words on the list and the read.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { insertExecution, markInterrupted } from '../src/executions/repo.js';
import type { RunSpec } from '../src/executions/request.js';
import { ZERO_REASON_MEANING } from '../src/executions/zero-reasons.js';
import { startTestServer, type TestServer } from './_setup.js';
import { dive, finished } from './_executions.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

const row = (list: any, id: string) => list.repositories.find((r: any) => r.id === id);

test('search/repositories?window=none marks the sources that answer only for a date interval, with the sentence the run records', async () => {
  const plain = (await t.request('GET', '/api/search/repositories')).json();
  assert.is(row(plain, 'biorxiv').searchable, true, 'without window= the answer is as before');
  const none = (await t.request('GET', '/api/search/repositories?window=none')).json();
  const biorxiv = row(none, 'biorxiv');
  assert.equal([biorxiv.searchable, biorxiv.reason], [false, 'window_unanswerable']);
  assert.is(biorxiv.message, 'bioRxiv answers only for a date interval; give a from and to date.');
  assert.is(row(none, 'medrxiv').reason, 'window_unanswerable');
  assert.ok(!none.searchable.includes('biorxiv') && none.searchable.includes('arxiv'));
  const given = (await t.request('GET', '/api/search/repositories?window=given')).json();
  assert.equal([row(given, 'biorxiv').searchable, row(given, 'biorxiv').reason], [true, null]);
  assert.is(row(given, 'core').reason, 'missing_key', 'a missing key still comes first');

  // The run says the same thing when it is asked anyway.
  const id = await dive(t, { repository: 'biorxiv', query: 'cells' });
  const detail = await finished(t, id);
  const source = detail.sources[0];
  assert.equal([source.zero_reason, source.message], ['window_unanswerable', biorxiv.message]);
  assert.is(source.zero_reason_meaning, ZERO_REASON_MEANING.window_unanswerable);
});

test('search/repositories refuses a window= it does not know, naming the parameter', async () => {
  const r = await t.request('GET', '/api/search/repositories?window=maybe');
  assert.is(r.status, 422);
  assert.equal(r.json().detail[0].loc, ['query', 'window']);
});

test('a source that gave nothing without a reason (not_recorded) has no meaning on the read: its status says what happened', async () => {
  const spec: RunSpec = {
    type: 'sweep', repositories: ['crossref', 'arxiv'], query: 'x', keywords: [], dateFrom: null, dateTo: null, maxResults: 5, aiEnabled: false, aiSettings: null,
    requestId: null, savedConfigurationId: null, routineId: null, author: null,
  };
  const id = insertExecution(t.ctx.db, spec, { pid: 1, runtimeId: 'gone', role: 'cli' }, t.ctx.nowIso(), null, { requested: false, used: false });
  assert.ok(markInterrupted(t.ctx.db, id, 'owner_dead', t.ctx.nowIso()));
  const detail = (await t.request('GET', `/api/executions/${id}`)).json();
  assert.ok(detail.sources.length === 2 && detail.sources.every((s: any) => s.zero_reason === 'not_recorded' && s.zero_reason_meaning === null));
  assert.is(detail.interrupted_reason_meaning, 'the process that owned this run is gone and recorded nothing (killed, or the machine stopped)');
  const listed = (await t.request('GET', '/api/executions?status=interrupted')).json().executions.find((e: any) => e.id === id);
  assert.equal([listed.interrupted_reason, listed.interrupted_reason_meaning], ['owner_dead', detail.interrupted_reason_meaning]);
  const completed = (await t.request('GET', '/api/executions?status=completed')).json().executions;
  assert.ok(completed.every((e: any) => e.interrupted_reason_meaning === null));
});

test.run();
