import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { biorxiv, parseResponse as parseBiorxiv } from '../src/sources/biorxiv.js';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { medrxiv, parseResponse as parseMedrxiv } from '../src/sources/medrxiv.js';
import { queryTerms } from '../src/sources/normalize.js';
import { rxivAuthors } from '../src/sources/rxiv.js';
import type { SourceAdapter } from '../src/sources/types.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub, type Expectation, type Stub } from './_stub.js';

const bioPage = () => fixture('biorxiv/details-biorxiv-2020-01-01-2022-12-31-cursor0.json');
const medPage = () => fixture('medrxiv/details-medrxiv-2020-01-01-2022-12-31-cursor0.json');
// The API's documented answer past the last posting.
const NO_POSTS = JSON.stringify({ messages: [{ status: 'no posts found' }], collection: [] });
const WINDOW = { dateFrom: '2020-01-01', dateTo: '2022-12-31' };
const BIO = '/details/biorxiv/2020-01-01/2022-12-31';

async function ask(adapter: SourceAdapter, expectations: Expectation[], params: Partial<SourceParams>) {
  const stub = await startStub(expectations);
  const t = sourceContext({ [adapter.id]: stub.url });
  try {
    const outcome = await searchSource(t.ctx, adapter, { query: '', keywords: [], maxResults: 100, ...params }, { signal: signal() });
    return { outcome, stub };
  } finally {
    await t.close();
    await stub.close();
  }
}

const done = (stub: Stub) => stub.assertDone();

test('without a date window bioRxiv is not asked: window_unanswerable', async () => {
  const { outcome, stub } = await ask(biorxiv, [], { query: 'cancer' });
  done(stub);
  assert.is(stub.requests.length, 0);
  assert.is(outcome.zeroReason, 'window_unanswerable');
});

test('a recorded interval page: versions collapse to the latest, every field normalized', async () => {
  const { outcome, stub } = await ask(biorxiv, [{ path: `${BIO}/0`, body: bioPage() }], { ...WINDOW, maxResults: 40 });
  done(stub);
  assert.is(outcome.evidence.received, 50);
  assert.is(outcome.evidence.total_reported, 152918);
  // 50 postings, 10 of them a second version of a preprint on the same page.
  assert.is(outcome.records.length, 40);
  assert.is(stub.requests.length, 1);
  const byDoi = new Map(outcome.records.map((r) => [r.nativeId, r]));
  const first = byDoi.get('10.1101/001768')!;
  assert.is(first.doi, '10.1101/001768');
  assert.equal(first.authors.slice(0, 2), [
    { name: 'L. Durrieu', given: 'L.', family: 'Durrieu' },
    { name: 'A. Bush', given: 'A.', family: 'Bush' },
  ]);
  assert.is(first.authors.length, 9);
  assert.is(first.authors[8]!.family, 'Colman-Lerner');
  assert.is(first.publicationDate, '2022-06-24');
  assert.is(first.datePrecision, 'day');
  assert.equal(first.ids, { biorxiv: '10.1101/001768', biorxiv_version: 'v2' });
  assert.equal(first.categories, ['systems biology']);
  assert.equal(first.relations, [{ kind: 'preprint_of', doi: '10.1016/j.isci.2022.105906' }]);
  assert.is(first.landingUrl, 'https://www.biorxiv.org/content/10.1101/001768v2');
  assert.is(first.venue, 'bioRxiv');
  assert.is(first.license, 'cc_by_nc_nd');
  assert.is(first.type, 'preprint');
  const revised = byDoi.get('10.1101/008326')!;
  assert.is(revised.ids.biorxiv_version, 'v4');
  assert.is(revised.publicationDate, '2021-10-01');
  // published "NA": no relation.
  assert.equal(byDoi.get('10.1101/067736')!.relations, []);
});

test('keyword filtering: every term in title or abstract; filtered-out counted; quoted phrases stay whole', async () => {
  const phrase = await ask(biorxiv, [{ path: `${BIO}/0`, body: bioPage() }, { path: `${BIO}/50`, body: NO_POSTS }], { ...WINDOW, query: '"gene expression" fast' });
  done(phrase.stub);
  assert.equal(phrase.outcome.records.map((r) => r.nativeId).sort(), ['10.1101/060012', '10.1101/121152']);
  assert.is(phrase.outcome.evidence.filtered_out, 38);
  assert.is(phrase.outcome.evidence.received, 50);
  const words = await ask(biorxiv, [{ path: `${BIO}/0`, body: bioPage() }, { path: `${BIO}/50`, body: NO_POSTS }], { ...WINDOW, query: 'gene', keywords: ['Expression'] });
  assert.is(words.outcome.records.length, 9);
  assert.is(words.outcome.evidence.filtered_out, 31);
});

test('nothing matching is answered_empty, with what was scanned as evidence', async () => {
  const { outcome } = await ask(biorxiv, [{ path: `${BIO}/0`, body: bioPage() }, { path: `${BIO}/50`, body: NO_POSTS }], { ...WINDOW, query: 'zebrafish', keywords: ['telescope'] });
  assert.is(outcome.zeroReason, 'answered_empty');
  assert.is(outcome.evidence.received, 50);
  assert.is(outcome.evidence.filtered_out, 40);
  assert.match(outcome.message!, /nothing matched/);
});

