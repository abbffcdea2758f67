import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { abstractFromInvertedIndex, openalex, parseResponse } from '../src/sources/openalex.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const KEY = 'oa-test-key-7f3e9c';
const ML_NLP = 'openalex/works-search-ml-nlp-2020-2022-first5-of-50.json';
const query = '("machine learning" OR "deep learning") AND ("nlp" OR "natural language processing")';

test('a real search with a date window: the request, the key placement and every field', async () => {
  const stub = await startStub([
    {
      path: '/works',
      query: { search: query, filter: 'from_publication_date:2020-01-01,to_publication_date:2022-12-31', 'per-page': '5', cursor: '*', api_key: KEY },
      body: fixture(ML_NLP),
    },
  ]);
  const t = sourceContext({ openalex: stub.url });
  t.ctx.credentials.set('openalex_api_key', KEY);
  try {
    const out = await searchSource(t.ctx, openalex, { query, keywords: [], maxResults: 5, dateFrom: '2020-01-01', dateTo: '2022-12-31' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, null);
    assert.is(out.request.key, 'stored');
    assert.is(out.records.length, 5);
    assert.is(out.evidence.total_reported, 65899);
    assert.equal(out.window.answered, { from: '2020-01-01', to: '2022-12-31' });

    const r = out.records[0]!;
    assert.is(r.source, 'openalex');
    assert.is(r.nativeId, 'W4327510205');
    assert.is(r.ids.openalex, 'W4327510205');
    assert.is(r.doi, '10.3126/nelta.v27i1-2.53203');
    assert.is(r.title, 'ELT in the Age of Artiﬁcial Intelligence (AI): Working with Machines');
    assert.equal(r.authors, [{ name: 'Janpha Thadphoothon', given: 'Janpha', family: 'Thadphoothon', orcid: '0000-0002-3723-640X', affiliations: ['Dhurakij Pundit University'] }]);
    assert.is(r.publicationDate, '2022-12-31');
    assert.is(r.datePrecision, 'day');
    assert.is(r.venue, 'Journal of NELTA');
    assert.is(r.pdfUrl, 'https://www.nepjol.info/index.php/NELTA/article/download/53203/39849');
    assert.is(r.landingUrl, 'http://dx.doi.org/10.3126/nelta.v27i1-2.53203');
    assert.is(r.openAccess, true);
    assert.is(r.type, 'article');
    assert.is(r.isRetracted, false);
    assert.ok(r.abstract!.startsWith('Since 2016, the development of artiﬁcial intelligence (AI) has been strong and pervasive'));
    assert.ok(r.categories.length > 0);

    // Authors keep their order; one without an ORCID has none.
    const hu = out.records[3]!;
    assert.equal(
      hu.authors.map((a) => [a.name, a.orcid]),
      [
        ['Árpád Knap', '0000-0002-4290-6025'],
        ['Tímea Emese Tóth', '0000-0002-3584-118X'],
        ['Zsófia Rakovics', undefined],
      ],
    );

    // The key is sent, but only *** is recorded and nothing logged carries it.
    assert.is(stub.requests[0]!.query.get('api_key'), KEY);
    assert.ok(out.traces[0]!.url.includes('api_key=***'));
    assert.not.ok(JSON.stringify(out).includes(KEY));
    assert.not.ok(t.logLines.join('\n').includes(KEY));
  } finally {
    await t.close();
    await stub.close();
  }
});

test('the abstract is rebuilt from the inverted index in word order', () => {
  const page = parseResponse(fixture('openalex/works-filter-title-search-1-result.json').toString());
  const r = page.records[0]!;
  assert.is(r.nativeId, 'W2277923667');
  assert.is(r.doi, '10.1063/1.4938384');
  assert.is(r.venue, 'Journal of Applied Physics');
  assert.is(r.openAccess, false);
  assert.is(r.pdfUrl, undefined);
  assert.equal(r.authors[1], { name: 'David J. Quesnel', given: 'David J.', family: 'Quesnel', affiliations: ['University of Rochester'] });
  assert.ok(r.abstract!.startsWith('Metal-oxide layers are likely to be present on metallic nano-structures due to either environmental exposure'));
  assert.match(r.abstract!, /It is well known that nano-structured metals have vastly different mechanical properties from bulk metals; however,/);
  assert.is(r.categories[0], 'Low Dielectric Constant Materials for Microelectronics');
  assert.is(abstractFromInvertedIndex({ world: [1], hello: [0], again: [2, 4], and: [3] }), 'hello world again and again');
});

test('without a key OpenAlex is not asked: missing_key', async () => {
  const stub = await startStub([]);
  const t = sourceContext({ openalex: stub.url });
  try {
    const out = await searchSource(t.ctx, openalex, { query: 'graphene', keywords: [], maxResults: 5 }, { signal: signal() });
    assert.is(out.zeroReason, 'missing_key');
    assert.match(out.message!, /openalex_api_key/);
    assert.is(stub.requests.length, 0);
    stub.assertDone();
  } finally {
    await t.close();
    await stub.close();
  }
});

test('an ephemeral key is used, sent, and redacted; an author by ORCID becomes a filter', async () => {
  const stub = await startStub([{ path: '/works', query: { filter: 'authorships.author.orcid:0000-0002-3723-640X', api_key: KEY, mailto: 'me@example.org' }, body: fixture(ML_NLP) }]);
  const t = sourceContext({ openalex: stub.url });
  t.ctx.settings.write('email', { contact_email: 'me@example.org' });
  try {
    const out = await searchSource(t.ctx, openalex, { query: '', keywords: [], maxResults: 2, author: 'https://orcid.org/0000-0002-3723-640X' }, { signal: signal(), ephemeralCredentials: { openalex_api_key: KEY } });
    stub.assertDone();
    assert.is(out.request.key, 'ephemeral');
    assert.is(out.records.length, 2);
    assert.is(stub.requests[0]!.query.get('search'), null);
    assert.not.ok(JSON.stringify(out.traces).includes(KEY));
    assert.not.ok(t.logLines.join('\n').includes(KEY));
  } finally {
    await t.close();
    await stub.close();
  }
});

test('max_results below the page: one request, trimmed to max_results', async () => {
  const stub = await startStub([{ path: '/works', query: { 'per-page': '3', cursor: '*' }, body: fixture(ML_NLP) }]);
  const t = sourceContext({ openalex: stub.url });
  t.ctx.credentials.set('openalex_api_key', KEY);
  try {
    const out = await searchSource(t.ctx, openalex, { query: 'nlp', keywords: [], maxResults: 3 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 3);
    assert.is(out.pages, 1);
    assert.is(stub.requests.length, 1);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a body cut short is parse_failure, not a crash', async () => {
  const whole = fixture(ML_NLP);
  const stub = await startStub([{ path: '/works', body: whole.subarray(0, Math.floor(whole.length / 2)) }]);
  const t = sourceContext({ openalex: stub.url });
  t.ctx.credentials.set('openalex_api_key', KEY);
  try {
    const out = await searchSource(t.ctx, openalex, { query: 'nlp', keywords: [], maxResults: 5 }, { signal: signal() });
    assert.is(out.zeroReason, 'parse_failure');
    assert.is(out.evidence.exception_class, 'ParseError');
    assert.not.ok(JSON.stringify(out).includes(KEY));
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
