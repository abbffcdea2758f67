import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { arxiv, parseResponse } from '../src/sources/arxiv.js';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import type { SourceHttp } from '../src/sources/http.js';
import { fixture } from './_setup.js';
import { parseHere, sourceContext, signal } from './_sources.js';
import { startStub, type Expectation, type Stub } from './_stub.js';

const current = () => fixture('arxiv/search-all-testing-start0-max10.xml');
const older = () => fixture('arxiv/docs-manual-older-layout-electron-max1.xml');

async function ask(expectations: Expectation[], params: Partial<SourceParams>) {
  const stub = await startStub(expectations);
  const t = sourceContext({ arxiv: stub.url });
  try {
    const outcome = await searchSource(t.ctx, arxiv, { query: 'testing', keywords: [], maxResults: 10, ...params }, { signal: signal() });
    return { outcome, stub };
  } finally {
    await t.close();
    await stub.close();
  }
}

const done = (stub: Stub) => stub.assertDone();

test('a recorded 2026 feed: the request, the total and every record normalized', async () => {
  const { outcome, stub } = await ask(
    [{ path: '/query', query: { search_query: 'all:testing', start: '0', max_results: '10', sortBy: 'relevance' }, body: current(), headers: { 'content-type': 'application/atom+xml' } }],
    {},
  );
  done(stub);
  assert.is(outcome.zeroReason, null);
  assert.is(outcome.records.length, 10);
  assert.is(outcome.evidence.total_reported, 214881);
  const byId = new Map(outcome.records.map((r) => [r.nativeId, r]));
  const ltr = byId.get('2405.13786')!;
  assert.equal(
    ltr.authors.map((a) => a.name),
    ['Aurora Ramírez', 'Mario Berrios', 'José Raúl Romero', 'Robert Feldt'],
  );
  assert.is(ltr.doi, '10.1109/icstw58534.2023.00023');
  const fuzz = byId.get('2005.14124')!;
  assert.equal(fuzz.ids, { arxiv: '2005.14124', arxiv_version: 'v2' });
  assert.equal(fuzz.categories, ['cs.SE', 'cs.CR', 'cs.LG']);
  assert.is(fuzz.publicationDate, '2020-05-28');
  assert.is(fuzz.datePrecision, 'day');
  assert.is(fuzz.venue, 'In Proc. ACM SIGSOFT International Symposium on Software Testing and Analysis (ISSTA 2020), pages 14-26. ACM, 2020');
  assert.is(fuzz.pdfUrl, 'https://arxiv.org/pdf/2005.14124v2');
  assert.is(fuzz.landingUrl, 'https://arxiv.org/abs/2005.14124v2');
  assert.is(fuzz.type, 'preprint');
  const v3 = byId.get('2204.08348')!;
  assert.is(v3.ids.arxiv_version, 'v3');
  assert.is(v3.doi, '10.1145/3533767.3534401');
  // No arxiv:doi and no journal_ref: neither is invented.
  const plain = byId.get('2503.05378')!;
  assert.is(plain.doi, undefined);
  assert.is(plain.venue, undefined);
  // The entity &amp; in a journal_ref is decoded once.
  assert.match(byId.get('1202.4527')!.venue!, /Software Engineering & Applications/);
});

test('the older layout (arXiv API manual example): unversioned id, per-element namespaces, legacy id', () => {
  const page = parseResponse(older().toString());
  assert.is(page.total, 1000);
  assert.is(page.received, 1);
  const r = page.records[0]!;
  assert.is(r.nativeId, 'hep-ex/0307015');
  // <id> has no version; the alternate link carries v1.
  assert.equal(r.ids, { arxiv: 'hep-ex/0307015', arxiv_version: 'v1' });
  assert.is(r.title, 'Multi-Electron Production at High Transverse Momenta in ep Collisions at HERA');
  assert.ok(r.abstract!.startsWith('Multi-electron production is studied'));
  assert.not.match(r.abstract!, /\n|\s{2}/);
  assert.is(r.venue, 'Eur.Phys.J. C31 (2003) 17-29');
  assert.equal(r.categories, ['hep-ex']);
  assert.is(r.pdfUrl, 'http://arxiv.org/pdf/hep-ex/0307015v1');
  assert.is(r.publicationDate, '2003-07-07');
  assert.equal(r.authors.map((a) => a.name), ['H1 Collaboration']);
});

