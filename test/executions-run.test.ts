import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, waitFor, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';

const ECOLOGY = fixture('crossref/works-query-ecology-rows2.json');
const CANCER = fixture('europepmc/search-cancer-lite.json');

let crossref: Stub;
let europepmc: Stub;
let pubmed: Stub;
let slow: Stub;
let t: TestServer;

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: ECOLOGY, times: Infinity }]);
  europepmc = await startStub([{ path: '/search', body: CANCER, times: Infinity }]);
  pubmed = await startStub([{ path: '/esearch.fcgi', status: 500, body: 'upstream down', times: Infinity }]);
  slow = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 1500, times: Infinity }]);
  t = await serverWithSources({ crossref: crossref.url, europepmc: europepmc.url, pubmed: pubmed.url, dblp: slow.url });
});
test.after(async () => {
  await t.close();
  for (const s of [crossref, europepmc, pubmed, slow]) await s.close();
});

test('a dive answers its id at once and completes with stored, deduplicated documents', async () => {
  const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2 } });
  assert.is(r.status, 202);
  const { id, status, replayed } = r.json();
  assert.type(id, 'number');
  assert.is(status, 'running');
  assert.is(replayed, false);
  const detail = await finished(t, id);
  assert.is(detail.status, 'completed');
  assert.is(detail.result_count, 2);
  assert.is(detail.new_count, 2);
  assert.is(detail.sources[0].source, 'crossref');
  assert.is(detail.sources[0].record_count, 2);
  assert.is(detail.sources[0].zero_reason, null);
  assert.is(detail.identity.runtime_id, t.ctx.runtimeId);
  assert.equal(detail.ai_lane, { requested: false, used: false });
  assert.is(crossref.requests[0]!.query.get('query'), 'ecology');
  const docs = (await t.request('GET', `/api/executions/${id}/documents`)).json();
  assert.is(docs.total, 2);
  assert.ok(docs.documents.every((d: any) => Number.isInteger(d.id) && d.found_by[0] === 'crossref' && d.doi.startsWith('10.')));
});

test('a re-run adds provenance, not duplicates', async () => {
  const before = t.ctx.db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
  const id = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
  const detail = await finished(t, id);
  assert.is(detail.result_count, 2);
  assert.is(detail.new_count, 0, 'nothing new the second time');
  assert.is(t.ctx.db.prepare('SELECT count(*) FROM documents').pluck().get(), before);
  const runs = t.ctx.db.prepare('SELECT count(DISTINCT execution_id) FROM execution_documents').pluck().get() as number;
  assert.ok(runs >= 2, 'both runs keep their own provenance');
});

test('records and their links to the run are stored together: when the links cannot be written, neither are the papers', async () => {
  const count = (sql: string) => t.ctx.db.prepare(sql).pluck().get() as number;
  const before = { docs: count('SELECT count(*) FROM documents'), sources: count('SELECT count(*) FROM document_sources') };
  t.ctx.db.exec("CREATE TEMP TRIGGER refuse_links BEFORE INSERT ON execution_documents BEGIN SELECT RAISE(ABORT, 'links refused'); END");
  try {
    const detail = await finished(t, await dive(t, { repository: 'europepmc', query: 'cancer', max_results: 5 }));
    assert.is(detail.status, 'failed');
  } finally {
    t.ctx.db.exec('DROP TRIGGER temp.refuse_links');
  }
  assert.equal({ docs: count('SELECT count(*) FROM documents'), sources: count('SELECT count(*) FROM document_sources') }, before, 'no paper without its run');
});

test('one paper found by two sources in one sweep is one document found by both', async () => {
  const cr = await startStub([{ path: '/works', body: fixture('identity/crossref-works-query-title-augmenting-llms-chemistry-tools-rows1-no-reference-list.json') }]);
  const oa = await startStub([{ path: '/works', body: fixture('identity/openalex-works-filter-title-search-augmenting-llms-chemistry-tools.json') }]);
  const c = await serverWithSources({ crossref: cr.url, openalex: oa.url });
  try {
    const r = await c.request('POST', '/api/search/sweep', {
      body: { repositories: ['crossref', 'openalex'], query: 'augmenting large language models with chemistry tools', max_results: 5, ephemeral_credentials: { openalex_api_key: 'k-test' } },
    });
    const detail = await finished(c, r.json().id);
    assert.is(detail.status, 'completed');
    assert.is(detail.sources.find((s: any) => s.source === 'crossref').record_count, 1);
    assert.is(detail.sources.find((s: any) => s.source === 'openalex').record_count, 2, 'the preprint and the article');
    assert.is(detail.result_count, 2, 'the article from both sources is one document');
    const docs = (await c.request('GET', `/api/executions/${detail.id}/documents`)).json().documents;
    const article = docs.find((d: any) => d.doi === '10.1038/s42256-024-00832-8');
    assert.equal(article.found_by, ['crossref', 'openalex']);
  } finally {
    await c.close();
    await cr.close();
    await oa.close();
  }
});

