import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { inspire, INSPIRE_FIELDS, inspireQuery } from '../src/sources/inspire.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const RECORD = 'inspire/literature-search-doi-10.1103_physrevd.99.125011.json';
const EMPTY = 'inspire/literature-search-empty-doi.json';

test('a real literature answer: q with window and author, fields=, and the normalized record', async () => {
  const q = '(entropy current) and de >= 2019-01-01 and de <= 2019-12-31 and a Becattini, F.';
  const stub = await startStub([{ path: '/literature', query: { q, size: '10', page: '1', fields: INSPIRE_FIELDS }, body: fixture(RECORD) }]);
  const t = sourceContext({ inspire: stub.url });
  try {
    const out = await searchSource(t.ctx, inspire, { query: 'entropy current', keywords: [], maxResults: 10, dateFrom: '2019-01-01', dateTo: '2019-12-31', author: 'Becattini, F.' }, { signal: signal() });
    stub.assertDone();
    // Words to rank by: no sort, so INSPIRE answers most relevant first (its default with a q), not most recent.
    assert.is(stub.requests[0]!.query.get('sort'), null);
    assert.is(out.zeroReason, null);
    assert.is(out.evidence.total_reported, 1);
    assert.is(out.pages, 1); // total 1: no second page
    const r = out.records[0]!;
    assert.is(r.source, 'inspire');
    assert.is(r.nativeId, '1724811');
    assert.equal(r.ids, { inspire: '1724811', arxiv: '1903.05422' });
    assert.is(r.doi, '10.1103/physrevd.99.125011');
    assert.is(r.title, 'Extensivity, entropy current, area law and Unruh effect');
    assert.equal(r.authors, [
      { name: 'Becattini, F.', family: 'Becattini', given: 'F.', affiliations: ['Florence U.', 'INFN, Florence'] },
      { name: 'Rindori, D.', family: 'Rindori', given: 'D.', affiliations: ['Florence U.', 'INFN, Florence'] },
    ]);
    // No earliest_date in this (2019) record: the preprint date is its earliest.
    assert.is(r.publicationDate, '2019-03-13');
    assert.is(r.datePrecision, 'day');
    assert.is(r.venue, 'Phys.Rev.D');
    assert.is(r.type, 'article');
    assert.ok(r.abstract!.startsWith('We present a general method to determine the entropy current of relativistic matter'));
    assert.ok(r.categories.includes('hep-th') && r.categories.includes('Theory-HEP'));
    assert.is(r.landingUrl, 'https://inspirehep.net/literature/1724811');
    assert.is(r.license, 'http://arxiv.org/licenses/nonexclusive-distrib/1.0/');
  } finally {
    await t.close();
    await stub.close();
  }
});

test('an empty answer is answered_empty', async () => {
  const stub = await startStub([{ path: '/literature', query: { q: 'doi:doestntexist' }, body: fixture(EMPTY) }]);
  const t = sourceContext({ inspire: stub.url });
  try {
    const out = await searchSource(t.ctx, inspire, { query: 'doi:doestntexist', keywords: [], maxResults: 10 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, 'answered_empty');
    assert.is(out.evidence.received, 0);
    assert.is(out.evidence.total_reported, 0);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a window and an author with no words: nothing to rank, so newest first (sort=mostrecent)', async () => {
  const q = 'de >= 2019-01-01 and de <= 2019-12-31 and a Becattini, F.';
  const stub = await startStub([{ path: '/literature', query: { q, sort: 'mostrecent' }, body: fixture(RECORD) }]);
  const t = sourceContext({ inspire: stub.url });
  try {
    const out = await searchSource(t.ctx, inspire, { query: '', keywords: [], maxResults: 10, dateFrom: '2019-01-01', dateTo: '2019-12-31', author: 'Becattini, F.' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 1);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('query building', () => {
  assert.is(inspireQuery('higgs'), 'higgs');
  assert.is(inspireQuery('', '2020-01-01'), 'de >= 2020-01-01');
  assert.is(inspireQuery('', undefined, undefined, 'E.Witten.1'), 'a E.Witten.1');
});

test('a body cut short is parse_failure', async () => {
  const stub = await startStub([{ path: '/literature', body: fixture(RECORD).subarray(0, 5000) }]);
  const t = sourceContext({ inspire: stub.url });
  try {
    const out = await searchSource(t.ctx, inspire, { query: 'x', keywords: [], maxResults: 10 }, { signal: signal() });
    assert.is(out.zeroReason, 'parse_failure');
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