test('older-layout elements quoted in the API manual: arxiv:affiliation and the DOI given only as a link', () => {
  // Assembled from the element examples of the manual (section 3.3.2), in the older layout.
  const feed = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/0710.5765v1</id>
    <title>t</title>
    <author>
       <name>G. G. Kacprzak</name>
       <arxiv:affiliation xmlns:arxiv="http://arxiv.org/schemas/atom">NMSU</arxiv:affiliation>
    </author>
    <link xmlns="http://www.w3.org/2005/Atom" title="doi" href="http://dx.doi.org/10.1529/biophysj.104.047340" rel="related"/>
  </entry>
</feed>`;
  const r = parseResponse(feed).records[0]!;
  assert.equal(r.authors, [{ name: 'G. G. Kacprzak', given: 'G. G.', family: 'Kacprzak', affiliations: ['NMSU'] }]);
  assert.is(r.doi, '10.1529/biophysj.104.047340');
  assert.equal(r.ids, { arxiv: '0710.5765', arxiv_version: 'v1' });
});

test('keywords, author and window go into search_query', async () => {
  const { outcome, stub } = await ask(
    [
      {
        path: '/query',
        query: { search_query: 'all:testing AND all:"deep learning" AND au:"Arnaud Gotlieb" AND submittedDate:[202201010000 TO 202212312359]' },
        body: current(),
      },
    ],
    { keywords: ['deep learning', 'Testing'], author: 'Arnaud Gotlieb', dateFrom: '2022-01-01', dateTo: '2022-12-31' },
  );
  done(stub);
  assert.equal(outcome.window.answered, { from: '2022-01-01', to: '2022-12-31' });
});

test("a query already in arXiv's syntax is sent as written", async () => {
  const { stub } = await ask([{ path: '/query', query: { search_query: '(ti:fuzzing AND cat:cs.SE)' }, body: current() }], { query: 'ti:fuzzing AND cat:cs.SE' });
  done(stub);
});

test('paging: start advances by the entries received and stops at max_results', async () => {
  const { outcome, stub } = await ask(
    [
      { path: '/query', query: { start: '0', max_results: '11' }, body: current() },
      { path: '/query', query: { start: '10', max_results: '11' }, body: older() },
    ],
    { maxResults: 11 },
  );
  done(stub);
  assert.is(stub.requests.length, 2);
  assert.is(outcome.pages, 2);
  assert.is(outcome.records.length, 11);
  assert.is(outcome.records[10]!.nativeId, 'hep-ex/0307015');
});

test('max_results smaller than a page: one request, no more records than asked', async () => {
  const { outcome, stub } = await ask([{ path: '/query', query: { start: '0', max_results: '4' }, body: current() }], { maxResults: 4 });
  done(stub);
  assert.is(outcome.records.length, 4);
  assert.is(stub.requests.length, 1);
});

test('an empty feed is answered_empty with the reported total', async () => {
  const { outcome } = await ask([{ path: '/query', body: fixture('arxiv/empty-idlist-0000.0000.xml') }], {});
  assert.is(outcome.zeroReason, 'answered_empty');
  assert.is(outcome.evidence.total_reported, 0);
  assert.is(outcome.evidence.received, 0);
});

test("arXiv's HTTP 400 error feed is upstream_failure with the status and arXiv's reason, not retried", async () => {
  const { outcome, stub } = await ask([{ path: '/query', status: 400, body: fixture('arxiv/error-400-idlist-abc.xml'), times: 3 }], {});
  assert.is(outcome.zeroReason, 'upstream_failure');
  assert.is(outcome.evidence.http_status, 400);
  assert.match(outcome.message!, /incorrect id format for abc/);
  assert.is(stub.requests.length, 1);
});

test('an error feed answered with HTTP 200 (older layout) is still a failure, never records', async () => {
  const { outcome } = await ask([{ path: '/query', body: fixture('arxiv/docs-manual-older-layout-error-idlist.xml') }], {});
  assert.is(outcome.zeroReason, 'upstream_failure');
  assert.is(outcome.evidence.http_status, 200);
  assert.is(outcome.evidence.exception_class, 'ArxivErrorFeed');
  assert.match(outcome.message!, /incorrect id format for 1234\.12345/);
});

test('a 400 whose body is not a feed is still upstream_failure with the status', async () => {
  const { outcome } = await ask([{ path: '/query', status: 400, body: 'Bad Request', headers: { 'content-type': 'text/plain' } }], {});
  assert.is(outcome.zeroReason, 'upstream_failure');
  assert.is(outcome.evidence.http_status, 400);
});

test('the last page: no next start once start + received reaches totalResults', async () => {
  const http: SourceHttp = {
    traces: [],
    get: async () => ({ status: 200, text: current().toString(), headers: new Headers() }),
    parse: parseHere,
  };
  const req = { query: 'testing', keywords: [], maxResults: 10, baseUrl: 'http://unused', signal: signal() };
  const last = await arxiv.fetchPage(req, '214871', http);
  assert.is(last.next, undefined);
  const before = await arxiv.fetchPage(req, '214870', http);
  assert.is(before.next, '214880');
});

test('a body that is not a feed is parse_failure', async () => {
  const plainText = await ask([{ path: '/query', body: 'Rate exceeded.', headers: { 'content-type': 'text/plain' } }], {});
  assert.is(plainText.outcome.zeroReason, 'parse_failure');
  const truncated = await ask([{ path: '/query', body: current().subarray(0, 5000) }], {});
  assert.is(truncated.outcome.zeroReason, 'parse_failure');
  const notAtom = await ask([{ path: '/query', body: '<html><body>maintenance</body></html>' }], {});
  assert.is(notAtom.outcome.zeroReason, 'parse_failure');
});

// The recorded feed with its entries cut out: what arXiv sends when it drops a page (valid feed,
// totalResults 214881, no <entry>), a fault clients such as arxiv.py answer by asking again.
const droppedPage = () => current().toString('utf8').replace(/<entry>[\s\S]*<\/entry>\s*/, '');

test('a page arXiv drops (no entries although its total says more) is asked again and then used', async () => {
  const { outcome, stub } = await ask(
    [
      { path: '/query', query: { start: '0' }, body: current() },
      { path: '/query', query: { start: '10' }, body: droppedPage() },
      { path: '/query', query: { start: '10' }, body: older() },
    ],
    { maxResults: 11 },
  );
  done(stub);
  assert.is(stub.requests.length, 3);
  assert.is(outcome.records.length, 11);
  assert.is(outcome.partialFailure, null);
});

test('a page arXiv keeps dropping is a failure in the record, not a quiet end: partial after page 1, upstream_failure on page 1', async () => {
  const later = await ask(
    [
      { path: '/query', query: { start: '0' }, body: current() },
      { path: '/query', query: { start: '10' }, body: droppedPage(), times: 3 },
    ],
    { maxResults: 20 },
  );
  done(later.stub);
  assert.is(later.outcome.records.length, 10);
  assert.is(later.outcome.partialFailure?.exception_class, 'ArxivEmptyPage');
  assert.match(later.outcome.message!, /no entries at start 10 although it reports 214881 results/);

  const first = await ask([{ path: '/query', query: { start: '0' }, body: droppedPage(), times: 3 }], {});
  done(first.stub);
  assert.is(first.outcome.zeroReason, 'upstream_failure');
  assert.is(first.outcome.evidence.exception_class, 'ArxivEmptyPage');
  assert.is(first.outcome.evidence.http_status, 200);
});

test.run();
