import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { isArticleId, parseResponse, plos, PLOS_FIELDS } from '../src/sources/plos.js';
import { author } from '../src/sources/normalize.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const ALCOHOL = 'plos/search-alcohol-rows5-hl-abstract.json';

test('a real search: whole articles only, the window as a filter query, fields normalized', async () => {
  const stub = await startStub([{ path: '/search', query: { q: 'alcohol', wt: 'json', fl: PLOS_FIELDS, rows: '5', start: '0' }, body: fixture(ALCOHOL) }]);
  const t = sourceContext({ plos: stub.url });
  try {
    const out = await searchSource(t.ctx, plos, { query: 'alcohol', keywords: [], maxResults: 5, dateFrom: '2011-01-01', dateTo: '2019-12-31', author: 'Paul Christiansen' }, { signal: signal() });
    stub.assertDone();
    assert.equal(stub.requests[0]!.query.getAll('fq'), ['doc_type:full', 'publication_date:[2011-01-01T00:00:00Z TO 2019-12-31T23:59:59Z]', 'author:"Paul Christiansen"']);
    assert.is(out.zeroReason, null);
    assert.is(out.records.length, 5);
    assert.is(out.evidence.total_reported, 32773);
    const r = out.records[0]!;
    assert.is(r.source, 'plos');
    assert.is(r.nativeId, '10.1371/journal.pone.0218147');
    assert.is(r.doi, '10.1371/journal.pone.0218147');
    assert.is(r.ids.plos, '10.1371/journal.pone.0218147');
    assert.is(r.title, 'Persistence of Burkholderia thailandensis E264 in lung tissue after a single binge alcohol episode');
    assert.equal(r.authors.map((a) => a.name), ['Victor M. Jimenez Jr.', 'Erik W. Settles', 'Bart J. Currie', 'Paul S. Keim', 'Fernando P. Monroy']);
    // "Jr." is a suffix, not the family name (the identity key and citation exports use the family).
    assert.equal(r.authors[0], { name: 'Victor M. Jimenez Jr.', given: 'Victor M.', family: 'Jimenez' });
    assert.equal(r.authors[1], { name: 'Erik W. Settles', given: 'Erik W.', family: 'Settles' });
    assert.is(r.publicationDate, '2019-12-10');
    assert.is(r.datePrecision, 'day');
    assert.is(r.venue, 'PLOS ONE');
    assert.is(r.type, 'article');
    assert.is(r.openAccess, true);
    assert.ok(r.abstract!.startsWith('Background: Binge drinking, an increasingly common form of alcohol use disorder'));
    assert.is(out.records[3]!.venue, 'PLoS ONE');
    assert.is(out.records[2]!.abstract!.startsWith('Acute alcohol administration'), true); // leading newline dropped
  } finally {
    await t.close();
    await stub.close();
  }
});

test('parts of articles (<doi>/title, <doi>/abstract) are dropped, counted as filtered out', () => {
  // The recorded answer with its first document re-labelled the way PLOS labels a part of an article.
  const body = JSON.parse(fixture(ALCOHOL).toString());
  body.response.docs[0].id = '10.1371/journal.pone.0218147/title';
  const page = parseResponse(JSON.stringify(body));
  assert.is(page.records.length, 4);
  assert.is(page.filteredOut, 1);
  assert.is(page.unusable, 0);
  assert.ok(isArticleId('10.1371/journal.pbio.0020449'));
  assert.not.ok(isArticleId('10.1371/journal.pone.0218147/abstract'));
});

test('a 400 (undefined field) is upstream_failure with the status, not retried', async () => {
  const stub = await startStub([{ path: '/search', status: 400, body: fixture('plos/error-400-undefined-field.json') }]);
  const t = sourceContext({ plos: stub.url });
  try {
    const out = await searchSource(t.ctx, plos, { query: 'alcohol', keywords: [], maxResults: 5 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, 'upstream_failure');
    assert.is(out.evidence.http_status, 400);
    assert.is(stub.requests.length, 1);
    assert.is(out.message, 'PLOS: HTTP 400: undefined field: "adsfad"'); // Solr's error.msg from the recorded body
  } finally {
    await t.close();
    await stub.close();
  }
});

test('ten requests a minute', () => {
  assert.equal(plos.capabilities.rateLimit, { requests: 10, intervalMs: 60_000 });
});

test('a colon that is a title\'s punctuation is not sent as field syntax (PLOS would refuse: undefined field); field:value is kept', async () => {
  // Read as Solr syntax, "review:" names a field PLOS lacks and the search is refused with the 400 recorded in
  // plos/error-400-undefined-field.json; the stub answers that for any other q.
  const stub = await startStub([
    { path: '/search', query: { q: 'alcohol use disorder a review journal:PLOS' }, body: fixture(ALCOHOL) },
    { path: '/search', status: 400, body: fixture('plos/error-400-undefined-field.json'), times: Infinity },
  ]);
  const t = sourceContext({ plos: stub.url });
  try {
    const out = await searchSource(t.ctx, plos, { query: 'alcohol use disorder: a review', keywords: ['journal:PLOS'], maxResults: 5 }, { signal: signal() });
    assert.is(out.zeroReason, null);
    assert.is(out.records.length, 5);
    assert.is(stub.requests.length, 1);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a generational suffix is a capital roman numeral: the Japanese family name Ii stays the family name', () => {
  assert.equal(author('Naoki Ii'), { name: 'Naoki Ii', given: 'Naoki', family: 'Ii' });
  assert.equal(author('Henry Ford II'), { name: 'Henry Ford II', given: 'Henry', family: 'Ford' });
  assert.equal(author('Thurston Howell III'), { name: 'Thurston Howell III', given: 'Thurston', family: 'Howell' });
  assert.equal(author('Martin Luther King jr'), { name: 'Martin Luther King jr', given: 'Martin Luther', family: 'King' });
});

test('in the comma form the suffix is neither the family nor the given name', () => {
  for (const name of ['Jimenez Jr., Victor M.', 'Jimenez, Victor M., Jr.', 'Jimenez, Jr., Victor M.']) {
    assert.equal(author(name), { name, given: 'Victor M.', family: 'Jimenez' }, name);
  }
  assert.equal(author('Ii, Naoki'), { name: 'Ii, Naoki', given: 'Naoki', family: 'Ii' });
  assert.equal(author('Smith, John'), { name: 'Smith, John', given: 'John', family: 'Smith' });
  assert.equal(author('Jr.'), { name: 'Jr.', family: 'Jr.' });
});

test.run();
