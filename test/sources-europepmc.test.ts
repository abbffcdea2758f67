import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource, type SourceParams } from '../src/sources/driver.js';
import { europepmc, parseEuropePmcResult, parseResponse } from '../src/sources/europepmc.js';
import { fixture } from './_setup.js';
import { sourceContext, signal } from './_sources.js';
import { startStub, type Expectation, type Stub } from './_stub.js';

const lite = () => fixture('europepmc/search-cancer-lite.json');
const NEXT = 'AoIIP4ZawSg1MzEyODI1MA==';

async function ask(expectations: Expectation[], params: Partial<SourceParams>) {
  const stub = await startStub(expectations);
  const t = sourceContext({ europepmc: stub.url });
  try {
    const outcome = await searchSource(t.ctx, europepmc, { query: 'cancer', keywords: [], maxResults: 25, ...params }, { signal: signal() });
    return { outcome, stub };
  } finally {
    await t.close();
    await stub.close();
  }
}

const done = (stub: Stub) => stub.assertDone();

test('a recorded lite answer: the request and every record normalized', async () => {
  const { outcome, stub } = await ask([{ path: '/search', query: { query: '(cancer)', format: 'json', resultType: 'core', pageSize: '25', cursorMark: '*' }, body: lite() }], {});
  done(stub);
  assert.is(outcome.zeroReason, null);
  assert.is(outcome.records.length, 25);
  assert.is(outcome.evidence.total_reported, 5059039);
  const [abscopal, erratum] = outcome.records;
  assert.is(abscopal!.nativeId, 'MED/39709209');
  assert.equal(abscopal!.ids, { europepmc: 'MED/39709209', pmid: '39709209' });
  assert.is(abscopal!.doi, '10.1016/s0140-6736(24)02600-x');
  // authorString "Schoenfeld JD, Haas-Kogan DA, O'Neill AF.": family name, then initials.
  assert.equal(abscopal!.authors, [
    { name: 'JD Schoenfeld', given: 'JD', family: 'Schoenfeld' },
    { name: 'DA Haas-Kogan', given: 'DA', family: 'Haas-Kogan' },
    { name: "AF O'Neill", given: 'AF', family: "O'Neill" },
  ]);
  assert.is(abscopal!.abstract, undefined); // lite has none
  assert.is(abscopal!.venue, 'Lancet');
  assert.is(abscopal!.publicationDate, '2025-12-01');
  assert.is(abscopal!.openAccess, false);
  assert.is(abscopal!.type, 'article');
  assert.is(abscopal!.landingUrl, 'https://europepmc.org/article/MED/39709209');
  // pubType "published erratum; correction", no authorString at all.
  assert.is(erratum!.type, 'correction');
  assert.is(erratum!.ids.pmcid, 'PMC12124214');
  assert.equal(erratum!.authors, []);
  for (const r of outcome.records) if (r.doi) assert.is(r.doi, r.doi.toLowerCase());
});

test('paging: the cursor goes back as cursorMark; the same cursor handed back means the end', async () => {
  const { outcome, stub } = await ask(
    [
      { path: '/search', query: { cursorMark: '*', pageSize: '30' }, body: lite() },
      // Served again under the cursor it names: Europe PMC's way of saying "no further".
      { path: '/search', query: { cursorMark: NEXT, pageSize: '30' }, body: lite() },
    ],
    { maxResults: 30 },
  );
  done(stub);
  assert.is(outcome.pages, 2);
  assert.is(outcome.records.length, 25);
  assert.is(outcome.evidence.received, 50);
});

test('max_results below a page: one request', async () => {
  const { outcome, stub } = await ask([{ path: '/search', query: { pageSize: '10' }, body: lite() }], { maxResults: 10 });
  done(stub);
  assert.is(outcome.records.length, 10);
  assert.is(stub.requests.length, 1);
});

