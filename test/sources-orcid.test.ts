/**
 * ORCID public API v3.0 works, from recorded real answers: a person's works list, the empty list,
 * the 404 error body; asked only for an ORCID iD, trimmed to the window and filtered by keyword locally.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { orcid, parseResponse } from '../src/sources/orcid.js';
import { fixture } from './_setup.js';
import { signal, sourceContext } from './_sources.js';
import { startStub } from './_stub.js';

const BINFIELD = '0000-0002-9341-7985';
const WORKS = `orcid/works-${BINFIELD}.json`;

test('a real works answer: every group a record, the owner as the one author with the ORCID iD', () => {
  const page = parseResponse(fixture(WORKS).toString('utf8'));
  assert.equal([page.received, page.records.length, page.unusable], [8, 8, 0]);
  const r = page.records[0]!;
  assert.is(r.title, 'PeerJ - A case study in improving research collaboration at the journal level');
  assert.is(r.doi, '10.3233/isu-130714');
  assert.equal(r.authors, [{ name: 'Peter Binfield', given: 'Peter', family: 'Binfield', orcid: BINFIELD }]);
  // ORCID's types in the shared vocabulary, as Crossref's: journal-article is article, conference-paper proceedings.
  assert.equal([r.publicationDate, r.datePrecision, r.type], ['2013', 'year', 'article']);
  assert.equal(page.records.map((x) => x.type), ['article', 'article', 'proceedings', 'article', 'article', 'proceedings', 'article', 'article']);
  assert.is(r.nativeId, `${BINFIELD}/15536015`);
  assert.equal(parseResponse(fixture('orcid/works-empty-0000-0003-1620-1408.json').toString('utf8')).records, []);
});

test('asked with an ORCID iD: one request, trimmed to the window, kept by keyword', async () => {
  const stub = await startStub([{ path: `/${BINFIELD}/works`, body: fixture(WORKS), times: 2 }]);
  const t = sourceContext({ orcid: stub.url });
  try {
    const all = await searchSource(t.ctx, orcid, { query: '', keywords: [], maxResults: 100, author: 'Peter Binfield', authorOrcid: BINFIELD }, { signal: signal() });
    assert.is(all.records.length, 8);
    assert.is(all.request.author, BINFIELD);
    assert.is(stub.requests[0]!.headers.accept, 'application/json');
    const peerj = await searchSource(t.ctx, orcid, { query: 'PeerJ', keywords: [], maxResults: 100, authorOrcid: BINFIELD, author: 'Peter Binfield', dateFrom: '2013-01-01', dateTo: '2013-12-31' }, { signal: signal() });
    assert.ok(peerj.records.length >= 1 && peerj.records.every((r) => /peerj/i.test(r.title) && r.publicationDate!.startsWith('2013')), JSON.stringify(peerj.records.map((r) => [r.title, r.publicationDate])));
    stub.assertDone();
  } finally {
    await stub.close();
    t.close();
  }
});

test('without an ORCID iD it is not asked: entity_unsupported; a 404 is an upstream failure', async () => {
  const stub = await startStub([{ path: '/0000-0002-1825-0097/works', status: 404, body: fixture('orcid/error-404-person-Asfaf.json') }]);
  const t = sourceContext({ orcid: stub.url });
  try {
    const byName = await searchSource(t.ctx, orcid, { query: 'x', keywords: [], maxResults: 5, author: 'Peter Binfield' }, { signal: signal() });
    assert.is(byName.zeroReason, 'entity_unsupported');
    const keyword = await searchSource(t.ctx, orcid, { query: 'x', keywords: [], maxResults: 5 }, { signal: signal() });
    assert.is(keyword.zeroReason, 'entity_unsupported');
    assert.is(stub.requests.length, 0);
    const missing = await searchSource(t.ctx, orcid, { query: '', keywords: [], maxResults: 5, author: 'J. Carberry', authorOrcid: '0000-0002-1825-0097' }, { signal: signal() });
    assert.is(missing.zeroReason, 'upstream_failure');
    assert.is(missing.message, 'ORCID: HTTP 404: The resource was not found.'); // ORCID's user-message
  } finally {
    await stub.close();
    t.close();
  }
});

test.run();
