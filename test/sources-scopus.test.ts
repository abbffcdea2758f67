import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { parseResponse, scopus, scopusQuery } from '../src/sources/scopus.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub, type Expectation } from './_stub.js';

const KEY = 'scopus-key-93d7c2';
const PAGE = fixture('scopus/search-scopus-title-abs-key-ml-nlp-2020-2022-count25.json');
/** What Scopus sends for no hits: one entry holding an error string, total 0. */
const EMPTY = JSON.stringify({
  'search-results': { 'opensearch:totalResults': '0', 'opensearch:startIndex': '0', 'opensearch:itemsPerPage': '0', entry: [{ '@_fa': 'true', error: 'Result set was empty' }] },
});
const WORDS = '("machine learning" OR "deep learning") AND ("nlp" OR "natural language processing")';

async function search(expectations: Expectation[], params: Partial<SourceParams> = {}, key: string | null = KEY) {
  const stub = await startStub(expectations);
  const t = sourceContext({ scopus: stub.url });
  if (key) t.ctx.credentials.set('scopus_api_key', key);
  try {
    const out = await searchSource(t.ctx, scopus, { query: WORDS, keywords: [], maxResults: 25, dateFrom: '2020-01-01', dateTo: '2022-12-31', ...params }, { signal: signal() });
    stub.assertDone();
    return { out, requests: stub.requests };
  } finally {
    await t.close();
    await stub.close();
  }
}

test('a recorded answer of 25 entries normalizes; the key goes in X-ELS-APIKey, never in a URL', async () => {
  const { out, requests } = await search([
    { path: '/content/search/scopus', query: { query: `TITLE-ABS-KEY(${WORDS})`, start: '0', count: '25', date: '2020-2022', view: 'STANDARD' }, body: PAGE },
  ]);
  assert.is(out.zeroReason, null);
  assert.is(requests[0]!.headers['x-els-apikey'], KEY);
  assert.match(String(requests[0]!.headers.accept), /application\/json/);
  assert.not.ok(out.traces.some((tr) => tr.url.includes(KEY)));
  assert.is(out.evidence.total_reported, 14501);
  assert.is(out.records.length, 25);
  assert.equal(out.window.answered, { from: '2020-01-01', to: '2022-12-31' });

  const book = out.records[0]!;
  assert.is(book.source, 'scopus');
  assert.is(book.nativeId, '85145343459');
  assert.is(book.ids.scopus, '85145343459');
  assert.is(book.doi, '10.1515/9783110750584');
  assert.is(book.title, 'Deep learning for cognitive computing systems: Technological advancements and applications');
  // STANDARD view names the first author only, as "Family Initials".
  assert.equal(book.authors, [{ name: 'M.G. Sumithra', given: 'M.G.', family: 'Sumithra' }]);
  assert.is(book.publicationDate, '2022-12-31');
  assert.is(book.datePrecision, 'day');
  assert.is(book.type, 'book');
  assert.is(book.openAccess, false);
  assert.match(book.landingUrl!, /^https:\/\/www\.scopus\.com\/inward\/record\.uri\?.*scp=85145343459/);

  const letter = out.records.find((r) => r.doi === '10.1182/blood.2022016757')!;
  assert.is(letter.ids.pmid, '36026607');
  assert.is(letter.type, 'letter');
  assert.is(letter.openAccess, true);
  // An entry without a DOI is still a record.
  assert.ok(out.records.some((r) => r.doi === undefined));
});

test('an author joins the query as AUTH(); an open-ended window becomes PUBYEAR bounds', async () => {
  const { requests } = await search([{ path: '/content/search/scopus', body: EMPTY }], { query: 'glaciers', author: 'Smith J', dateTo: undefined });
  assert.is(requests[0]!.query.get('query'), 'TITLE-ABS-KEY(glaciers) AND AUTH(Smith J) AND PUBYEAR > 2019');
  assert.is(requests[0]!.query.get('date'), null);
  assert.equal(scopusQuery({ query: 'x', keywords: [], dateFrom: '2021-05-01', dateTo: '2021-09-01' }), { query: 'TITLE-ABS-KEY(x)', date: '2021' });
});

test('"Result set was empty" is an empty answer, not an error', async () => {
  const { out } = await search([{ path: '/content/search/scopus', body: EMPTY }]);
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.evidence.received, 0);
  assert.is(out.evidence.unusable, 0);
  assert.is(out.evidence.total_reported, 0);
});

test('paging asks start after what arrived', async () => {
  const { out, requests } = await search(
    [
      { path: '/content/search/scopus', query: { start: '0', count: '25' }, body: PAGE },
      { path: '/content/search/scopus', query: { start: '25', count: '25' }, body: EMPTY },
    ],
    { maxResults: 30 },
  );
  assert.equal(requests.map((r) => r.query.get('start')), ['0', '25']);
  assert.is(out.pages, 2);
  assert.is(out.records.length, 25);
});

test('without a key Scopus is not asked: missing_key and no request', async () => {
  const { out, requests } = await search([], {}, null);
  assert.is(out.zeroReason, 'missing_key');
  assert.is(requests.length, 0);
});

test('a key Scopus refuses is an upstream failure with the status, not a missing key', async () => {
  const { out } = await search([{ path: '/content/search/scopus', status: 401, body: '{"error-response":{"error-code":"AUTHENTICATION_ERROR"}}' }]);
  assert.is(out.zeroReason, 'upstream_failure');
  assert.is(out.evidence.http_status, 401);
});

test('an answer without search-results is a parse failure', () => {
  assert.throws(() => parseResponse('{"service-error":{}}'), /search-results/);
});

test('coverDate is a day only when coverDisplayDate names one: an issue month or year gets no invented day', async () => {
  // The recorded answer, three entries given the cover dates Scopus sends for issues without a day
  // (a recorded Scopus answer of 2021-09-03 has coverDate "2021-12-01" with coverDisplayDate
  // "December 2021"); the rest as recorded ("31 December 2022" and so on).
  const body = JSON.parse(PAGE.toString('utf8'));
  const entries = body['search-results'].entry;
  Object.assign(entries[0], { 'prism:coverDate': '2022-12-01', 'prism:coverDisplayDate': 'December 2022' });
  Object.assign(entries[1], { 'prism:coverDate': '2022-12-31', 'prism:coverDisplayDate': '2022' });
  Object.assign(entries[2], { 'prism:coverDate': '2022-05-01', 'prism:coverDisplayDate': '1-15 May 2022' });
  const { out } = await search([{ path: '/content/search/scopus', query: { start: '0' }, body: JSON.stringify(body) }]);
  assert.equal(
    out.records.slice(0, 4).map((r) => [r.publicationDate, r.datePrecision]),
    [
      ['2022-12', 'month'],
      ['2022', 'year'],
      ['2022-05', 'month'],
      ['2022-12-31', 'day'],
    ],
  );
});

test.run();
