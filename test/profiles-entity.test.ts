/**
 * A routine that follows a watch profile: its fire asks each source about the person, by ORCID iD
 * where the source searches by it (Crossref's orcid filter, OpenAlex's authorships.author.orcid),
 * by name otherwise (arXiv's au:), and records entity_unsupported for a source with no author
 * search (dblp). Recorded real answers on loopback stubs; the new papers are then matched.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { finished, serverWithSources } from './_executions.js';
import { fixture, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';

const ORCID = '0000-0002-8512-9529';
let t: TestServer;
let crossref: Stub;
let openalex: Stub;
let arxiv: Stub;
let dblp: Stub;
let orcidApi: Stub;

test.before(async () => {
  crossref = await startStub([{ path: '/works', query: { filter: `orcid:${ORCID}` }, body: fixture('crossref/works-query-ecology-rows2.json') }]);
  openalex = await startStub([{ path: '/works', body: fixture('openalex/works-search-ml-nlp-2020-2022-first5-of-50.json') }]);
  arxiv = await startStub([{ path: '/query', body: fixture('arxiv/empty-idlist-0000.0000.xml') }]);
  dblp = await startStub([]);
  orcidApi = await startStub([{ path: '/0000-0002-9341-7985/works', body: fixture('orcid/works-0000-0002-9341-7985.json') }]);
  t = await serverWithSources({ crossref: crossref.url, openalex: openalex.url, arxiv: arxiv.url, dblp: dblp.url, orcid: orcidApi.url });
  t.ctx.credentials.set('openalex_api_key', 'test-key');
});
test.after(async () => {
  await t.close();
  await Promise.all([crossref, openalex, arxiv, dblp, orcidApi].map((s) => s.close()));
});

test('a fire asks by ORCID where it can, by name elsewhere, and says entity_unsupported for the rest', async () => {
  const profile = (await t.request('POST', '/api/profiles', { body: { name: 'Han Trong Thanh', orcid: ORCID } })).json();
  const routine = await t.request('POST', '/api/routines', {
    body: { name: 'follow', schedule_cron: '@daily', parameters: { repositories: ['crossref', 'openalex', 'arxiv', 'dblp'], query: '', max_results: 5 }, entity: { profile_id: profile.id, mode: 'new_papers' } },
  });
  assert.is(routine.status, 201, routine.text);
  const unfocused = await t.request('POST', '/api/routines', { body: { name: 'nothing', schedule_cron: '@daily', parameters: { repositories: ['crossref'], query: '' } } });
  assert.equal([unfocused.status, unfocused.json().detail[0].loc], [422, ['body', 'parameters', 'query']], 'an empty query needs an entity');
  const cleared = await t.request('PUT', `/api/routines/${routine.json().id}`, { body: { entity: null } });
  assert.is(cleared.status, 422, 'dropping the entity of a routine with no query is refused');
  const run = (await t.request('POST', `/api/routines/${routine.json().id}/run`)).json();
  await finished(t, run.execution_id);
  assert.is(crossref.requests[0]!.query.get('query.author'), null, 'an ORCID is a filter, not a byline query');
  assert.match(crossref.requests[0]!.query.get('filter')!, new RegExp(`orcid:${ORCID}`));
  assert.match(openalex.requests[0]!.query.get('filter')!, new RegExp(`authorships.author.orcid:${ORCID}`));
  assert.match(arxiv.requests[0]!.query.get('search_query')!, /au:"Han Trong Thanh"/);
  assert.is(dblp.requests.length, 0);
  for (const stub of [crossref, openalex, arxiv]) stub.assertDone();
  const record = (await t.request('GET', `/api/executions/${run.execution_id}/search-record`)).json();
  assert.is(record.zero_reasons.dblp, 'entity_unsupported');
  const matches = (await t.request('GET', `/api/profiles/${profile.id}/matches`)).json();
  assert.ok(matches.by_basis.orcid >= 1, 'the paper the run brought in matches by ORCID');
});

test('the ORCID registry lists the person\'s works: a following routine brings them in, matched by ORCID', async () => {
  const profile = (await t.request('POST', '/api/profiles', { body: { name: 'Peter Binfield', orcid: '0000-0002-9341-7985' } })).json();
  const routine = (await t.request('POST', '/api/routines', {
    body: { name: 'binfield', schedule_cron: '@daily', parameters: { repositories: ['orcid', 'dblp'], query: '', max_results: 50 }, entity: { profile_id: profile.id, mode: 'new_papers' } },
  })).json();
  const run = (await t.request('POST', `/api/routines/${routine.id}/run`)).json();
  await finished(t, run.execution_id);
  orcidApi.assertDone();
  const record = (await t.request('GET', `/api/executions/${run.execution_id}/search-record`)).json();
  assert.is(record.sources.find((s: any) => s.source === 'orcid').counts.records, 8);
  const matches = (await t.request('GET', `/api/profiles/${profile.id}/matches?limit=50`)).json();
  assert.is(matches.by_basis.orcid, 8);
  assert.ok(matches.matches.every((m: any) => m.matched_author === 'Peter Binfield'));
});

test.run();