test('keywords, an ORCID and the window on FIRST_PDATE go into the query', async () => {
  const { outcome, stub } = await ask(
    [{ path: '/search', query: { query: '(cancer "tumour microenvironment") AND AUTHORID:"0000-0002-7635-3473" AND FIRST_PDATE:[2020-01-01 TO 2020-12-31]' }, body: lite() }],
    { keywords: ['tumour microenvironment'], author: '0000-0002-7635-3473', dateFrom: '2020-01-01', dateTo: '2020-12-31' },
  );
  done(stub);
  assert.equal(outcome.window.answered, { from: '2020-01-01', to: '2020-12-31' });
});

test('an author name is searched with AUTH:', async () => {
  const { stub } = await ask([{ path: '/search', query: { query: '(cancer) AND AUTH:"Schoenfeld JD"' }, body: lite() }], { author: 'Schoenfeld JD' });
  done(stub);
});

test('no hits is answered_empty', async () => {
  const { outcome } = await ask([{ path: '/search', body: fixture('europepmc/search-empty-asdkfj.json') }], { query: 'asdkfjhasdkfjhasdfasdasdasdfgsagsd' });
  assert.is(outcome.zeroReason, 'answered_empty');
  assert.is(outcome.evidence.total_reported, 0);
});

test('a malformed answer is parse_failure', async () => {
  const truncated = await ask([{ path: '/search', body: lite().subarray(0, 3000) }], {});
  assert.is(truncated.outcome.zeroReason, 'parse_failure');
  const shapeless = await ask([{ path: '/search', body: '{"version":"6.9","hitCount":3}' }], {});
  assert.is(shapeless.outcome.zeroReason, 'parse_failure');
});

test('core fields: author list with ORCID and affiliations, abstract markup, open PDF, keywords, licence; PPR is a preprint', () => {
  // One result shaped like resultType=core (field names as the REST service gives them).
  const record = parseEuropePmcResult({
    id: 'PPR123456',
    source: 'PPR',
    doi: '10.1101/2020.06.11.145425',
    title: 'Machine Learning Maps Research Needs in <i>COVID-19</i> Literature',
    authorString: 'Doanvo AL, Qian X.',
    authorList: {
      author: [
        {
          fullName: 'Doanvo AL',
          firstName: 'Anhvinh L',
          lastName: 'Doanvo',
          initials: 'AL',
          authorId: { type: 'ORCID', value: '0000-0002-1825-0097' },
          authorAffiliationDetailsList: { authorAffiliation: [{ affiliation: 'Washington, D.C.' }] },
        },
        { fullName: 'Qian X', firstName: 'Xiaolu', lastName: 'Qian', initials: 'X' },
        { collectiveName: 'CORD-19 Consortium' },
      ],
    },
    abstractText: '<h4>Summary</h4>Manually assessing p<0.05 and n>3 <b>scope</b>.',
    firstPublicationDate: '2020-06-12',
    pubTypeList: { pubType: ['Preprint'] },
    keywordList: { keyword: ['COVID-19', 'topic modeling'] },
    fullTextUrlList: {
      fullTextUrl: [
        { availability: 'Subscription required', availabilityCode: 'S', documentStyle: 'pdf', site: 'Publisher', url: 'https://closed.example/paper.pdf' },
        { availability: 'Open access', availabilityCode: 'OA', documentStyle: 'pdf', site: 'Europe_PMC', url: 'https://europepmc.org/articles/PMC1/pdf' },
      ],
    },
    license: 'cc by',
    isOpenAccess: 'Y',
    bookOrReportDetails: { publisher: 'bioRxiv' },
  })!;
  assert.is(record.nativeId, 'PPR/PPR123456');
  assert.is(record.type, 'preprint');
  assert.is(record.title, 'Machine Learning Maps Research Needs in COVID-19 Literature');
  assert.equal(record.authors, [
    { name: 'Anhvinh L Doanvo', given: 'Anhvinh L', family: 'Doanvo', orcid: '0000-0002-1825-0097', affiliations: ['Washington, D.C.'] },
    { name: 'Xiaolu Qian', given: 'Xiaolu', family: 'Qian' },
    { name: 'CORD-19 Consortium' },
  ]);
  // Tags go, a bare "<" or ">" in the text stays.
  assert.is(record.abstract, 'Summary Manually assessing p<0.05 and n>3 scope.');
  assert.is(record.pdfUrl, 'https://europepmc.org/articles/PMC1/pdf');
  assert.equal(record.categories, ['COVID-19', 'topic modeling']);
  assert.is(record.license, 'cc by');
  assert.is(record.openAccess, true);
  assert.is(record.venue, 'bioRxiv');
  assert.is(record.publicationDate, '2020-06-12');
});

