import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADS_FIELDS, ads, adsQuery, parseAdsDoc, parseResponse } from '../src/sources/ads.js';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { fixture } from './_setup.js';
import { parseHere, sourceContext, signal } from './_sources.js';
import { startStub, type Expectation } from './_stub.js';
import type { SourceHttp } from '../src/sources/http.js';
import type { SearchRequest } from '../src/sources/types.js';

const KEY = 'ads-token-2e6b7f';
const PERSSON = fixture('ads/search-query-persson-origin-of-water-fl-abstract.json');
/** Recorded with fl=bibcode,citation_count: ten documents, none with a title. */
const BIBCODES_ONLY = fixture('ads/search-query-dark-energy-fq-spergel-sort-citation_count.json');
/** Recorded with fl=title: ten titles, no bibcodes. */
const TITLES_ONLY = fixture('ads/search-query-author-kurtz-refereed-fl-title.json');
/** ADS with no hits. */
const EMPTY = JSON.stringify({ responseHeader: { status: 0, QTime: 3, params: {} }, response: { numFound: 0, start: 0, docs: [] } });

async function search(expectations: Expectation[], params: Partial<SourceParams> = {}, key: string | null = KEY) {
  const stub = await startStub(expectations);
  const t = sourceContext({ ads: stub.url });
  if (key) t.ctx.credentials.set('ads_api_key', key);
  try {
    const out = await searchSource(t.ctx, ads, { query: 'water protostars', keywords: [], maxResults: 10, ...params }, { signal: signal() });
    stub.assertDone();
    return { out, requests: stub.requests };
  } finally {
    await t.close();
    await stub.close();
  }
}

test('a recorded answer normalizes; rich fields are asked for and the token goes in the Authorization header', async () => {
  const { out, requests } = await search([
    { path: '/search/query', query: { q: '(water protostars)', fl: ADS_FIELDS, rows: '10', start: '0', sort: 'score desc' }, body: PERSSON },
  ]);
  assert.is(out.zeroReason, null);
  assert.is(requests[0]!.headers.authorization, `Bearer ${KEY}`);
  for (const field of ['bibcode', 'title', 'author', 'abstract', 'pubdate', 'doi', 'pub', 'identifier', 'keyword', 'property', 'orcid_pub', 'esources']) {
    assert.ok(ADS_FIELDS.split(',').includes(field), field);
  }
  assert.not.ok(out.traces.some((tr) => tr.url.includes(KEY)));
  assert.is(out.evidence.total_reported, 1);
  const r = out.records[0]!;
  assert.is(r.source, 'ads');
  assert.is(r.nativeId, '2011IAUS..280P.295P');
  assert.is(r.ids.ads, '2011IAUS..280P.295P');
  assert.is(r.title, 'Origin of water around deeply embedded low-mass protostars');
  assert.equal(r.authors.map((a) => a.name), ['M. V. Persson', 'J. K. Jorgensen', 'E. F. van Dishoeck']);
  assert.is(r.authors[2]!.family, 'van Dishoeck');
  // "2011-05-00": ADS dates to the month.
  assert.is(r.publicationDate, '2011-05');
  assert.is(r.datePrecision, 'month');
  assert.is(r.venue, 'The Molecular Universe');
  assert.ok(r.abstract?.includes('van Dishoeck & Blake 1998'));
  assert.is(r.landingUrl, 'https://ui.adsabs.harvard.edu/abs/2011IAUS..280P.295P/abstract');
});

test('documents without a title are unusable: a page of them is records_unusable, and paging stops', async () => {
  const { out, requests } = await search([{ path: '/search/query', query: { start: '0' }, body: BIBCODES_ONLY }]);
  assert.is(requests.length, 1);
  assert.is(out.zeroReason, 'records_unusable');
  assert.is(out.evidence.received, 10);
  assert.is(out.evidence.unusable, 10);
  assert.is(out.evidence.total_reported, 62);
});

test('documents without a bibcode are unusable too; markup in titles joins its word', () => {
  const page = parseResponse(TITLES_ONLY.toString());
  assert.is(page.received, 10);
  assert.is(page.records.length, 0);
  assert.is(page.unusable, 10);
  const title = JSON.parse(TITLES_ONLY.toString()).response.docs[0].title;
  assert.is(parseAdsDoc({ bibcode: 'test-bibcode', title })!.title, 'Correlated radon and CO2 variations near the San Andreas Fault');
});