test('a sweep over three sources with one failing records its zero reason; the others complete', async () => {
  const r = await t.request('POST', '/api/search/sweep', { body: { repositories: ['crossref', 'europepmc', 'pubmed'], query: 'cancer', max_results: 25 } });
  const detail = await finished(t, r.json().id);
  assert.is(detail.status, 'completed');
  const by = Object.fromEntries(detail.sources.map((s: any) => [s.source, s]));
  assert.is(by.crossref.record_count, 2);
  assert.is(by.europepmc.record_count, 25);
  assert.is(by.pubmed.record_count, 0);
  assert.is(by.pubmed.zero_reason, 'upstream_failure');
  assert.is(by.pubmed.status, 'not_answered');
  const record = (await t.request('GET', `/api/executions/${detail.id}/search-record`)).json();
  const pm = record.sources.find((s: any) => s.source === 'pubmed');
  assert.is(pm.evidence.http_status, 500);
  assert.is(pm.http.length, t.ctx.tuning.sourceMaxAttempts);
  assert.is(pm.answered, false);
  assert.is(record.zero_reasons.pubmed, 'upstream_failure');
});

test('a run where no source answers is failed, with the reasons named', async () => {
  const id = await dive(t, { repository: 'pubmed', query: 'x' });
  const detail = await finished(t, id);
  assert.is(detail.status, 'failed');
  assert.match(detail.error, /pubmed upstream_failure/);
});

test('the date window goes to the source, or the source is recorded window_unanswerable', async () => {
  const id = (await t.request('POST', '/api/search/sweep', { body: { repositories: ['crossref', 'biorxiv'], query: 'ecology', max_results: 2 } })).json().id;
  const detail = await finished(t, id);
  assert.is(detail.sources.find((s: any) => s.source === 'biorxiv').zero_reason, 'window_unanswerable');
  const windowed = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2, date_from: '2012-01-01', date_to: '2022-12-31' });
  await finished(t, windowed);
  const last = crossref.requests[crossref.requests.length - 1]!;
  assert.is(last.query.get('filter'), 'from-pub-date:2012-01-01,until-pub-date:2022-12-31');
  const record = (await t.request('GET', `/api/executions/${windowed}/search-record`)).json();
  assert.equal(record.sources[0].window.asked, { from: '2012-01-01', to: '2022-12-31' });
  assert.equal(record.sources[0].window.answered, { from: '2012-01-01', to: '2022-12-31' });
});

test('bad requests are 422 and create nothing', async () => {
  const count = () => t.ctx.db.prepare('SELECT count(*) FROM executions').pluck().get();
  const before = count();
  const bad: [unknown, string][] = [
    [{ repository: 'nowhere', query: 'x' }, 'repository'],
    [{ repository: 'crossref' }, 'query'],
    [{ repository: 'crossref', query: '   ' }, 'query'],
    [{ repository: 'crossref', query: 'x', max_results: 0 }, 'max_results'],
    [{ repository: 'crossref', query: 'x', max_results: 10001 }, 'max_results'],
    [{ repository: 'crossref', query: 'x', max_results: 2.5 }, 'max_results'],
    [{ repository: 'crossref', query: 'x', date_from: '2020-02-30' }, 'date_from'],
    [{ repository: 'crossref', query: 'x', date_from: '2021-01-01', date_to: '2020-01-01' }, 'date_to'],
    [{ repository: 'crossref', query: 'x', keywords: [''] }, 'keywords'],
  ];
  for (const [body, field] of bad) {
    const r = await t.request('POST', '/api/search/dive', { body });
    assert.is(r.status, 422, JSON.stringify(body));
    assert.ok(r.json().detail.some((d: any) => d.loc.includes(field)), `${field}: ${r.text}`);
  }
  const sweep = await t.request('POST', '/api/search/sweep', { body: { repositories: [], query: 'x' } });
  assert.is(sweep.status, 422);
  assert.is(count(), before);
});

