import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { doaj, doajQuery } from '../src/sources/doaj.js';
import { searchSource } from '../src/sources/driver.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub } from './_stub.js';

const CC_BY = 'doaj/search-articles-license-CC-BY-pageSize2.json';

test('a real article search: the query in the path, every field normalized', async () => {
  const stub = await startStub([{ path: '/search/articles/(license%3ACC-BY)', query: { page: '1', pageSize: '2' }, body: fixture(CC_BY) }]);
  const t = sourceContext({ doaj: stub.url });
  try {
    const out = await searchSource(t.ctx, doaj, { query: 'license:CC-BY', keywords: [], maxResults: 2 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.zeroReason, null);
    assert.is(out.evidence.total_reported, 5412874);
    const [a, b] = out.records;
    assert.is(a!.source, 'doaj');
    assert.is(a!.nativeId, '00000b689df5492bb15d3ec8927a4f6d');
    assert.is(a!.ids.doaj, '00000b689df5492bb15d3ec8927a4f6d');
    assert.is(a!.doi, '10.1038/s41467-020-15686-y');
    assert.is(a!.title, 'Brain insulin sensitivity is linked to adiposity and body fat distribution');
    assert.is(a!.authors.length, 9);
    assert.equal(a!.authors[0], {
      name: 'Stephanie Kullmann',
      given: 'Stephanie',
      family: 'Kullmann',
      affiliations: ['Institute for Diabetes Research and Metabolic Diseases of the Helmholtz Center Munich at the University of Tübingen'],
    });
    assert.is(a!.authors[8]!.name, 'Martin Heni');
    assert.is(a!.publicationDate, '2020-04');
    assert.is(a!.datePrecision, 'month');
    assert.is(a!.venue, 'Nature Communications');
    assert.is(a!.landingUrl, 'http://link.springer.com/article/10.1038/s41467-020-15686-y');
    assert.is(a!.pdfUrl, undefined); // the full-text link is HTML
    assert.is(a!.license, 'CC BY');
    assert.is(a!.openAccess, true);
    assert.equal(a!.categories, ['Science']);
    assert.ok(a!.abstract!.startsWith('Brain insulin action regulates eating behavior'));

    assert.is(b!.doi, undefined); // only a pissn among its identifiers
    assert.is(b!.publicationDate, '2013-01');
    assert.is(b!.datePrecision, 'month');
    assert.is(b!.venue, 'Letras de Hoje');
    assert.equal(b!.authors[0], { name: 'Mitidieri, André Luis', family: 'Mitidieri', given: 'André Luis' });
    assert.is(b!.pdfUrl, 'http://revistaseletronicas.pucrs.br/ojs/index.php/fale/article/view/15435/10129');
    assert.ok(b!.categories.includes('literatura argentina'));
    assert.ok(b!.categories.includes('Philology. Linguistics'));
  } finally {
    await t.close();
    await stub.close();
  }
});

test('window and author join the words in the query string', async () => {
  const q = doajQuery('insulin', '2020-03-01', '2021-06-30', 'Stephanie Kullmann');
  assert.is(q, '(insulin) AND bibjson.year:[2020 TO 2021] AND bibjson.author.name:"Stephanie Kullmann"');
  assert.is(doajQuery('', undefined, '2019-12-31'), 'bibjson.year:[* TO 2019]');
  const stub = await startStub([{ path: `/search/articles/${encodeURIComponent(q)}`, body: fixture(CC_BY) }]);
  const t = sourceContext({ doaj: stub.url });
  try {
    const out = await searchSource(t.ctx, doaj, { query: 'insulin', keywords: [], maxResults: 1, dateFrom: '2020-03-01', dateTo: '2021-06-30', author: 'Stephanie Kullmann' }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 1);
    assert.equal(out.window.answered, { from: '2020-01-01', to: '2021-12-31' });
    assert.match(stub.requests[0]!.path, /%20AND%20/);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('the next page is asked while DOAJ links one; a failing second page keeps the first page’s records', async () => {
  const stub = await startStub([
    { path: '/search/articles/(license%3ACC-BY)', query: { page: '1', pageSize: '3' }, body: fixture(CC_BY) },
    { path: '/search/articles/(license%3ACC-BY)', query: { page: '2', pageSize: '3' }, status: 503, times: 4 },
  ]);
  const t = sourceContext({ doaj: stub.url });
  try {
    const out = await searchSource(t.ctx, doaj, { query: 'license:CC-BY', keywords: [], maxResults: 3 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 2);
    assert.is(out.zeroReason, null);
    assert.is(out.partialFailure?.http_status, 503);
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a body cut short is parse_failure', async () => {
  const stub = await startStub([{ path: '/search/articles/(x)', body: fixture(CC_BY).subarray(0, 1000) }]);
  const t = sourceContext({ doaj: stub.url });
  try {
    const out = await searchSource(t.ctx, doaj, { query: 'x', keywords: [], maxResults: 2 }, { signal: signal() });
    assert.is(out.zeroReason, 'parse_failure');
  } finally {
    await t.close();
    await stub.close();
  }
});

test('a colon that is a title\'s punctuation is not sent as field syntax in the path; license:CC-BY still is', async () => {
  const stub = await startStub([{ path: '/search/articles/(brain%20insulin%20sensitivity%20a%20study%20license%3ACC-BY)', query: { page: '1' }, body: fixture(CC_BY) }]);
  const t = sourceContext({ doaj: stub.url });
  try {
    const out = await searchSource(t.ctx, doaj, { query: 'brain insulin sensitivity: a study', keywords: ['license:CC-BY'], maxResults: 2 }, { signal: signal() });
    stub.assertDone();
    assert.is(out.records.length, 2);
  } finally {
    await t.close();
    await stub.close();
  }
});

test.run();