test('identifiers, ORCIDs, DOI, keywords and open access come from their fields', () => {
  // Field shapes as the ADS search API documents them (lists parallel to author, "-" for none).
  const record = parseAdsDoc({
    bibcode: '2020ApJ...900...10X',
    title: ['A title'],
    author: ['Doe, Jane', 'Roe, R.'],
    orcid_pub: ['0000-0002-1825-0097', '-'],
    doi: ['10.3847/1538-4357/ABCDEF'],
    identifier: ['2020ApJ...900...10X', 'arXiv:2007.01234', '10.3847/1538-4357/abcdef'],
    keyword: ['Galaxies', 'Cosmology'],
    property: ['ARTICLE', 'OPENACCESS', 'REFEREED'],
    esources: ['EPRINT_HTML', 'EPRINT_PDF', 'PUB_PDF'],
    doctype: 'article',
    pubdate: '2020-09-00',
  })!;
  assert.equal(record.authors[0], { name: 'Jane Doe', given: 'Jane', family: 'Doe', orcid: '0000-0002-1825-0097' });
  assert.is(record.authors[1]!.orcid, undefined);
  assert.is(record.doi, '10.3847/1538-4357/abcdef');
  assert.is(record.ids.arxiv, '2007.01234');
  assert.equal(record.categories, ['Galaxies', 'Cosmology']);
  assert.is(record.openAccess, true);
  assert.is(record.type, 'article');
  assert.is(record.pdfUrl, 'https://ui.adsabs.harvard.edu/link_gateway/2020ApJ...900...10X/EPRINT_PDF');
});

test('the window is sent as pubdate months and an author as author:""', async () => {
  const { out, requests } = await search([{ path: '/search/query', body: PERSSON }], { dateFrom: '2011-03-15', dateTo: '2011-06-30', author: 'Persson, M' });
  assert.is(requests[0]!.query.get('q'), '(water protostars) AND author:"Persson, M" AND pubdate:[2011-03 TO 2011-06]');
  assert.equal(out.window.answered, { from: '2011-03-15', to: '2011-06-30' });
  assert.is(out.records.length, 1);
  assert.is(adsQuery({ query: '', keywords: [], dateFrom: '2020-01-01' }), 'pubdate:[2020-01 TO *]');
});

test('words are ranked by ADS\'s relevance score, so max_results keeps the best matches; a window alone is asked newest first', async () => {
  const ranked = await search([{ path: '/search/query', query: { q: '(water protostars)', sort: 'score desc' }, body: PERSSON }], { maxResults: 1 });
  assert.is(ranked.out.records[0]!.title, 'Origin of water around deeply embedded low-mass protostars');
  const windowOnly = await search([{ path: '/search/query', query: { q: 'pubdate:[2011-01 TO 2011-12]', sort: 'date desc' }, body: PERSSON }], { query: '', dateFrom: '2011-01-01', dateTo: '2011-12-31' });
  assert.is(windowOnly.out.pages, 1);
});

test('paging asks start after what arrived', async () => {
  const more = JSON.parse(PERSSON.toString());
  more.response.numFound = 62; // the same answer, claiming more hits
  const { out, requests } = await search([
    { path: '/search/query', query: { start: '0' }, body: JSON.stringify(more) },
    { path: '/search/query', query: { start: '1' }, body: BIBCODES_ONLY },
  ]);
  assert.equal(requests.map((r) => r.query.get('start')), ['0', '1']);
  assert.is(out.records.length, 1);
  assert.is(out.evidence.received, 11);
  assert.is(out.evidence.unusable, 10);
});

test('an empty answer is answered_empty', async () => {
  const { out } = await search([{ path: '/search/query', body: EMPTY }]);
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.evidence.total_reported, 0);
});

test('without a token ADS is not asked: missing_key and no request', async () => {
  const { out, requests } = await search([], {}, null);
  assert.is(out.zeroReason, 'missing_key');
  assert.is(requests.length, 0);
});

test('a literal "<" or ">" in an abstract is text, not the start of a tag to cut out; <SUB> joins its word', async () => {
  // The recorded answer with the abstract given the comparisons ADS abstracts carry as plain text.
  const body = JSON.parse(PERSSON.toString('utf8'));
  body.response.docs[0].abstract = 'Water at T < 100 K and n(H<SUB>2</SUB>) > 10^6 cm^-3 is traced.';
  const { out } = await search([{ path: '/search/query', body: JSON.stringify(body) }]);
  assert.is(out.records[0]!.abstract, 'Water at T < 100 K and n(H2) > 10^6 cm^-3 is traced.');
});

test('the query and its sort are built once per search, not again for every page', async () => {
  const doc = (n: number) => ({ bibcode: `2020Test..${n}`, title: [`Paper ${n}`] });
  const urls: string[] = [];
  const http = {
    traces: [],
    parse: parseHere,
    async get(url: string) {
      urls.push(url);
      const start = Number(new URL(url).searchParams.get('start'));
      return { text: JSON.stringify({ response: { numFound: 3, docs: start === 0 ? [doc(1), doc(2)] : [doc(3)] } }) };
    },
  } as unknown as SourceHttp;
  let reads = 0;
  // A request that counts how often its words are read: the query is built from them.
  const req = {
    query: 'water',
    get keywords() {
      reads++;
      return ['protostars'];
    },
    maxResults: 200,
    baseUrl: 'http://ads.invalid/v1',
    signal: signal(),
  } as SearchRequest;
  const first = await ads.fetchPage(req, undefined, http);
  await ads.fetchPage(req, first.next, http);
  assert.is(urls.length, 2);
  assert.equal(urls.map((u) => [new URL(u).searchParams.get('q'), new URL(u).searchParams.get('sort')]), [['(water protostars)', 'score desc'], ['(water protostars)', 'score desc']]);
  assert.is(reads, 1);
});

test.run();
