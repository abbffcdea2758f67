import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { makeRecord, seed } from './_corpus.js';

let t: TestServer;
const facets = (body: unknown) => t.request('POST', '/api/explorer/facets', { body });

test.before(async () => {
  t = await startTestServer();
  const records = [];
  for (let n = 1; n <= 40; n++) {
    records.push(
      makeRecord(n, {
        source: ['crossref', 'arxiv', 'openalex'][n % 3]!,
        title: n % 2 ? `Soil carbon ${n}` : `Coral reefs ${n}`,
        authors: [{ name: n % 4 === 0 ? 'Ada Lovelace' : 'Grace Hopper' }, ...(n % 5 === 0 ? [{ name: 'Ada Lovelace' }] : [])],
        categories: n % 2 ? ['Ecology', n % 3 ? 'Soil' : 'Carbon'] : ['Marine'],
        publicationDate: n % 10 === 0 ? undefined : `${2010 + (n % 5)}-03-01`,
      }),
    );
  }
  seed(t.ctx, records);
  // The same works seen again by another source: a document counts once per source.
  seed(t.ctx, [makeRecord(1, { source: 'europepmc', nativeId: 'E1', title: 'Soil carbon 1', categories: ['Ecology', 'Carbon'] })]);
});
test.after(async () => t.close());

const sqlCount = (sql: string, ...args: unknown[]) => t.ctx.db.prepare(sql).pluck().get(...args) as number;

test('facet counts equal direct SQL counts, each facet ignoring its own filter', async () => {
  const body = (await facets({ query: 'soil', categories: ['Soil'] })).json();
  const soil = `SELECT rowid FROM documents_fts WHERE documents_fts MATCH 'soil'`;
  assert.is(body.total, sqlCount(`SELECT count(*) FROM documents d, json_each(d.categories_json) c WHERE d.id IN (${soil}) AND c.value = 'Soil'`));
  for (const v of body.facets.categories.values) {
    // The category facet ignores the category filter but keeps the query.
    assert.is(v.count, sqlCount(`SELECT count(*) FROM documents d, json_each(d.categories_json) c WHERE d.id IN (${soil}) AND c.value = ?`, v.value), v.value);
  }
  assert.ok(body.facets.categories.values.find((v: any) => v.value === 'Soil').selected);
  for (const v of body.facets.sources.values) {
    const expected = sqlCount(
      `SELECT count(DISTINCT d.id) FROM documents d JOIN document_sources s ON s.document_id = d.id, json_each(d.categories_json) c WHERE d.id IN (${soil}) AND c.value = 'Soil' AND s.source = ?`,
      v.value,
    );
    assert.is(v.count, expected, v.value);
  }
  const ada = body.facets.authors.values.find((v: any) => v.value === 'ada lovelace');
  if (ada) assert.is(ada.label, 'Ada Lovelace');
  const years = body.facets.years.values.reduce((n: number, v: any) => n + v.count, 0);
  assert.is(years, body.total, 'years cover every matching paper, undated included');
});

test('no filter: the whole corpus; a paper with an author twice counts once; selected values always listed', async () => {
  const body = (await facets({ authors: ['Nobody Here'], limit_per_facet: 1 })).json();
  assert.is(body.total, 0);
  assert.is(body.facets.authors.values.length, 2, 'top value plus the selected one');
  const nobody = body.facets.authors.values.find((v: any) => v.value === 'nobody here');
  assert.equal(nobody, { value: 'nobody here', count: 0, selected: true });
  const all = (await facets({})).json();
  assert.is(all.total, 40);
  const ada = all.facets.authors.values.find((v: any) => v.value === 'ada lovelace');
  assert.is(ada.count, sqlCount(`SELECT count(*) FROM documents WHERE authors_json LIKE '%Ada Lovelace%'`));
  assert.is(all.facets.sources.values.find((v: any) => v.value === 'crossref').count, sqlCount(`SELECT count(DISTINCT document_id) FROM document_sources WHERE source = 'crossref'`));
  assert.is(all.facets.categories.distinct_values, 4);
  assert.is(all.facets.years.values.find((v: any) => v.value === 'undated').count, 4);
});

test('limit_per_facet caps authors, categories and sources; years are all listed, newest first, undated last, and the answer says so', async () => {
  for (const body of [{}, { query: 'soil' }]) {
    const answer = (await facets({ ...body, limit_per_facet: 1 })).json();
    for (const name of ['authors', 'categories', 'sources']) assert.is(answer.facets[name].values.length, 1, name);
    const years = answer.facets.years;
    assert.ok(years.distinct_values > 1);
    assert.is(years.values.length, years.distinct_values, 'every year');
    const dated = years.values.map((v: any) => v.value).filter((v: string) => v !== 'undated');
    assert.equal(dated, [...dated].sort().reverse(), 'newest first');
    if (years.values.some((v: any) => v.value === 'undated')) assert.is(years.values.at(-1).value, 'undated');
    assert.match(answer.method, /limit_per_facet caps the authors, categories and sources listed.*years are all listed, newest first, undated last/);
  }
});

test('refusals: bad limit_per_facet, offset, dates out of order', async () => {
  for (const body of [{ limit_per_facet: 0 }, { limit_per_facet: 201 }, { offset: 1 }, { date_from: '2020-01-02', date_to: '2020-01-01' }, { categories: [''] }, []]) {
    assert.is((await facets(body)).status, 422, JSON.stringify(body));
  }
});

test('export: everything matching, not a page, in every format, newest first', async () => {
  for (const format of ['bibtex', 'ris', 'csv', 'json']) {
    const r = await t.request('POST', '/api/explorer/export', { body: { categories: ['Ecology'], format } });
    assert.is(r.status, 200, format);
    assert.is(r.headers['x-svc-count'], '20');
    assert.match(String(r.headers['content-disposition']), /svc-explorer\./);
  }
  const json = JSON.parse((await t.request('POST', '/api/explorer/export', { body: { categories: ['Ecology'], format: 'json', include_ids: true } })).text);
  const records = Array.isArray(json) ? json : json.references ?? json.records;
  assert.is(records.length, 20);
  const expected = t.ctx.db.prepare(`SELECT d.id FROM documents d WHERE d.categories_json LIKE '%Ecology%' ORDER BY sort_date DESC, id DESC`).pluck().all();
  assert.equal(records.map((r: any) => r.id), expected);
  assert.is((await t.request('POST', '/api/explorer/export', { body: { format: 'docx' } })).status, 422);
});

test.run();
