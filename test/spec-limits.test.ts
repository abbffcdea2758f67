/**
 * The limits and refusals of spec 1 that had no test at one side of their
 * bound: explorer limit and defaults, lifecycle check limit 1..5000 and
 * for-documents 500 ids, required fields of queue, settings, credentials,
 * restore and backup bodies. Each bound: the edge value accepted, one past
 * refused with 422 naming the field.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, waitFor, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';

let t: TestServer;
let docIds: number[] = [];

test.before(async () => {
  t = await startTestServer();
  docIds = seed(t.ctx, Array.from({ length: 3 }, (_, i) => makeRecord(i + 1, { source: 'dblp', nativeId: `conf/x/${i + 1}`, doi: undefined, ids: { dblp: `conf/x/${i + 1}` }, title: `Paper ${i + 1}`, publicationDate: `202${i}-01-01` })));
});
test.after(async () => t.close());

/** The 422 validation shape, naming `loc`. */
function refusedAt(r: { status: number; json(): any; text: string }, loc: (string | number)[], what: string) {
  assert.is(r.status, 422, `${what}: ${r.text}`);
  const detail = r.json().detail;
  assert.ok(Array.isArray(detail), `${what}: validation shape`);
  assert.ok(
    detail.some((d: any) => JSON.stringify(d.loc) === JSON.stringify(loc)),
    `${what}: loc ${JSON.stringify(loc)} in ${JSON.stringify(detail.map((d: any) => d.loc))}`,
  );
}

test('explorer search: limit default 50, sort default newest, cursor null; limit 1 accepted, 0 refused at body.limit', async () => {
  const search = (body: unknown) => t.request('POST', '/api/explorer/search', { body });
  const plain = (await search({})).json();
  assert.equal([plain.limit, plain.sort ?? 'newest', plain.papers.length], [50, 'newest', 3]);
  const nulls = await search({ cursor: null, query: null, date_from: null, date_to: null });
  assert.is(nulls.status, 200, nulls.text);
  const one = (await search({ limit: 1 })).json();
  assert.equal([one.papers.length, one.papers[0].id], [1, docIds[2]], 'newest first');
  assert.type(one.next_cursor, 'string');
  refusedAt(await search({ limit: 0 }), ['body', 'limit'], 'limit 0');
  refusedAt(await search({ limit: '5' }), ['body', 'limit'], 'limit as a string');
  refusedAt(await search({ cursor: 5 }), ['body', 'cursor'], 'cursor not a string');
  refusedAt(await search({ sources: [1] }), ['body', 'sources', 0], 'sources not strings');
});

test('explorer facets and export: the filter fields are checked there too; export format defaults to bibtex', async () => {
  refusedAt(await t.request('POST', '/api/explorer/facets', { body: { categories: 'x' } }), ['body', 'categories'], 'facets categories not a list');
  refusedAt(await t.request('POST', '/api/explorer/export', { body: { authors: 'x' } }), ['body', 'authors'], 'export authors not a list');
  const exported = await t.request('POST', '/api/explorer/export', { body: {} });
  assert.is(exported.status, 200, exported.text);
  assert.match(exported.text, /@\w+\{/, 'bibtex by default');
  assert.is(exported.headers['x-svc-count'], '3', 'everything matching, not a page');
});

async function checkToEnd(body: unknown): Promise<any> {
  const started = await t.request('POST', '/api/lifecycle/check', { body });
  assert.is(started.status, 202, started.text);
  const runId = started.json().run_id;
  return waitFor(async () => {
    const last = (await t.request('GET', '/api/lifecycle')).json().check.last;
    return last && last.run_id === runId && last.status !== 'running' ? last : undefined;
  }, 10_000, 'the check to end');
}

test('lifecycle check: limit 1 and 5000 accepted, 0 and 5001 refused at body.limit; no body means 1000', async () => {
  // No outside service is asked: the seeded papers carry no identifier a lifecycle source knows.
  t.ctx.config.sourceUrls.arxiv = 'http://127.0.0.1:1';
  t.ctx.config.sourceUrls.crossref = 'http://127.0.0.1:1';
  assert.is((await checkToEnd({ limit: 1 })).limit, 1);
  assert.is((await checkToEnd({ limit: 5000 })).limit, 5000);
  assert.is((await checkToEnd(undefined)).limit, 1000);
  assert.is((await checkToEnd({})).limit, 1000);
  refusedAt(await t.request('POST', '/api/lifecycle/check', { body: { limit: 0 } }), ['body', 'limit'], 'limit 0');
  refusedAt(await t.request('POST', '/api/lifecycle/check', { body: { limit: 5001 } }), ['body', 'limit'], 'limit 5001');
});

test('lifecycle for-documents: 500 ids accepted, 501 refused at body.document_ids', async () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  const ok = await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: ids(500) } });
  assert.is(ok.status, 200, ok.text);
  assert.is(ok.json().documents.length + ok.json().unknown_ids.length, 500);
  refusedAt(await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: ids(501) } }), ['body', 'document_ids'], '501 ids');
});

