import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { parseResponse, semanticscholar } from '../src/sources/semanticscholar.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const TURING = 'semanticscholar/paper-search-turing-first3-of-100.json';
const EMPTY = 'semanticscholar/paper-search-empty.json';
const KEY = 's2-test-key-91ac0d';

test('two pages: offset paging follows `next` until an empty page; fields normalized', async () => {
  const stub = await startStub([
    { path: '/paper/search', query: { query: 'turing', offset: '0', limit: '5' }, body: fixture(TURING) },
    // The recorded page was cut to 3 entries but says next=100: the second request asks from there.
    { path: '/paper/search', query: { query: 'turing', offset: '100', limit: '5' }, body: fixture(EMPTY) },
  ]);
  const t = sourceContext({ semanticscholar: stub.url });
  try {
    const out = await searchSource(t.ctx, semanticscholar, { query: 'turing', keywords: [], maxResults: 5 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.pages, 2);
    assert.is(out.zeroReason, null);
    assert.is(out.records.length, 3);
    assert.is(out.request.key, 'none');
    assert.ok(stub.requests[0]!.query.get('fields')!.split(',').includes('externalIds'));
    assert.is(stub.requests[0]!.headers['x-api-key'], undefined);

    const [a, b, c] = out.records;
    assert.is(a!.nativeId, '66e350075a66ca5fd0c09f20d76aaad2c5c6860c');
    assert.equal(a!.ids, { s2: '66e350075a66ca5fd0c09f20d76aaad2c5c6860c', s2_corpus: '277451766', arxiv: '2503.23674', dblp: 'journals/corr/abs-2503-23674' });
    assert.is(a!.doi, '10.48550/arxiv.2503.23674');
    assert.is(a!.title, 'Large Language Models Pass the Turing Test');
    assert.equal(a!.authors.map((x) => x.name), ['Cameron R. Jones', 'Benjamin K. Bergen']);
    assert.is(a!.authors[0]!.family, 'Jones');
    assert.is(a!.publicationDate, '2025-03-31');
    assert.is(a!.datePrecision, 'day');
    assert.is(a!.venue, 'arXiv.org');
    assert.is(a!.pdfUrl, undefined); // openAccessPdf.url is "" in the answer
    assert.is(a!.openAccess, false);
    assert.is(a!.type, 'article');
    assert.equal(a!.categories, ['Computer Science']);
    assert.ok(a!.abstract!.startsWith('We evaluated 4 systems (ELIZA, GPT-4o, LLaMa-3.1-405B, and GPT-4.5)'));

    assert.is(b!.ids.pmid, '38386710');
    assert.is(b!.ids.pmcid, 'PMC10907317');
    assert.is(b!.doi, '10.1073/pnas.2313925121');
    assert.is(b!.pdfUrl, 'https://www.pnas.org/doi/pdf/10.1073/pnas.2313925121');
    assert.is(b!.license, 'CCBYNCND');
    assert.is(b!.openAccess, true);
    assert.equal(b!.categories, ['Medicine', 'Computer Science', 'Psychology']);

    assert.is(c!.abstract, undefined); // abstract: null (elided by the publisher)
    assert.is(c!.type, undefined); // publicationTypes: null
    assert.is(c!.publicationDate, '1985-07-08');
  } finally {
    await t.close();
    await stub.close();
  }
});

test('max_results reached on the first page: no second request although `next` is set', async () => {
  const stub = await startStub([{ path: '/paper/search', query: { offset: '0', limit: '2' }, body: fixture(TURING) }]);
  const t = sourceContext({ semanticscholar: stub.url });
  try {
    const out = await searchSource(t.ctx, semanticscholar, { query: 'turing', keywords: [], maxResults: 2 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 2);
    assert.is(stub.requests.length, 1);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('an answer with no `data` key is answered_empty, not a parse failure', async () => {
  const stub = await startStub([{ path: '/paper/search', body: fixture(EMPTY) }]);
  const t = sourceContext({ semanticscholar: stub.url });
  try {
    const out = await searchSource(t.ctx, semanticscholar, { query: 'n0 r3sult s3arch t3rm', keywords: [], maxResults: 10 }, { signal: signal() });
    assert.is(out.zeroReason, 'answered_empty');
    assert.is(out.evidence.received, 0);
    assert.is(out.evidence.total_reported, 0);
    assert.is(out.pages, 1);
  } finally {
    await t.close();
    await stub.close();
  }
  assert.throws(() => parseResponse('{"offset": 0}'), /without data and without a total/);
  assert.throws(() => parseResponse('<html>'), /not JSON/);
});

test('a 429 with Retry-After is waited out, then the answer is used; the key goes in a header', async () => {
  const stub = await startStub([
    { path: '/paper/search', status: 429, headers: { 'retry-after': '1' }, body: fixture('semanticscholar/error-429-too-many-requests.json') },
    { path: '/paper/search', query: { publicationDateOrYear: '2024-01-01:2025-12-31' }, body: fixture(TURING) },
  ]);
  const t = sourceContext({ semanticscholar: stub.url });
  t.ctx.credentials.set('semanticscholar_api_key', KEY);
  try {
    const out = await searchSource(t.ctx, semanticscholar, { query: 'turing', keywords: [], maxResults: 3, dateFrom: '2024-01-01', dateTo: '2025-12-31' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, null);
    assert.is(out.records.length, 3);
    assert.is(out.traces.length, 2);
    assert.is(out.traces[0]!.status, 429);
    assert.is(out.traces[0]!.retry_after_ms, 1000);
    assert.ok(stub.requests[1]!.at - stub.requests[0]!.at >= 950, 'the retry waited for Retry-After');
    assert.is(stub.requests[1]!.headers['x-api-key'], KEY);
    assert.is(stub.requests[1]!.query.get('x-api-key'), null);
    assert.not.ok(JSON.stringify(out).includes(KEY));
    assert.not.ok(t.logLines.join('\n').includes(KEY));
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a Retry-After longer than svc will wait is upstream_failure with the status and the wait as evidence', async () => {
  const stub = await startStub([{ path: '/paper/search', status: 429, headers: { 'retry-after': '3600' }, body: fixture('semanticscholar/error-429-too-many-requests.json') }]);
  const t = sourceContext({ semanticscholar: stub.url }, { sourceMaxRetryAfterMs: 5000 });
  try {
    const out = await searchSource(t.ctx, semanticscholar, { query: 'turing', keywords: [], maxResults: 3 }, { signal: signal() });
    assert.is(out.zeroReason, 'upstream_failure');
    assert.is(out.evidence.http_status, 429);
    assert.is(out.evidence.retry_after_ms, 3_600_000);
    assert.is(stub.requests.length, 1);
    // The recorded body's own sentence reaches the record: it says a key would help.
    assert.is(out.message, 'Semantic Scholar: HTTP 429: Too Many Requests. Please wait and try again or apply for a key for higher rate limits. https://www.semanticscholar.org/product/api#api-key-form; asked to wait 3600 s');
  } finally {
    await t.close();
    await stub.close();
  }
});

test('hyphenated terms are sent with spaces (the API documents that they match nothing); non-ASCII travels as UTF-8', async () => {
  // "Hyphenated query terms yield no matches (replace it with space to find matches)" — /paper/search docs.
  const stub = await startStub([{ path: '/paper/search', query: { query: 'COVID 19 self efficacy Schrödinger α synuclein' }, body: fixture(TURING) }]);
  const t = sourceContext({ semanticscholar: stub.url });
  try {
    const out = await searchSource(t.ctx, semanticscholar, { query: 'COVID-19 self\u2010efficacy Schrödinger', keywords: ['α-synuclein'], maxResults: 3 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, null);
    assert.is(out.records.length, 3);
    assert.is(out.request.query, 'COVID-19 self\u2010efficacy Schrödinger'); // the record keeps what the user asked
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
