import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { crossref, parseCrossrefWork } from '../src/sources/crossref.js';
import { searchSource } from '../src/sources/driver.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const params = { query: 'ecology', keywords: [], maxResults: 2 };

test('a real works query normalizes every record', async () => {
  const stub = await startStub([{ path: '/works', query: { query: 'ecology', rows: '2', cursor: '*' }, body: fixture('crossref/works-query-ecology-rows2.json') }]);
  const t = sourceContext({ crossref: stub.url });
  try {
    const out = await searchSource(t.ctx, crossref, params, { signal: signal() });
    assert.is(out.zeroReason, null);
    assert.is(out.records.length, 2);
    assert.is(out.evidence.total_reported, 586628);
    const r = out.records[0]!;
    assert.is(r.source, 'crossref');
    assert.ok(r.doi && r.doi === r.doi.toLowerCase() && r.doi.startsWith('10.'));
    assert.is(r.nativeId, r.doi);
    assert.ok(r.title.length > 3);
    assert.ok(r.abstract?.startsWith('Communication is perhaps'));
    assert.not.match(r.abstract!, /<p>/);
    assert.ok(r.publicationDate);
    stub.assertDone();
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a preprint relation and a correction notice are kept', () => {
  const preprint = parseCrossrefWork(JSON.parse(fixture('crossref/work-10.3389_fgene.2017.00147-relation-has-preprint.json').toString()).message)!;
  assert.equal(preprint.relations.find((r) => r.kind === 'has_preprint'), { kind: 'has_preprint', doi: '10.1101/171108' });
  assert.is(preprint.doi, '10.3389/fgene.2017.00147');
  assert.ok(preprint.authors.length > 0 && preprint.authors[0]!.family);
  const corrected = parseCrossrefWork(JSON.parse(fixture('crossref/work-10.1371_journal.pone.0033693-updated-by-correction.json').toString()).message)!;
  const notice = corrected.relations.find((r) => r.kind === 'corrected_by')!;
  assert.is(notice.doi, '10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda');
  assert.is(notice.date, '2012-05-08');
  assert.is(corrected.isRetracted, undefined);
});

test('an empty answer is answered_empty with counts', async () => {
  const stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-empty-adfaaf.json') }]);
  const t = sourceContext({ crossref: stub.url });
  try {
    const out = await searchSource(t.ctx, crossref, { query: 'adfaaf', keywords: [], maxResults: 10 }, { signal: signal() });
    assert.is(out.zeroReason, 'answered_empty');
    assert.is(out.evidence.received, 0);
    assert.is(out.evidence.total_reported, 0);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a 500 is retried, then upstream_failure with the status as evidence', async () => {
  const stub = await startStub([{ path: '/works', status: 500, body: fixture('crossref/error-500-works-cursor-5.json'), times: 4 }]);
  const t = sourceContext({ crossref: stub.url });
  try {
    const out = await searchSource(t.ctx, crossref, params, { signal: signal() });
    assert.is(out.zeroReason, 'upstream_failure');
    assert.is(out.evidence.http_status, 500);
    assert.is(stub.requests.length, 4);
    assert.is(out.traces.length, 4);
    stub.assertDone();
  } finally {
    await t.close();
    await stub.close();
  }
});

test('the date window goes to the source as a filter; mailto joins the polite pool', async () => {
  const stub = await startStub([{ path: '/works', query: { filter: 'from-pub-date:2020-01-01,until-pub-date:2020-12-31', mailto: 'me@example.org' }, body: fixture('crossref/works-query-ecology-rows2.json') }]);
  const t = sourceContext({ crossref: stub.url });
  t.ctx.settings.write('email', { contact_email: 'me@example.org' });
  try {
    const out = await searchSource(t.ctx, crossref, { ...params, dateFrom: '2020-01-01', dateTo: '2020-12-31' }, { signal: signal() });
    assert.equal(out.window.answered, { from: '2020-01-01', to: '2020-12-31' });
    assert.match(String(stub.requests[0]!.headers['user-agent']), /^svc\/\S+ \(.*mailto:me@example\.org\)$/);
    stub.assertDone();
  } finally {
    await t.close();
    await stub.close();
  }
});

test('JATS and HTML inline markup vanishes inside words (CO2, COVID‐19), not into spaces; the Abstract heading goes', async () => {
  // The recorded answer, with the first item's title, subtitle and abstract replaced by markup of the
  // kinds Crossref passes through from publishers' deposits: HTML <sub>, Wiley's <scp>, JATS with the
  // jats: prefix, MathML; the other item stays as recorded. Literal "<" arrives escaped (&lt;).
  const body = JSON.parse(fixture('crossref/works-query-ecology-rows2.json').toString('utf8'));
  const item = body.message.items[0];
  item.title = ['CO<sub>2</sub> uptake of <scp>COVID</scp>‐19 wards'];
  item.subtitle = ['<i>in situ</i> measurements'];
  item.abstract =
    '<jats:title>Abstract</jats:title><jats:sec><jats:title>Background</jats:title><jats:p>CO<jats:sub>2</jats:sub> rose by 10<jats:sup>3</jats:sup> ppm (<jats:italic>p</jats:italic> &lt; 0.05) where <mml:math><mml:msub><mml:mi>x</mml:mi><mml:mn>2</mml:mn></mml:msub></mml:math> &gt; 1.</jats:p></jats:sec>';
  const stub = await startStub([{ path: '/works', query: { query: 'ecology', rows: '2', cursor: '*' }, body: JSON.stringify(body) }]);
  const t = sourceContext({ crossref: stub.url });
  try {
    const out = await searchSource(t.ctx, crossref, params, { signal: signal() });
    stub.assertDone();
    const r = out.records[0]!;
    assert.is(r.title, 'CO2 uptake of COVID‐19 wards: in situ measurements');
    assert.is(r.abstract, 'Background CO2 rose by 103 ppm (p < 0.05) where x2 > 1.');
    assert.ok(out.records[1]!.abstract?.startsWith('“Ours is a world of sights and sounds.'));
  } finally {
    await t.close();
    await stub.close();
  }
});

test('the licence is the version of record\'s, not the text-and-data-mining one Crossref lists first', () => {
  // The recorded work (Nature Machine Intelligence, CC BY) with its tdm licence given the URL Elsevier
  // deposits for text mining, the way Elsevier records list it before the article's own licence.
  const item = JSON.parse(fixture('identity/crossref-works-query-title-augmenting-llms-chemistry-tools-rows1-no-reference-list.json').toString('utf8')).message.items[0];
  assert.equal(item.license.map((l: any) => l['content-version']), ['tdm', 'vor']);
  item.license[0].URL = 'https://www.elsevier.com/tdm/userlicense/1.0/';
  assert.is(parseCrossrefWork(item)!.license, 'https://creativecommons.org/licenses/by/4.0');
  item.license = [{ URL: 'https://www.elsevier.com/tdm/userlicense/1.0/', 'content-version': 'tdm' }];
  assert.is(parseCrossrefWork(item)!.license, 'https://www.elsevier.com/tdm/userlicense/1.0/'); // the only one there is
});

test('paging stops at the reported total: the cursor of the last page is not followed to an empty page', async () => {
  // The recorded answer (2 items) with total-results set to 2, a query with exactly two hits, and the
  // next-cursor Crossref adds to every page asked with cursor= (the recording was asked without one).
  const body = JSON.parse(fixture('crossref/works-query-ecology-rows2.json').toString('utf8'));
  body.message['total-results'] = 2;
  body.message['next-cursor'] = 'DnF1ZXJ5VGhlbkZldGNoBgAAAAAAHcZgFnBrU3VJM0hSUlN1';
  const stub = await startStub([{ path: '/works', query: { cursor: '*' }, body: JSON.stringify(body) }]);
  const t = sourceContext({ crossref: stub.url });
  try {
    const out = await searchSource(t.ctx, crossref, { ...params, maxResults: 10 }, { signal: signal() });
    stub.assertDone();
    assert.is(stub.requests.length, 1);
    assert.is(out.records.length, 2);
    assert.is(out.partialFailure, null);
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