test('reading queue: document_id and status are required; list status omitted or all shows read and unread', async () => {
  refusedAt(await t.request('POST', '/api/reading-queue', { body: {} }), ['body', 'document_id'], 'no document_id');
  for (const id of docIds.slice(0, 2)) assert.is((await t.request('POST', '/api/reading-queue', { body: { document_id: id } })).status, 201);
  refusedAt(await t.request('PUT', `/api/reading-queue/${docIds[0]}`, { body: {} }), ['body', 'status'], 'no status');
  assert.is((await t.request('PUT', `/api/reading-queue/${docIds[0]}`, { body: { status: 'read' } })).status, 200);
  const count = async (q: string) => {
    const r = await t.request('GET', `/api/reading-queue${q}`);
    assert.is(r.status, 200, r.text);
    const body = r.json();
    return (body.entries ?? body.items ?? body.papers).length;
  };
  assert.equal([await count(''), await count('?status=all'), await count('?status=read'), await count('?status=unread')], [2, 2, 1, 1]);
});

test('settings: {settings} required and keys outside the group ignored; execution settings need both integers', async () => {
  refusedAt(await t.request('PUT', '/api/settings/storage', { body: {} }), ['body', 'settings'], 'no settings');
  const ignored = await t.request('PUT', '/api/settings/storage', { body: { settings: { no_such_key_zq: 1 } } });
  assert.is(ignored.status, 200, ignored.text);
  assert.not.ok('no_such_key_zq' in ignored.json().settings);
  refusedAt(await t.request('PUT', '/api/settings/execution', { body: { max_concurrent_executions: 2 } }), ['body', 'routine_fire_queue_limit'], 'no queue limit');
  refusedAt(await t.request('PUT', '/api/settings/execution', { body: { routine_fire_queue_limit: 2 } }), ['body', 'max_concurrent_executions'], 'no concurrency');
  refusedAt(await t.request('PUT', '/api/settings/execution', { body: { max_concurrent_executions: 1.5, routine_fire_queue_limit: 2 } }), ['body', 'max_concurrent_executions'], 'not an integer');
});

test('credentials: store needs value; validate needs provider and key', async () => {
  refusedAt(await t.request('PUT', '/api/credentials/ncbi_api_key', { body: {} }), ['body', 'value'], 'no value');
  refusedAt(await t.request('POST', '/api/credentials/validate', { body: { key: 'sk-abcdefghijklmnop' } }), ['body', 'provider'], 'no provider');
  refusedAt(await t.request('POST', '/api/credentials/validate', { body: { provider: 'openai' } }), ['body', 'key'], 'no key');
  refusedAt(await t.request('POST', '/api/credentials/validate', { body: { provider: 'openai', key: null } }), ['body', 'key'], 'null key');
});

test('restore needs confirm, path and vault_parent; backup include_reports is a boolean', async () => {
  const full = { confirm: 'restore', path: '/nonexistent/bundle.zip', vault_parent: '/nonexistent' };
  for (const field of ['confirm', 'path', 'vault_parent'] as const) {
    const body: Record<string, unknown> = { ...full };
    delete body[field];
    refusedAt(await t.request('POST', '/api/restore', { body }), ['body', field], `restore without ${field}`);
  }
  refusedAt(await t.request('POST', '/api/backup', { body: { include_reports: 'no' } }), ['body', 'include_reports'], 'include_reports not boolean');
});

test('watch profiles: display_name and affiliations default empty; import profiles default empty', async () => {
  const r = await t.request('POST', '/api/profiles', { body: { name: 'Ada Lovelace' } });
  assert.is(r.status, 201, r.text);
  assert.equal([r.json().display_name, r.json().affiliations], ['', []]);
  const imported = await t.request('POST', '/api/profiles/import', { body: {} });
  assert.equal([imported.status, imported.json().imported], [201, 0]);
});

test('embeddings probe settings is an object or null; links for-documents defaults to no ids, 500 accepted, 501 refused', async () => {
  refusedAt(await t.request('POST', '/api/embeddings/probe', { body: { settings: 'x' } }), ['body', 'settings'], 'probe settings a string');
  const links = await t.request('POST', '/api/links/for-documents', { body: {} });
  assert.is(links.status, 200, links.text);
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
  for (const path of ['/api/links/for-documents', '/api/links/collapse-preview']) {
    const ok = await t.request('POST', path, { body: { document_ids: ids(500) } });
    assert.is(ok.status, 200, `${path} 500 ids: ${ok.text.slice(0, 200)}`);
    refusedAt(await t.request('POST', path, { body: { document_ids: ids(501) } }), ['body', 'document_ids'], `${path} 501 ids`);
  }
});

test('analytics window: 1 and 3650 days accepted, 3651 refused at query.window; top and runs at their edges', async () => {
  for (const [path, days] of [['/api/analytics/summary?window=1', 1], ['/api/analytics/discovery-lag?window=3650d', 3650]] as const) {
    const r = await t.request('GET', path);
    assert.is(r.status, 200, `${path}: ${r.text}`);
    assert.is(r.json().window.days, days, path);
  }
  refusedAt(await t.request('GET', '/api/analytics/overview?window=3651'), ['query', 'window'], 'window 3651');
  for (const path of ['/api/analytics/publication-volume?top=1', '/api/analytics/publication-volume?top=50', '/api/analytics/routine-health?runs=1', '/api/analytics/routine-health?runs=200']) {
    assert.is((await t.request('GET', path)).status, 200, path);
  }
  refusedAt(await t.request('GET', '/api/analytics/routine-health?runs=0'), ['query', 'runs'], 'runs 0');
});

test.run();
