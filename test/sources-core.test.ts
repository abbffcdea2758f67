import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { core, coreQuery, parseResponse } from '../src/sources/core.js';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub, type Expectation } from './_stub.js';

const KEY = 'core-key-5f2a91';
const PAGE = fixture('core/search-works-flutter-first3-of-5.json');
/** CORE's answer shape with no hits (totalHits 0, empty results). */
const EMPTY = JSON.stringify({ totalHits: 0, limit: 10, offset: 0, scrollId: null, results: [], tooks: null, esTook: null });

/** Run one search against a strict stub; every expectation must be used. */
async function search(expectations: Expectation[], params: Partial<SourceParams> = {}, key: string | null = KEY) {
  const stub = await startStub(expectations);
  const t = sourceContext({ core: stub.url });
  if (key) t.ctx.credentials.set('core_api_key', key);
  try {
    const out = await searchSource(t.ctx, core, { query: 'flutter', keywords: [], maxResults: 3, ...params }, { signal: signal() });
    stub.assertDone();
    return { out, requests: stub.requests };
  } finally {
    await t.close();
    await stub.close();
  }
}

test('a recorded search answer normalizes; the key goes in the Authorization header, never in a URL', async () => {
  const { out, requests } = await search([{ path: '/search/works/', query: { q: 'flutter', limit: '3', offset: '0' }, body: PAGE }]);
  assert.is(out.zeroReason, null);
  assert.is(out.request.key, 'stored');
  assert.is(requests[0]!.headers.authorization, `Bearer ${KEY}`);
  assert.not.ok(out.traces.some((tr) => tr.url.includes(KEY)));
  assert.is(out.evidence.total_reported, 23027);
  assert.is(out.records.length, 3);

  const [first, second] = out.records;
  assert.is(first!.source, 'core');
  assert.is(first!.nativeId, '722934');
  assert.is(first!.ids.core, '722934');
  assert.is(first!.ids.arxiv, '1010.1833');
  assert.is(first!.doi, '10.1016/j.jmps.2006.05.005');
  assert.is(first!.title, 'A dynamical interpretation of flutter instability in a continuous medium');
  assert.is(first!.publicationDate, '2010-10-09');
  assert.is(first!.datePrecision, 'day');
  // The journal has no title (only its ISSN): no venue. The publisher ('Elsevier BV') is not one.
  assert.is(first!.venue, undefined);
  // CORE repeats merged author names ("Bigoni" nine times): each is kept once.
  assert.is(first!.authors.filter((a) => a.name === 'Bigoni').length, 1);
  assert.is(first!.authors.length, 9);
  // downloadUrl here is an arXiv abstract page, not a file.
  assert.is(first!.pdfUrl, undefined);
  assert.is(first!.landingUrl, 'https://core.ac.uk/works/722934');
  assert.ok(first!.abstract?.startsWith('Flutter instability in an infinite medium'));

  assert.is(second!.doi, undefined);
  assert.is(second!.pdfUrl, 'https://core.ac.uk/download/143956574.pdf');
  assert.is(second!.openAccess, true);
  assert.is(second!.title, 'Supersonic flutter analysis of flat composite panels by unified formulation');
  assert.equal(second!.authors[0], { name: 'E Carrera', given: 'E', family: 'Carrera' });
  // 'AIP Publishing' and no journal: no venue either.
  assert.is(out.records[2]!.venue, undefined);
});

test('a journal title is the venue, without CORE\'s quotes; the publisher never is', () => {
  // The recorded first work with the title of the journal its ISSN (0022-5096) names filled in.
  const body = JSON.parse(PAGE.toString('utf8'));
  body.results[0].journals[0].title = "'Journal of the Mechanics and Physics of Solids'";
  const page = parseResponse(JSON.stringify(body));
  assert.is(page.records[0]!.venue, 'Journal of the Mechanics and Physics of Solids');
  assert.ok(!page.records.some((r) => r.venue === 'Elsevier BV' || r.venue === 'AIP Publishing'));
});

test('the window goes into q as yearPublished bounds; CORE answers whole years and the driver trims to the day', async () => {
  const { out, requests } = await search(
    [
      { path: '/search/works/', query: { offset: '0', limit: '10' }, body: PAGE },
      { path: '/search/works/', query: { offset: '3', limit: '10' }, body: EMPTY },
    ],
    { dateFrom: '2010-06-01', dateTo: '2010-12-31', maxResults: 10, author: 'Bigoni, D' },
  );
  assert.is(requests[0]!.query.get('q'), 'flutter AND authors:"Bigoni, D" AND yearPublished>=2010 AND yearPublished<=2010');
  assert.equal(out.window.answered, { from: '2010-01-01', to: '2010-12-31' });
  assert.equal(out.records.map((r) => r.nativeId), ['722934']);
  assert.is(out.evidence.filtered_out, 2);
  assert.is(out.pages, 2);
});

test('several words are grouped before AND', () => {
  assert.is(coreQuery({ query: 'deep learning', keywords: ['nlp'], dateFrom: '2020-03-01' }), '(deep learning nlp) AND yearPublished>=2020');
});

test('an empty answer is answered_empty with counts', async () => {
  const { out } = await search([{ path: '/search/works/', body: EMPTY }], { query: 'zzzqqq' });
  assert.is(out.zeroReason, 'answered_empty');
  assert.is(out.evidence.received, 0);
  assert.is(out.evidence.total_reported, 0);
});

test('without a key CORE is not asked: missing_key and no request', async () => {
  const { out, requests } = await search([], {}, null);
  assert.is(out.zeroReason, 'missing_key');
  assert.is(requests.length, 0);
  assert.match(out.message!, /core_api_key/);
});

test('an answer without results is a parse failure', () => {
  assert.throws(() => parseResponse('{"message":"Rate limit exceeded"}'), /results/);
  assert.throws(() => parseResponse('<html>'), /not JSON/);
});

test('a literal "<" or ">" in a plain-text abstract or title is text, not the start of a tag to cut out', async () => {
  // The recorded answer with the first work's title and abstract given the comparisons plain-text
  // abstracts carry; CORE sends text, not HTML, so nothing in it is escaped.
  const body = JSON.parse(PAGE.toString('utf8'));
  body.results[0].title = 'Flutter at Mach >1 for panels with a/h<50';
  body.results[0].abstract = 'Flutter speed rose (p<0.05) for panels aged >65 cycles; T<sub>c</sub> fell.';
  const { out } = await search([{ path: '/search/works/', query: { offset: '0' }, body: JSON.stringify(body) }]);
  assert.is(out.records[0]!.title, 'Flutter at Mach >1 for panels with a/h<50');
  assert.is(out.records[0]!.abstract, 'Flutter speed rose (p<0.05) for panels aged >65 cycles; Tc fell.');
});

test('a comparison pair around words ("a<b and c>d") is text, not a tag with attributes', async () => {
  // A tag's attributes are name="value" pairs; "<b and c>" has bare words, as mathematical text does.
  const body = JSON.parse(PAGE.toString('utf8'));
  body.results[0].title = 'Bounds when n<m and m>k hold';
  body.results[0].abstract = 'The rate holds for a<b and c>d; for i<j or j>0 too. <i>Drosophila</i> data and a <a href="https://x.test/">link</a> stay readable.';
  const { out } = await search([{ path: '/search/works/', query: { offset: '0' }, body: JSON.stringify(body) }]);
  assert.is(out.records[0]!.title, 'Bounds when n<m and m>k hold');
  assert.is(out.records[0]!.abstract, 'The rate holds for a<b and c>d; for i<j or j>0 too. Drosophila data and a link stay readable.');
});

test.run();
