import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { authorFilter, hal, HAL_FIELDS, parseResponse } from '../src/sources/hal.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const RICH = 'hal/search-authIdPerson_i-1063453-fl-all-first1-of-51.json';
const DEFAULT_FIELDS = 'hal/search-authIdPerson_i-1063453-default-fields.json';

test('rich fields asked with fl=; a real document normalized; window and author as filter queries', async () => {
  const stub = await startStub([{ path: '/search/', query: { q: 'cyberharcèlement', wt: 'json', fl: HAL_FIELDS, rows: '1', start: '0' }, body: fixture(RICH) }]);
  const t = sourceContext({ hal: stub.url });
  try {
    const out = await searchSource(t.ctx, hal, { query: 'cyberharcèlement', keywords: [], maxResults: 1, dateFrom: '2020-01-01', dateTo: '2020-12-31', author: '1063453' }, { signal: signal() });
    stub.assertDone();
    assert.equal(stub.requests[0]!.query.getAll('fq'), ['producedDate_tdate:[2020-01-01T00:00:00Z TO 2020-12-31T23:59:59Z]', 'authIdPerson_i:1063453']);
    for (const field of ['title_s', 'authFullName_s', 'abstract_s', 'doiId_s', 'producedDate_s', 'halId_s', 'fileMain_s', 'docType_s']) assert.ok(HAL_FIELDS.split(',').includes(field), field);
    assert.is(out.zeroReason, null);
    assert.is(out.evidence.total_reported, 51);
    const r = out.records[0]!;
    assert.is(r.source, 'hal');
    assert.is(r.nativeId, 'hal-02498602');
    assert.is(r.ids.hal, 'hal-02498602');
    assert.is(r.title, 'Cyber-harassment and social networks : the CyberNeTic research project');
    assert.equal(r.authors, [
      { name: 'Marlène Dulaurans', given: 'Marlène', family: 'Dulaurans' },
      { name: 'Jean-Christophe Fedherbe', given: 'Jean-Christophe', family: 'Fedherbe' },
    ]);
    assert.is(r.publicationDate, '2020-06-02');
    assert.is(r.datePrecision, 'day');
    assert.is(r.venue, 'SUNBELT 2020, Session Recent advances in Social Network Analysis');
    assert.is(r.type, 'proceedings');
    assert.is(r.landingUrl, 'https://hal.archives-ouvertes.fr/hal-02498602');
    assert.is(r.openAccess, false);
    assert.equal(r.categories, ['Cyberharcèlement', 'Réseaux sociaux Internet']);
    assert.is(r.doi, undefined);
    assert.is(r.abstract, undefined);
    assert.is(r.pdfUrl, undefined);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('default fields only (docid, label_s, uri_s): every entry unusable, pages followed, records_unusable', async () => {
  const stub = await startStub([
    { path: '/search/', query: { start: '0', rows: '30' }, body: fixture(DEFAULT_FIELDS) },
    // The documentation example has only the first 30 of 51; the same page stands in for the second.
    { path: '/search/', query: { start: '30', rows: '30' }, body: fixture(DEFAULT_FIELDS) },
  ]);
  const t = sourceContext({ hal: stub.url });
  try {
    const out = await searchSource(t.ctx, hal, { query: 'dulaurans', keywords: [], maxResults: 30 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.pages, 2);
    assert.is(out.zeroReason, 'records_unusable');
    assert.is(out.evidence.received, 60);
    assert.is(out.evidence.unusable, 60);
    assert.is(out.evidence.total_reported, 51);
  } finally {
    await t.close();
    await stub.close();
  }
  // label_s is a citation, not a title: it is never taken for one.
  assert.is(parseResponse(fixture(DEFAULT_FIELDS).toString()).records.length, 0);
});

test('author filters: person id, ORCID, name', () => {
  assert.is(authorFilter('1063453'), 'authIdPerson_i:1063453');
  assert.is(authorFilter('https://orcid.org/0000-0002-1825-0097'), 'authORCIDIdExt_s:"0000-0002-1825-0097"');
  assert.is(authorFilter('Marlène Dulaurans'), 'authFullName_t:"Marlène Dulaurans"');
});

test('an empty query asks for everything; a body cut short is parse_failure', async () => {
  const stub = await startStub([{ path: '/search/', query: { q: '*:*' }, body: fixture(RICH).subarray(0, 3000) }]);
  const t = sourceContext({ hal: stub.url });
  try {
    const out = await searchSource(t.ctx, hal, { query: '', keywords: [], maxResults: 5, dateFrom: '2020-01-01' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, 'parse_failure');
    assert.equal(stub.requests[0]!.query.getAll('fq'), ['producedDate_tdate:[2020-01-01T00:00:00Z TO *]']);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a colon that is a title\'s punctuation is not sent as Solr field syntax; non-ASCII travels as UTF-8', async () => {
  const stub = await startStub([{ path: '/search/', query: { q: 'cyberharcèlement et réseaux sociaux le projet CyberNeTic' }, body: fixture(RICH) }]);
  const t = sourceContext({ hal: stub.url });
  try {
    const out = await searchSource(t.ctx, hal, { query: 'cyberharcèlement et réseaux sociaux : le projet CyberNeTic', keywords: [], maxResults: 1 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 1);
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
