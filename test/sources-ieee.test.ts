import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { ieee, parseIeeeArticle, parseIeeeDate, parseResponse } from '../src/sources/ieee.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub, type Expectation } from './_stub.js';

const KEY = 'ieee-key-7c1d0e';
const FULL = fixture('ieee/search-articles-ml-nlp-2020-2022-max50.json');
const FIRST3 = fixture('ieee/search-articles-ml-nlp-2020-2022-first3-of-50.json');
/** IEEE's answer with no hits: the totals, no articles list. */
const EMPTY = JSON.stringify({ total_records: 0, total_searched: 7106039 });
const QUERY = '("machine learning" OR "deep learning") AND ("nlp" OR "natural language processing")';

async function search(expectations: Expectation[], params: Partial<SourceParams> = {}, key: string | null = KEY) {
  const stub = await startStub(expectations);
  const t = sourceContext({ ieee: stub.url });
  if (key) t.ctx.credentials.set('ieee_api_key', key);
  try {
    const out = await searchSource(t.ctx, ieee, { query: QUERY, keywords: [], maxResults: 50, ...params }, { signal: signal() });
    stub.assertDone();
    return { out, requests: stub.requests };
  } finally {
    await t.close();
    await stub.close();
  }
}

test('a recorded answer of 50 articles normalizes; the apikey parameter is *** in every trace', async () => {
  const { out, requests } = await search([{ path: '/search/articles', query: { querytext: QUERY, start_record: '1', max_records: '50', format: 'json', apikey: KEY }, body: FULL }]);
  assert.is(out.zeroReason, null);
  assert.is(out.records.length, 50);
  assert.is(out.evidence.total_reported, 5484);
  assert.is(requests[0]!.query.get('apikey'), KEY);
  assert.match(out.traces[0]!.url, /[?&]apikey=\*\*\*(&|$)/);
  assert.not.ok(out.traces.some((tr) => tr.url.includes(KEY)));

  const access = out.records.find((r) => r.nativeId === '9568778')!;
  assert.is(access.ids.ieee, '9568778');
  assert.is(access.doi, '10.1109/access.2021.3119621');
  assert.is(access.venue, 'IEEE Access');
  assert.is(access.publicationDate, '2021');
  assert.is(access.datePrecision, 'year');
  assert.is(access.type, 'article');
  assert.is(access.openAccess, true);
  assert.is(access.license, 'CCBY');
  assert.is(access.pdfUrl, 'https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=9568778');
  assert.is(access.landingUrl, 'https://ieeexplore.ieee.org/document/9568778/');
  assert.equal(access.authors[0], { name: 'Essam H. Houssein', given: 'Essam H.', family: 'Houssein', affiliations: ['Faculty of Computers and Information, Minia University, Minia, Egypt'] });
  assert.ok(access.categories.includes('Natural language processing') && access.categories.includes('deep learning'));

  const conference = out.records.find((r) => r.nativeId === '9142886')!;
  assert.is(conference.publicationDate, '2020-06-15');
  assert.is(conference.type, 'proceedings');
  assert.is(conference.openAccess, false);
  assert.is(conference.license, undefined);

  // A book without publication_date falls back to publication_year.
  const book = out.records.find((r) => r.nativeId === '10162240')!;
  assert.is(book.publicationDate, '2022');
  assert.is(book.type, 'book');
});

test('authors are ordered by author_order, whatever order they arrive in', () => {
  const article = JSON.parse(FULL.toString()).articles.find((a: any) => a.article_number === '9781308');
  article.authors.authors.reverse();
  const record = parseIeeeArticle(article)!;
  assert.equal(
    record.authors.map((a) => a.family),
    ['Shaik', 'Tao', 'Li', 'Dann', 'McDonald', 'Redmond', 'Galligan'],
  );
});