test('ephemeral credentials serve that run only: sent upstream, never stored, logged or echoed', async () => {
  const SECRET = 'ephemeral-core-key-5f4e3d2c1b';
  const core = await startStub([{ path: '/search/works/', body: '{"totalHits":0,"limit":10,"offset":0,"results":[]}' }]);
  const c = await serverWithSources({ core: core.url });
  try {
    const r = await c.request('POST', '/api/search/dive', { body: { repository: 'core', query: 'x', max_results: 10, ephemeral_credentials: { core_api_key: SECRET } } });
    const detail = await finished(c, r.json().id);
    assert.is(core.requests[0]!.headers.authorization, `Bearer ${SECRET}`);
    assert.is(detail.sources[0].zero_reason, 'answered_empty');
    assert.is(c.ctx.credentials.status('core_api_key'), 'absent');
    const texts = [
      (await c.request('GET', `/api/executions/${detail.id}`)).text,
      (await c.request('GET', `/api/executions/${detail.id}/search-record`)).text,
      (await c.request('GET', `/api/executions/${detail.id}/log`)).text,
      (await c.request('GET', `/api/executions/${detail.id}/report`)).text,
      JSON.stringify(c.ctx.db.prepare('SELECT * FROM executions').all()),
      c.logLines.join('\n'),
    ];
    assert.not.ok(texts.join('\n').includes(SECRET));
    const bad = await c.request('POST', '/api/search/dive', { body: { repository: 'core', query: 'x', ephemeral_credentials: { no_such: SECRET } } });
    assert.is(bad.status, 422);
    assert.not.ok(bad.text.includes(SECRET));
    // A restart cannot reuse the key (it was never stored) and says so instead of failing silently.
    const restarted = await c.request('POST', `/api/executions/${detail.id}/restart`);
    assert.is(restarted.status, 202);
    assert.equal(restarted.json().ephemeral_credentials_not_reused, ['core']);
    assert.match(restarted.json().note, /never stored/);
    assert.not.ok(restarted.text.includes(SECRET));
    const again = await finished(c, restarted.json().id);
    assert.is(again.sources[0].zero_reason, 'missing_key', 'the restart ran without the key');
  } finally {
    await c.close();
    await core.close();
  }
});

test('admission: no free slot is 429 with a sentence and Retry-After: 5; request_id replays first', async () => {
  await t.request('PUT', '/api/settings/execution', { body: { max_concurrent_executions: 1, routine_fire_queue_limit: 5 } });
  try {
    const first = await t.request('POST', '/api/search/dive', { body: { repository: 'dblp', query: 'slow', request_id: 'req-1', max_results: 1 } });
    assert.is(first.status, 202);
    const refused = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'x' } });
    assert.is(refused.status, 429);
    assert.is(refused.headers['retry-after'], '5');
    assert.type(refused.json().detail, 'string');
    assert.match(refused.json().detail, /\b1\b/);
    const replay = await t.request('POST', '/api/search/dive', { body: { repository: 'dblp', query: 'slow', request_id: 'req-1', max_results: 1 } });
    assert.is(replay.status, 200);
    assert.equal(replay.json(), { id: first.json().id, status: 'running', replayed: true });
    await finished(t, first.json().id);
    const again = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'x', request_id: 'req-1', max_results: 1 } });
    assert.is(again.status, 202, 'a finished run does not capture its request_id');
    await finished(t, again.json().id);
  } finally {
    await t.request('PUT', '/api/settings/execution', { body: { max_concurrent_executions: 3, routine_fire_queue_limit: 20 } });
  }
});

test('cancel is cooperative and keeps what was found', async () => {
  const id = (await t.request('POST', '/api/search/sweep', { body: { repositories: ['crossref', 'dblp'], query: 'ecology', max_results: 2 } })).json().id;
  await waitFor(() => (t.ctx.db.prepare(`SELECT status FROM execution_sources WHERE execution_id = ? AND source = 'crossref'`).pluck().get(id) === 'answered' ? true : undefined), 5000, 'crossref answer');
  const r = await t.request('POST', `/api/executions/${id}/cancel`);
  assert.is(r.status, 200);
  assert.equal(r.json(), { id, status: 'running', cancel_requested: true });
  const detail = await finished(t, id);
  assert.is(detail.status, 'cancelled');
  assert.is(detail.result_count, 2, 'the answered source keeps its records');
  const dblp = detail.sources.find((s: any) => s.source === 'dblp');
  assert.is(dblp.status, 'cancelled');
  assert.is(dblp.zero_reason, 'not_recorded');
  // not_recorded means no reason was observed: it is never rendered as a reason.
  const record = (await t.request('GET', `/api/executions/${id}/search-record`)).json();
  assert.not.ok('dblp' in record.zero_reasons, 'the summary of reasons leaves not_recorded out');
  const report = (await t.request('GET', `/api/executions/${id}/report`)).json().text as string;
  assert.match(report, /dblp +nothing: cancelled before it answered/);
  assert.not.match(report, /not_recorded|Nothing was observed/);
  const log = (await t.request('GET', `/api/executions/${id}/log`)).json().text as string;
  assert.not.match(log, /not_recorded/);
  const again = await t.request('POST', `/api/executions/${id}/cancel`);
  assert.is(again.status, 409);
  assert.is(again.json().detail.reason, 'not_running');
  assert.is((await t.request('POST', '/api/executions/999999/cancel')).status, 404);
});

