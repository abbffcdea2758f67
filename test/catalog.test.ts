import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADAPTERS, CATALOG } from '../src/sources/index.js';
import { startTestServer, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';

const SECRET = 'catalog-secret-value-31415926';
let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

test('the catalog lists every source with name, homepage, capabilities, key need and status', async () => {
  const { repositories } = (await t.request('GET', '/api/repositories/catalog')).json();
  assert.equal(repositories.map((r: any) => r.id), CATALOG.map((c) => c.id));
  for (const id of ['arxiv', 'openalex', 'crossref', 'pubmed', 'europepmc', 'semanticscholar', 'dblp', 'biorxiv', 'medrxiv', 'doaj', 'zenodo', 'hal', 'inspire', 'plos', 'core', 'ieee', 'springer', 'scopus', 'ads']) {
    const r = repositories.find((x: any) => x.id === id);
    assert.ok(r, id);
    assert.is(r.status, 'active');
    assert.match(r.homepage, /^https:\/\//);
    assert.ok(['exact', 'year', 'none', 'required'].includes(r.capabilities.date_window), id);
    assert.ok(r.capabilities.page_size > 0 && r.capabilities.rate_limit.requests > 0, id);
  }
  assert.is(repositories.find((x: any) => x.id === 'core').needs_key, true);
  assert.equal(repositories.find((x: any) => x.id === 'pubmed').credential, { name: 'ncbi_api_key', required: false });
  const retired = repositories.find((x: any) => x.id === 'microsoft_academic');
  assert.is(retired.status, 'retired');
  assert.match(retired.retired_on, /^\d{4}-\d{2}/);
  assert.ok(ADAPTERS.length >= 19);
});

test('search/repositories says what can be searched now and why not; no secret anywhere', async () => {
  const before = (await t.request('GET', '/api/search/repositories')).json();
  const core = before.repositories.find((r: any) => r.id === 'core');
  assert.equal([core.searchable, core.reason, core.key_status], [false, 'missing_key', 'absent']);
  assert.is(before.repositories.find((r: any) => r.id === 'meta').reason, 'retired');
  assert.ok(before.searchable.includes('arxiv') && !before.searchable.includes('core'));
  await t.request('PUT', '/api/credentials/core_api_key', { body: { value: SECRET } });
  const after = await t.request('GET', '/api/search/repositories');
  const coreNow = after.json().repositories.find((r: any) => r.id === 'core');
  assert.equal([coreNow.searchable, coreNow.reason, coreNow.key_status], [true, null, 'present']);
  const catalog = await t.request('GET', '/api/repositories/catalog');
  assert.not.ok(after.text.includes(SECRET) || catalog.text.includes(SECRET));
});

test('svc sources prints the catalog as a table with key status, --json for machines', async () => {
  const human = await runCliInProcess(['sources'], { env: t.dirs.env });
  assert.is(human.code, 0);
  assert.match(human.stdout, /^ID +NAME +STATUS +KEY/);
  assert.match(human.stdout, /\ncore +CORE +active +core_api_key \(required, present\)/);
  assert.match(human.stdout, /\nieee .*no \(missing_key\)/);
  assert.not.ok(human.stdout.includes(SECRET));
  const json = JSON.parse((await runCliInProcess(['--json', 'sources'], { env: t.dirs.env })).stdout);
  assert.is(json.repositories.find((r: any) => r.id === 'microsoft_academic').reason, 'retired');
});

test.run();
