import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { parseResponse, parseSpringerRecord, springer, springerQuery } from '../src/sources/springer.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub, type Expectation } from './_stub.js';

const KEY = 'springer-key-0b8e44';
/** A recorded /metadata/json answer; meta/v2 keeps the same envelope (apiMessage, query, result[], records[]). */
const ANSWER = fixture('springer/metadata-json-doi-10.1007_s11306-017-1242-7.json');
/** The envelope with no hits. */
const EMPTY = JSON.stringify({ apiMessage: 'This JSON was provided by Springer Nature', query: 'zzzqqq', result: [{ total: '0', start: '1', pageLength: '25', recordsDisplayed: '0' }], records: [], facets: [] });

async function search(expectations: Expectation[], params: Partial<SourceParams> = {}, key: string | null = KEY) {
  const stub = await startStub(expectations);
  const t = sourceContext({ springer: stub.url });
  if (key) t.ctx.credentials.set('springer_api_key', key);
  try {
    const out = await searchSource(t.ctx, springer, { query: 'metabolomics', keywords: ['software'], maxResults: 25, ...params }, { signal: signal() });
    stub.assertDone();
    return { out, requests: stub.requests };
  } finally {
    await t.close();
    await stub.close();
  }
}

test('a recorded answer normalizes; api_key is sent as a parameter and shown as *** in traces', async () => {
  const { out, requests } = await search([{ path: '/meta/v2/json', query: { q: '(metabolomics software)', s: '1', p: '25', api_key: KEY }, body: ANSWER }]);
  assert.is(out.zeroReason, null);
  assert.is(requests[0]!.query.get('api_key'), KEY);
  assert.match(out.traces[0]!.url, /api_key=\*\*\*/);
  assert.not.ok(out.traces.some((tr) => tr.url.includes(KEY)));
  assert.is(out.evidence.total_reported, 1);
  assert.is(out.records.length, 1);
  const r = out.records[0]!;
  assert.is(r.source, 'springer');
  assert.is(r.nativeId, '10.1007/s11306-017-1242-7');
  assert.is(r.doi, '10.1007/s11306-017-1242-7');
  assert.is(r.ids.springer, 'doi:10.1007/s11306-017-1242-7');
  assert.is(r.title, 'Navigating freely-available software tools for metabolomics analysis');
  assert.equal(r.authors[0], { name: 'Rachel Spicer', given: 'Rachel', family: 'Spicer' });
  assert.is(r.authors[3]!.name, 'Daniel Cañueto');
  assert.is(r.publicationDate, '2017-08-09');
  assert.is(r.venue, 'Metabolomics');
  assert.is(r.openAccess, true);
  assert.is(r.type, 'review');
  assert.is(r.landingUrl, 'http://dx.doi.org/10.1007/s11306-017-1242-7');
  assert.ok(r.abstract?.startsWith('Introduction The field of metabolomics'));
});

test('meta/v2 records: a structured abstract, ORCIDs, html and pdf links', () => {
  // The documented meta/v2 record shape (abstract {h1, p}, creators with ORCID, url[] by format).
  const record = parseSpringerRecord({
    contentType: 'Chapter',
    identifier: 'doi:10.1007/978-3-030-00000-0_1',
    url: [
      { format: 'html', platform: 'web', value: 'http://link.springer.com/openurl/fulltext?id=doi:10.1007/978-3-030-00000-0_1' },
      { format: 'pdf', platform: 'web', value: 'http://link.springer.com/openurl/pdf?id=doi:10.1007/978-3-030-00000-0_1' },
    ],
    title: 'A chapter',
    creators: [{ ORCID: '0000-0002-1825-0097', creator: 'Carberry, Josiah' }],
    publicationName: 'A Book',
    openaccess: 'false',
    onlineDate: '2020-02-03',
    abstract: { h1: 'Abstract', p: ['First paragraph.', 'Second paragraph.'] },
  })!;
  assert.is(record.nativeId, '10.1007/978-3-030-00000-0_1');
  assert.equal(record.authors, [{ name: 'Josiah Carberry', given: 'Josiah', family: 'Carberry', orcid: '0000-0002-1825-0097' }]);
  assert.is(record.abstract, 'First paragraph. Second paragraph.');
  assert.is(record.publicationDate, '2020-02-03');
  assert.is(record.type, 'book-chapter');
  assert.is(record.openAccess, false);
  assert.match(record.pdfUrl!, /openurl\/pdf/);
  assert.match(record.landingUrl!, /openurl\/fulltext/);
});

test('the window and an author go into q as datefrom:/dateto: and name:', async () => {
  const { out, requests } = await search([{ path: '/meta/v2/json', body: ANSWER }], { dateFrom: '2017-01-01', dateTo: '2017-12-31', author: 'Spicer' });
  assert.is(requests[0]!.query.get('q'), '(metabolomics software) name:"Spicer" datefrom:2017-01-01 dateto:2017-12-31');
  assert.equal(out.window.answered, { from: '2017-01-01', to: '2017-12-31' });
  assert.is(out.records.length, 1);
  assert.is(springerQuery({ query: 'saturn', keywords: [] }), 'saturn');
});

test('paging moves s past what arrived', async () => {
  const more = JSON.parse(ANSWER.toString());
  more.result[0].total = '40'; // the same answer, claiming more hits
  const { out, requests } = await search(
    [
      { path: '/meta/v2/json', query: { s: '1', p: '5' }, body: JSON.stringify(more) },
      { path: '/meta/v2/json', query: { s: '2', p: '5' }, body: EMPTY },
    ],
    { maxResults: 5 },
  );
  assert.equal(requests.map((r) => r.query.get('s')), ['1', '2']);
  assert.is(out.pages, 2);
  assert.is(out.records.length, 1);
});

test('an empty answer is answered_empty', async () => {
  const { out } = await search([{ path: '/meta/v2/json', body: EMPTY }], { query: 'zzzqqq', keywords: [] });
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.evidence.total_reported, 0);
  assert.is(parseResponse(EMPTY).received, 0);
});

test('without a key Springer Nature is not asked: missing_key and no request', async () => {
  const { out, requests } = await search([], {}, null);
  assert.is(out.zeroReason, 'missing_key');
  assert.is(requests.length, 0);
});

test('an answer that is not the envelope is a parse failure', () => {
  assert.throws(() => parseResponse('{"error":{"error":"Unauthorized"}}'), /records/);
});

test.run();