test('paging: the cursor advances by the postings received (50 of count 100), across pages, until no posts', async () => {
  const { outcome, stub } = await ask(
    biorxiv,
    [
      { path: `${BIO}/0`, body: bioPage() },
      { path: `${BIO}/50`, body: bioPage() },
      { path: `${BIO}/100`, body: NO_POSTS },
    ],
    { ...WINDOW, query: 'frameshift' },
  );
  done(stub);
  assert.is(outcome.pages, 3);
  assert.is(outcome.evidence.received, 100);
  assert.is(outcome.evidence.filtered_out, 76);
  // The second page repeats the first: the driver keeps each preprint once.
  assert.equal(outcome.records.map((r) => r.nativeId).sort(), ['10.1101/067736', '10.1101/069971']);
  assert.is(outcome.records.find((r) => r.nativeId === '10.1101/067736')!.ids.biorxiv_version, 'v10');
});

test('max_results ends the scan once enough records matched', async () => {
  const { outcome, stub } = await ask(biorxiv, [{ path: `${BIO}/0`, body: bioPage() }], { ...WINDOW, query: 'cancer', maxResults: 2 });
  done(stub);
  assert.is(outcome.records.length, 2);
  assert.is(stub.requests.length, 1);
});

test('an open end of the window is closed by the driver (today); an empty interval is answered_empty', async () => {
  const today = new Date().toISOString().slice(0, 10);
  const { outcome, stub } = await ask(biorxiv, [{ path: `/details/biorxiv/2024-05-01/${today}/0`, body: NO_POSTS }], { dateFrom: '2024-05-01', query: 'x' });
  done(stub);
  assert.is(outcome.zeroReason, 'answered_empty');
  assert.is(outcome.evidence.received, 0);
});

test('medRxiv: its own path and site, the same parsing', async () => {
  const { outcome, stub } = await ask(medrxiv, [{ path: '/details/medrxiv/2020-01-01/2022-12-31/0', body: medPage() }], { ...WINDOW, maxResults: 3 });
  done(stub);
  const r = outcome.records[0]!;
  assert.is(r.source, 'medrxiv');
  assert.is(r.nativeId, '10.1101/2019.12.26.19014274');
  assert.equal(r.authors.map((a) => a.family), ['Banno', 'Tsujimoto', 'Kataoka']);
  assert.equal(r.ids, { medrxiv: '10.1101/2019.12.26.19014274', medrxiv_version: 'v1' });
  assert.is(r.landingUrl, 'https://www.medrxiv.org/content/10.1101/2019.12.26.19014274v1');
  assert.is(r.venue, 'medRxiv');
  assert.is(r.categories[0], 'epidemiology');
  assert.ok(r.abstract!.startsWith('ObjectivesTo evaluate whether'));
  assert.equal(parseMedrxiv(medPage().toString()).records.find((x) => x.nativeId === '10.1101/19004184')!.relations, [{ kind: 'preprint_of', doi: '10.1038/s41598-020-66867-0' }]);
});

test('a malformed answer is parse_failure', async () => {
  const truncated = await ask(biorxiv, [{ path: `${BIO}/0`, body: bioPage().subarray(0, 2000) }], WINDOW);
  assert.is(truncated.outcome.zeroReason, 'parse_failure');
  const shapeless = await ask(biorxiv, [{ path: `${BIO}/0`, body: '{"collection":[]}' }], WINDOW);
  assert.is(shapeless.outcome.zeroReason, 'parse_failure');
});

test('parseResponse is pure and counts before filtering; the DOI lookup answer parses too', () => {
  const page = parseBiorxiv(bioPage().toString());
  assert.is(page.received, 50);
  assert.is(page.records.length, 40);
  assert.is(page.unusable, 0);
  const single = parseBiorxiv(fixture('biorxiv/details-biorxiv-doi-10.1101_2020.06.11.145425.json').toString());
  assert.is(single.records[0]!.title, 'Machine Learning Maps Research Needs in COVID-19 Literature');
  assert.equal(single.records[0]!.relations, [{ kind: 'preprint_of', doi: '10.1016/j.patter.2020.100123' }]);
  assert.is(single.total, undefined);
});

test('query terms and author strings', () => {
  assert.equal(queryTerms('"gene expression"  mouse AND liver "unclosed'), ['gene expression', 'mouse', 'liver', 'unclosed']);
  assert.equal(queryTerms('   '), []);
  assert.equal(rxivAuthors('Janzen, D. L. I.; Consortium X; Smith, '), [
    { name: 'D. L. I. Janzen', given: 'D. L. I.', family: 'Janzen' },
    { name: 'Consortium X' },
    { name: 'Smith', family: 'Smith' },
  ]);
});

test('entities in abstracts read as characters: medRxiv\'s bracketed [&ge;] and [&le;], named HTML entities, a numeric reference out of range', () => {
  const outcome = parseMedrxiv(medPage().toString('utf8'));
  const byDoi = new Map(outcome.records.map((r) => [r.nativeId, r]));
  assert.match(byDoi.get('10.1101/2019.12.28.19015628')!.abstract!, /outpatient blood pressure of ≥ 140\/90 mmHg, .* hemoglobin A1c ≥ 7%/);
  assert.match(byDoi.get('10.1101/2019.12.30.19016154')!.abstract!, /\(BMD T-score≤-2\.5\)/);
  for (const r of outcome.records) assert.not.match(r.abstract ?? '', /&[a-z]+;/i, r.nativeId);
  // A recorded posting's abstract given a named entity and a numeric reference beyond Unicode: text, and the page still parses.
  const body = JSON.parse(medPage().toString('utf8'));
  body.collection[0].abstract = 'Alonso Rold&aacute;n &ndash; &alpha;-synuclein &#99999999; end';
  const page = parseMedrxiv(JSON.stringify(body));
  assert.is(page.received, 50);
  assert.ok(page.records.some((r) => r.abstract === 'Alonso Roldán – α-synuclein &#99999999; end'));
});

test.run();