test('a retracted publication in its pubTypeList is flagged', () => {
  const r = parseEuropePmcResult({ id: '9500320', source: 'MED', pmid: '9500320', title: 'Ileal-lymphoid-nodular hyperplasia.', pubTypeList: { pubType: ['Journal Article', 'Retracted Publication'] } })!;
  assert.is(r.isRetracted, true);
  assert.is(r.type, 'article');
  const page = parseResponse(JSON.stringify({ hitCount: 2, resultList: { result: [{ id: '1', source: 'MED' }, { id: '2', source: 'MED', title: 'Kept' }] } }));
  assert.is(page.received, 2);
  assert.is(page.unusable, 1);
});

test('core answers: a print date known to the month or year is not given a day; an electronic date is', async () => {
  // The recorded lite answer with core's journalInfo and electronicPublicationDate added to four
  // records, in the shape of Europe PMC's core result for PMID 26752278 (dateOfPublication
  // "2016 Jan", printPublicationDate "2016-01-01", electronicPublicationDate "2016-01-08",
  // firstPublicationDate the earlier of the two). The fifth record stays lite.
  const body = JSON.parse(lite().toString('utf8'));
  const [monthOnly, electronicFirst, yearOnly, fullDay] = body.resultList.result;
  Object.assign(monthOnly, { firstPublicationDate: '2016-01-01', journalInfo: { dateOfPublication: '2016 Jan', monthOfPublication: 1, yearOfPublication: 2016, printPublicationDate: '2016-01-01', journal: { title: 'Lancet' } } });
  Object.assign(electronicFirst, { firstPublicationDate: '2016-01-08', electronicPublicationDate: '2016-01-08', journalInfo: { dateOfPublication: '2016 Jan', monthOfPublication: 1, yearOfPublication: 2016, printPublicationDate: '2016-01-01' } });
  Object.assign(yearOnly, { firstPublicationDate: '2016-01-01', journalInfo: { dateOfPublication: '2016', monthOfPublication: 0, yearOfPublication: 2016, printPublicationDate: '2016-01-01' } });
  Object.assign(fullDay, { firstPublicationDate: '2025-08-22', journalInfo: { dateOfPublication: '2025 Aug 22', monthOfPublication: 8, yearOfPublication: 2025, printPublicationDate: '2025-08-22' } });
  const { outcome, stub } = await ask([{ path: '/search', query: { cursorMark: '*' }, body: JSON.stringify(body) }], {});
  done(stub);
  const dates = outcome.records.slice(0, 5).map((r) => [r.publicationDate, r.datePrecision]);
  assert.equal(dates, [
    ['2016-01', 'month'],
    ['2016-01-08', 'day'],
    ['2016', 'year'],
    ['2025-08-22', 'day'],
    ['2025-07-25', 'day'], // lite: firstPublicationDate as written
  ]);
});

test('a colon that is a title\'s punctuation is not sent as a field name; TITLE:word is kept', async () => {
  const { outcome, stub } = await ask([{ path: '/search', query: { query: '(cancer screening a review TITLE:cancer)' }, body: lite() }], { query: 'cancer screening: a review', keywords: ['TITLE:cancer'] });
  done(stub);
  assert.is(outcome.records.length, 25);
});

test.run();