test('printed IEEE dates keep the first day named', () => {
  assert.equal(parseIeeeDate('12 Oct. 2021'), { date: '2021-10-12', precision: 'day' });
  assert.equal(parseIeeeDate('15-17 June 2020'), { date: '2020-06-15', precision: 'day' });
  assert.equal(parseIeeeDate('30 Nov.-3 Dec. 2020'), { date: '2020-11-30', precision: 'day' });
  assert.equal(parseIeeeDate('28 Sept.-2 Oct. 2020'), { date: '2020-09-28', precision: 'day' });
  assert.equal(parseIeeeDate('Jan.-Feb. 2021'), { date: '2021-01', precision: 'month' });
  assert.equal(parseIeeeDate('2021'), { date: '2021', precision: 'year' });
  assert.equal(parseIeeeDate(undefined, 2019), { date: '2019', precision: 'year' });
});

test('years go to the source, the driver keeps the exact window', async () => {
  const { out, requests } = await search(
    [
      { path: '/search/articles', query: { start_year: '2021', end_year: '2021', start_record: '1' }, body: FULL },
      { path: '/search/articles', query: { start_record: '51' }, body: EMPTY },
    ],
    { dateFrom: '2021-03-01', dateTo: '2021-06-30', author: 'Houssein' },
  );
  assert.is(requests[0]!.query.get('author'), 'Houssein');
  assert.equal(out.window.answered, { from: '2021-01-01', to: '2021-12-31' });
  assert.ok(out.records.length > 0);
  // Day-dated records fall inside; a record dated only "2021" may, and is kept.
  assert.ok(out.records.every((r) => r.publicationDate === '2021' || (r.publicationDate! >= '2021-03' && r.publicationDate! <= '2021-06-30')));
  assert.ok(out.records.some((r) => r.publicationDate === '2021-05-19'));
  assert.ok(out.evidence.filtered_out > 0);
  assert.is(out.evidence.received, 50);
});

test('paging asks start_record after what arrived; a record seen twice is kept once', async () => {
  const { out, requests } = await search(
    [
      { path: '/search/articles', query: { start_record: '1', max_records: '10' }, body: FIRST3 },
      { path: '/search/articles', query: { start_record: '4', max_records: '10' }, body: FULL },
    ],
    { maxResults: 10 },
  );
  assert.equal(requests.map((r) => r.query.get('start_record')), ['1', '4']);
  assert.is(out.pages, 2);
  assert.is(out.records.length, 10);
  assert.is(new Set(out.records.map((r) => r.nativeId)).size, 10);
});

test('an answer without articles is answered_empty', async () => {
  const { out } = await search([{ path: '/search/articles', body: EMPTY }]);
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.evidence.total_reported, 0);
  assert.is(parseResponse(EMPTY).received, 0);
});

test('without a key IEEE is not asked: missing_key and no request', async () => {
  const { out, requests } = await search([], {}, null);
  assert.is(out.zeroReason, 'missing_key');
  assert.is(requests.length, 0);
});

test('a key with characters URLSearchParams escapes is still blanked out of traces', async () => {
  const key = "k~e y(1)!'*";
  const { out, requests } = await search([{ path: '/search/articles', body: FIRST3 }], { maxResults: 3 }, key);
  assert.is(requests[0]!.query.get('apikey'), key);
  const url = out.traces[0]!.url;
  assert.match(url, /apikey=\*\*\*/);
  assert.not.ok(url.includes(new URLSearchParams({ k: key }).toString().slice(2)));
  assert.not.ok(url.includes(encodeURIComponent(key)));
});

test('a literal "<" or ">" in an abstract is text, not the start of a tag to cut out; inline markup joins its word', async () => {
  // The recorded first page with the first article's abstract given comparisons and a subscript.
  const body = JSON.parse(FIRST3.toString('utf8'));
  body.articles[0].abstract = 'Accuracy improved (p<0.05) for corpora of >10k sentences; F<sub>1</sub> rose.';
  const { out } = await search([{ path: '/search/articles', query: { start_record: '1' }, body: JSON.stringify(body) }], { maxResults: 3 });
  assert.is(out.records[0]!.abstract, 'Accuracy improved (p<0.05) for corpora of >10k sentences; F1 rose.');
});

test.run();