test('a run that fails on the svc side settles every source: none is left running, none blamed on the source', async () => {
  t.ctx.db.exec(`CREATE TEMP TRIGGER refuse_links BEFORE INSERT ON execution_documents BEGIN SELECT RAISE(ABORT, 'disk says no'); END`);
  try {
    const id = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
    const detail = await finished(t, id);
    assert.is(detail.status, 'failed');
    const source = detail.sources[0];
    assert.is(source.status, 'not_answered', 'not left running');
    assert.is(source.zero_reason, 'not_recorded', 'no source-blaming reason');
    assert.match(source.message, /svc could not finish storing/);
    assert.ok(source.finished_at_utc);
    const record = (await t.request('GET', `/api/executions/${id}/search-record`)).json();
    assert.is(record.sources[0].status, 'not_answered');
  } finally {
    t.ctx.db.exec('DROP TRIGGER IF EXISTS temp.refuse_links');
  }
});

test('restart keeps the link to a saved configuration as it is now; a dive naming an unknown configuration is 422', async () => {
  const unknown = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, saved_configuration_id: 987654 } });
  assert.is(unknown.status, 422);
  assert.equal(unknown.json().detail[0].loc, ['body', 'saved_configuration_id']);
  const original = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2, date_from: '2001-01-01', keywords: ['ecology'] });
  await finished(t, original);
  const config = await t.request('POST', '/api/configurations', {
    body: { name: 'saved from a run', config_type: 'dive', parameters: { repository: 'crossref', query: 'ecology', max_results: 2 }, link_to_execution_id: original },
  });
  assert.is(config.status, 201);
  const configId = config.json().id;
  assert.is((await t.request('GET', `/api/executions/${original}`)).json().parameters.saved_configuration_id, configId, 'the read shows the link');
  const linked = await t.request('POST', `/api/executions/${original}/restart`);
  assert.is(linked.status, 202);
  assert.equal(linked.json().ephemeral_credentials_not_reused, []);
  const first = await finished(t, linked.json().id);
  assert.is(first.parameters.saved_configuration_id, configId, 'the restart keeps the link');
  assert.is(first.parameters.date_from, '2001-01-01');
  assert.equal(first.parameters.keywords, ['ecology']);
  assert.is((await t.request('DELETE', `/api/configurations/${configId}`)).status, 200);
  const unlinked = await t.request('POST', `/api/executions/${original}/restart`);
  assert.is(unlinked.status, 202, 'a deleted configuration does not block a restart');
  const second = await finished(t, unlinked.json().id);
  assert.is(second.parameters.saved_configuration_id, null, 'no link to a configuration that is gone');
  assert.is(t.ctx.db.prepare('SELECT saved_configuration_id FROM executions WHERE id = ?').pluck().get(second.id), null);
});

test('restart creates a linked execution; reads show restarted_into; no body or a request_id body', async () => {
  const original = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
  await finished(t, original);
  const bare = await t.request('POST', `/api/executions/${original}/restart`);
  assert.is(bare.status, 202);
  assert.is(bare.json().restarted_from, original);
  const withBody = await t.request('POST', `/api/executions/${original}/restart`, { body: { request_id: 'restart-1' } });
  assert.is(withBody.status, 202);
  const restarted = await finished(t, bare.json().id);
  assert.is(restarted.restarted_from, original);
  assert.is(restarted.parameters.query, 'ecology');
  await finished(t, withBody.json().id);
  const read = (await t.request('GET', `/api/executions/${original}`)).json();
  assert.equal(read.restarted_into, [bare.json().id, withBody.json().id]);
  const list = (await t.request('GET', '/api/executions?limit=200')).json();
  assert.is(list.executions.find((e: any) => e.id === bare.json().id).restarted_from, original);
  assert.is((await t.request('POST', `/api/executions/${original}/restart`, { body: { request_id: 7 } })).status, 422);
});

test('delete refuses a running execution and removes a finished one', async () => {
  const running = (await t.request('POST', '/api/search/dive', { body: { repository: 'dblp', query: 'slow', max_results: 1 } })).json().id;
  const refused = await t.request('DELETE', `/api/executions/${running}`);
  assert.is(refused.status, 409);
  await finished(t, running);
  assert.is((await t.request('DELETE', `/api/executions/${running}`)).status, 200);
  assert.is((await t.request('GET', `/api/executions/${running}`)).status, 404);
  assert.is((await t.request('DELETE', `/api/executions/${running}`)).status, 404);
});

test.run();
