import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource } from '../src/sources/driver.js';
import { parseResponse, zenodo, zenodoQuery } from '../src/sources/zenodo.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const IPBES = 'zenodo/records-communities-ipbes-size1-page1.json';

test('a real records answer: the request with its window, and every field normalized', async () => {
  const stub = await startStub([
    { path: '/records', query: { q: '(ipbes nexus) AND publication_date:[2026-01-01 TO 2026-01-31]', size: '1', page: '1', sort: 'bestmatch' }, body: fixture(IPBES) },
  ]);
  const t = sourceContext({ zenodo: stub.url });
  try {
    const out = await searchSource(t.ctx, zenodo, { query: 'ipbes', keywords: ['nexus'], maxResults: 1, dateFrom: '2026-01-01', dateTo: '2026-01-31' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, null);
    assert.is(out.evidence.total_reported, 452);
    const r = out.records[0]!;
    assert.is(r.source, 'zenodo');
    assert.is(r.nativeId, '13850346');
    assert.is(r.ids.zenodo, '13850346');
    assert.is(r.doi, '10.5281/zenodo.13850346');
    assert.is(r.title, 'IPBES Nexus Assessment: Chapter 5.6 – Options for delivering sustainable approaches – Synthesis');
    assert.is(r.authors.length, 12);
    assert.equal(r.authors[0], { name: 'Ricketts, Taylor', family: 'Ricketts', given: 'Taylor', orcid: '0000-0001-9688-7977', affiliations: ['University of Vermont'] });
    assert.equal([r.authors[3]!.family, r.authors[3]!.given], ['van Huysen', 'Tiff']);
    assert.equal([r.authors[4]!.family, r.authors[4]!.orcid], ['Alonso Roldán', '0000-0003-0702-3566']);
    assert.is(r.authors[11]!.name, 'Singh, Pramod K');
    assert.is(
      r.abstract,
      'Chapter 5.6: Options for delivering sustainable approaches - Synthesis of the Thematic Assessment Report on the Interlinkages among Biodiversity, Water, Food and Health of the Intergovernmental Science-Policy Platform on Biodiversity and Ecosystem Services.',
    );
    assert.is(r.publicationDate, '2026-01-06');
    assert.is(r.datePrecision, 'day');
    assert.is(r.type, 'report');
    assert.is(r.license, 'cc-by-4.0');
    assert.is(r.openAccess, false); // access_right "restricted"
    assert.is(r.landingUrl, 'https://zenodo.org/records/13850346');
    assert.is(r.pdfUrl, undefined); // no files listed
    assert.equal(r.relations, []); // isPartOf / isSupplementedBy are not paper relations
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a window alone sorts by most recent; the next page is known from links.next', () => {
  assert.is(zenodoQuery('', '2020-01-01', '2020-12-31'), 'publication_date:[2020-01-01 TO 2020-12-31]');
  assert.is(zenodoQuery('ocean', undefined, '2019-06-30'), '(ocean) AND publication_date:[* TO 2019-06-30]');
  const page = parseResponse(fixture(IPBES).toString());
  assert.is(page.hasNext, true);
  assert.is(page.received, 1);
});

test('sort and page travel with the request', async () => {
  const stub = await startStub([{ path: '/records', query: { q: 'publication_date:[2026-01-01 TO 2026-12-31]', sort: 'mostrecent', page: '1' }, body: fixture(IPBES) }]);
  const t = sourceContext({ zenodo: stub.url });
  try {
    const out = await searchSource(t.ctx, zenodo, { query: '', keywords: [], maxResults: 1, dateFrom: '2026-01-01', dateTo: '2026-12-31' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 1);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a body cut short is parse_failure', async () => {
  const stub = await startStub([{ path: '/records', body: fixture(IPBES).subarray(0, 2000) }]);
  const t = sourceContext({ zenodo: stub.url });
  try {
    const out = await searchSource(t.ctx, zenodo, { query: 'ipbes', keywords: [], maxResults: 1 }, { signal: signal() });
    assert.is(out.zeroReason, 'parse_failure');
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
