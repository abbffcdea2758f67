import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dblp, dblpName, parseResponse, yearTerms } from '../src/sources/dblp.js';
import { searchSource } from '../src/sources/driver.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const HIT = 'dblp/publ-search-test-h1-f1.json';

test('a real search: request parameters and the normalized hit', async () => {
  const stub = await startStub([{ path: '/search/publ/api', query: { q: 'test', format: 'json', h: '1', f: '0', c: '0' }, body: fixture(HIT) }]);
  const t = sourceContext({ dblp: stub.url });
  try {
    const out = await searchSource(t.ctx, dblp, { query: 'test', keywords: [], maxResults: 1 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, null);
    assert.is(out.evidence.total_reported, 99047);
    const r = out.records[0]!;
    assert.is(r.source, 'dblp');
    assert.is(r.nativeId, 'conf/ats/ShinogiYHTY05');
    assert.is(r.ids.dblp, 'conf/ats/ShinogiYHTY05');
    assert.is(r.title, 'A Test Cost Reduction Method by Test Response and Test Vector Overlapping for Full-Scan Test Architecture');
    assert.equal(r.authors.map((a) => a.name), ['Tsuyoshi Shinogi', 'Hiroyuki Yamada', 'Terumine Hayashi', 'Shinji Tsuruoka', 'Tomohiro Yoshikawa']);
    assert.is(r.doi, '10.1109/ats.2005.17');
    assert.is(r.publicationDate, '2005');
    assert.is(r.datePrecision, 'year');
    assert.is(r.venue, 'Asian Test Symposium');
    assert.is(r.type, 'proceedings');
    assert.is(r.landingUrl, 'https://doi.org/10.1109/ATS.2005.17');
    assert.is(r.openAccess, false);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a window becomes year words in q; the driver keeps only records inside the exact days', async () => {
  const stub = await startStub([
    { path: '/search/publ/api', query: { q: 'test year:2005:|year:2006:' }, body: fixture(HIT) },
    // The recorded 2005 hit answers every page of a 2004 question, as if dblp ignored the year words.
    { path: '/search/publ/api', query: { q: 'test year:2004:' }, body: fixture(HIT), times: Infinity },
  ]);
  const t = sourceContext({ dblp: stub.url });
  try {
    const inside = await searchSource(t.ctx, dblp, { query: 'test', keywords: [], maxResults: 1, dateFrom: '2005-03-01', dateTo: '2006-02-28' }, { signal: signal() });
    assert.is(inside.records.length, 1);
    assert.equal(inside.window.answered, { from: '2005-01-01', to: '2006-12-31' });
    // Records outside the days are filtered out locally, which is not an error; paging stops at the driver's page limit.
    const outside = await searchSource(t.ctx, dblp, { query: 'test', keywords: [], maxResults: 1, dateFrom: '2004-01-01', dateTo: '2004-12-31' }, { signal: signal() });
    assert.is(outside.zeroReason, 'answered_empty');
    assert.is(outside.evidence.filtered_out, outside.pages);
    assert.ok(outside.pages > 1);
    assert.equal(stub.requests.slice(1).map((r) => r.query.get('f')), ['0', '1', '2', '3', '4', '5'].slice(0, outside.pages), 'each page asks from the next offset');
    stub.assertDone();
  } finally {
    await t.close();
    await stub.close();
  }
  assert.is(yearTerms('2020-01-01', undefined), undefined);
  assert.is(yearTerms('1950-01-01', '2020-12-31'), undefined);
});

test('single hits and single authors as objects, disambiguation digits dropped', () => {
  // dblp sends one hit (or one author) as an object, not a list: the recorded hit in that shape.
  const body = JSON.parse(fixture(HIT).toString());
  const hit = body.result.hits.hit[0];
  hit.info.authors.author = { '@pid': '28/2391', text: 'Tsuyoshi Shinogi 0001' };
  body.result.hits.hit = hit;
  const page = parseResponse(JSON.stringify(body));
  assert.is(page.records.length, 1);
  assert.equal(page.records[0]!.authors, [{ name: 'Tsuyoshi Shinogi', given: 'Tsuyoshi', family: 'Shinogi' }]);
  assert.is(dblpName('Wei Wang 0001'), 'Wei Wang');
  assert.is(dblpName('Jan 1st Smith'), 'Jan 1st Smith');
});

test('a body cut short is parse_failure', async () => {
  const stub = await startStub([{ path: '/search/publ/api', body: fixture(HIT).subarray(0, 400) }]);
  const t = sourceContext({ dblp: stub.url });
  try {
    const out = await searchSource(t.ctx, dblp, { query: 'test', keywords: [], maxResults: 1 }, { signal: signal() });
    assert.is(out.zeroReason, 'parse_failure');
    assert.is(out.evidence.exception_class, 'ParseError');
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
