import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchSource, type DriveOptions, type SourceParams } from '../src/sources/driver.js';
import { parseResponse, pubmed } from '../src/sources/pubmed.js';
import { fixture } from './_setup.js';
import { parseHere, sourceContext, signal, type SourceTestContext } from './_sources.js';
import { startStub, type Expectation, type Stub } from './_stub.js';
import type { SourceHttp } from '../src/sources/http.js';
import type { SearchRequest } from '../src/sources/types.js';

const esearch = () => fixture('pubmed/esearch-pubmed-biopython.xml');
const efetchTwo = () => fixture('pubmed/efetch-pubmed-11748933-11700088.xml');
const efetchLabelled = () => fixture('pubmed/efetch-pubmed-28424752-labelled-abstract-pmc.xml');
// The 20 PMIDs of the recorded esearch answer, in order: efetch must ask for exactly these.
const ESEARCH_IDS = '41282813,41148224,41011574,40959146,40937394,40657423,40651330,40572159,40160861,39883659,39882099,39717221,39546778,39507944,39445816,38808697,38650605,38365590,38235175,37810457';
const xml = { 'content-type': 'text/xml' };

async function ask(expectations: Expectation[], params: Partial<SourceParams>, setup?: (t: SourceTestContext) => void, options: Partial<DriveOptions> = {}) {
  const stub = await startStub(expectations);
  const t = sourceContext({ pubmed: stub.url });
  setup?.(t);
  try {
    const outcome = await searchSource(t.ctx, pubmed, { query: 'biopython', keywords: [], maxResults: 2, ...params }, { signal: signal(), ...options });
    return { outcome, stub };
  } finally {
    await t.close();
    await stub.close();
  }
}

const done = (stub: Stub) => stub.assertDone();

test('esearch then efetch of the PMIDs it found; records from the recorded PubMed XML', async () => {
  const { outcome, stub } = await ask(
    [
      // sort=relevance: esearch otherwise lists the newest first (the recorded ids descend), and max_results would keep those.
      { path: '/esearch.fcgi', query: { db: 'pubmed', term: '(biopython)', retstart: '0', retmax: '2', retmode: 'xml', tool: 'svc', sort: 'relevance' }, body: esearch(), headers: xml },
      { path: '/efetch.fcgi', query: { db: 'pubmed', id: ESEARCH_IDS, retmode: 'xml', tool: 'svc' }, body: efetchTwo(), headers: xml },
    ],
    {},
  );
  done(stub);
  assert.is(stub.requests[0]!.query.get('email'), null); // no contact address set
  assert.is(stub.requests[0]!.query.get('api_key'), null);
  assert.is(outcome.zeroReason, null);
  assert.is(outcome.evidence.total_reported, 63);
  assert.is(outcome.records.length, 2);
  const [cryo, mri] = outcome.records;
  assert.is(cryo!.nativeId, '11748933');
  assert.equal(cryo!.ids, { pmid: '11748933' });
  assert.is(cryo!.doi, '10.1006/cryo.2001.2328');
  assert.is(cryo!.venue, 'Cryobiology');
  // <Month>Jun</Month> with no day: month precision.
  assert.is(cryo!.publicationDate, '2001-06');
  assert.is(cryo!.datePrecision, 'month');
  assert.equal(
    cryo!.authors.map((a) => a.family),
    ['Taddei', 'Barbato', 'Abelli', 'Canese', 'Moretti', 'Rana', 'Fausto', 'Mazzini'],
  );
  assert.equal(cryo!.authors[5], { name: 'K J Rana', given: 'K J', family: 'Rana' });
  // A numeric character reference the XML parser leaves alone is decoded.
  assert.equal(cryo!.authors[0]!.affiliations, ['Dipartimento di Scienze Ambientali, Università degli Studi della Tuscia, 01100 Viterbo, Italy.']);
  assert.ok(cryo!.abstract!.includes('(P < 0.001)'));
  assert.ok(cryo!.categories.includes('Sperm Motility'));
  assert.is(cryo!.categories[0], 'Animals');
  assert.is(cryo!.type, 'article');
  assert.is(cryo!.isRetracted, undefined);
  assert.is(mri!.title, 'Proton MRI of (13)C distribution by J and chemical shift editing.');
  assert.is(mri!.authors[5]!.family, 'De Luca');
  assert.is(mri!.landingUrl, 'https://pubmed.ncbi.nlm.nih.gov/11700088/');
});

test('a structured abstract keeps its labels and inline markup; identifiers come from the record, not its references', () => {
  const page = parseResponse(efetchLabelled().toString());
  assert.is(page.received, 1);
  const r = page.records[0]!;
  assert.ok(r.abstract!.startsWith('BACKGROUND: In recent years, commercial bath salts products containing'), r.abstract);
  assert.match(r.abstract!, /\. STATEMENT OF PURPOSE OF STUDY: This study was designed/);
  assert.match(r.abstract!, /PRINCIPAL CONCLUSIONS: These data confirm .* abuse-related effects\.$/);
  // The ReferenceList lists PMC3572571 etc. for cited papers; the record's own PMCID is PMC5393345.
  assert.equal(r.ids, { pmid: '28424752', pmcid: 'PMC5393345' });
  assert.is(r.doi, '10.4303/jdar/236009');
  // <PubDate><Year>2016</Year></PubDate>: year precision, even though ArticleDate has a day.
  assert.is(r.publicationDate, '2016');
  assert.is(r.datePrecision, 'year');
  assert.equal(r.authors.map((a) => a.name), ['Brenda M Gannon', 'William E Fantegrossi']);
});

// A minimal record written for this test after the PubMed DTD (pubmed_250101), for the
// elements the recorded answers above lack. The retraction values are those PubMed gives
// for PMID 9500320 (retracted in 2010 by the notice PMID 20137807).
const noticeRecord = `<?xml version="1.0" ?>
<PubmedArticleSet>
<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">9500320</PMID>
<Article PubModel="Print"><Journal><JournalIssue CitedMedium="Print"><PubDate><MedlineDate>1998 Dec-1999 Jan</MedlineDate></PubDate></JournalIssue><Title>Lancet (London, England)</Title></Journal>
<ArticleTitle>[Ileal-lymphoid-nodular hyperplasia in <i>children</i>: CO<sub>2</sub> &amp; more].</ArticleTitle>
<AuthorList CompleteYN="Y">
<Author ValidYN="Y"><LastName>Wakefield</LastName><ForeName>A J</ForeName><Initials>AJ</Initials><Identifier Source="ORCID">https://orcid.org/0000-0001-7568-592X</Identifier><AffiliationInfo><Affiliation>Royal Free Hospital, London.</Affiliation></AffiliationInfo><AffiliationInfo><Affiliation>Second affiliation.</Affiliation></AffiliationInfo></Author>
<Author ValidYN="N"><LastName>Wrongly</LastName><ForeName>Listed</ForeName></Author>
<Author ValidYN="Y"><CollectiveName>UK Study Group</CollectiveName></Author>
<Author ValidYN="Y"><LastName>Murch</LastName><Initials>SH</Initials></Author>
</AuthorList>
<PublicationTypeList><PublicationType UI="D016428">Journal Article</PublicationType><PublicationType UI="D016441">Retracted Publication</PublicationType></PublicationTypeList>
</Article>
<CommentsCorrectionsList>
<CommentsCorrections RefType="CommentIn"><RefSource>Lancet. 1998 Feb 28;351(9103):611-2.</RefSource><PMID Version="1">9500313</PMID></CommentsCorrections>
<CommentsCorrections RefType="RetractionIn"><RefSource>Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4.</RefSource><PMID Version="1">20137807</PMID></CommentsCorrections>
<CommentsCorrections RefType="ErratumIn"><RefSource>Lancet 2004 Mar 6;363(9411):750</RefSource></CommentsCorrections>
</CommentsCorrectionsList>
</MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">9500320</ArticleId><ArticleId IdType="doi">10.1016/S0140-6736(97)11096-0</ArticleId></ArticleIdList></PubmedData></PubmedArticle>
<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">20137807</PMID>
<Article PubModel="Print"><Journal><JournalIssue CitedMedium="Internet"><PubDate><Year>2010</Year><Month>Feb</Month><Day>06</Day></PubDate></JournalIssue><Title>Lancet (London, England)</Title></Journal>
<ArticleTitle>Retraction--Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children.</ArticleTitle>
<PublicationTypeList><PublicationType UI="D016440">Retraction of Publication</PublicationType></PublicationTypeList>
</Article>
<CommentsCorrectionsList><CommentsCorrections RefType="RetractionOf"><RefSource>Lancet. 1998 Feb 28;351(9103):637-41</RefSource><PMID Version="1">9500320</PMID></CommentsCorrections></CommentsCorrectionsList>
</MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">20137807</ArticleId></ArticleIdList></PubmedData></PubmedArticle>
<PubmedArticle><MedlineCitation><PMID Version="1">1</PMID><Article><Journal><Title>No title here</Title></Journal></Article></MedlineCitation></PubmedArticle>
</PubmedArticleSet>`;

test('retraction notices both ways, ORCID, collective and invalid authors, MedlineDate, translated titles', () => {
  const page = parseResponse(noticeRecord);
  assert.is(page.received, 3);
  assert.is(page.unusable, 1);
  const [retracted, notice] = page.records;
  assert.is(retracted!.title, 'Ileal-lymphoid-nodular hyperplasia in children: CO2 & more.');
  assert.is(retracted!.isRetracted, true);
  assert.is(retracted!.type, 'article');
  assert.is(retracted!.publicationDate, '1998');
  assert.is(retracted!.datePrecision, 'year');
  assert.is(retracted!.doi, '10.1016/s0140-6736(97)11096-0');
  assert.equal(retracted!.authors, [
    { name: 'A J Wakefield', given: 'A J', family: 'Wakefield', orcid: '0000-0001-7568-592X', affiliations: ['Royal Free Hospital, London.', 'Second affiliation.'] },
    { name: 'UK Study Group' },
    { name: 'SH Murch', given: 'SH', family: 'Murch' },
  ]);
  assert.equal(retracted!.relations, [
    {
      kind: 'retracted_by',
      doi: '10.1016/s0140-6736(10)60175-4',
      url: 'https://pubmed.ncbi.nlm.nih.gov/20137807/',
      label: 'Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4. (PMID 20137807)',
    },
    { kind: 'corrected_by', label: 'Lancet 2004 Mar 6;363(9411):750' },
  ]);
  assert.is(notice!.type, 'retraction');
  assert.is(notice!.isRetracted, undefined);
  assert.is(notice!.publicationDate, '2010-02-06');
  assert.equal(notice!.relations.map((r) => [r.kind, r.url]), [['retraction_of', 'https://pubmed.ncbi.nlm.nih.gov/9500320/']]);
});

test('with a key and a contact address: api_key, tool and email on both calls, the window as pdat; the key never in traces', async () => {
  const key = 'ncbi-secret-4f2a9c';
  const identity = { tool: 'svc', email: 'me@example.org', api_key: key };
  const { outcome, stub } = await ask(
    [
      { path: '/esearch.fcgi', query: { ...identity, datetype: 'pdat', mindate: '2001/01/01', maxdate: '2001/12/31' }, body: esearch(), headers: xml },
      { path: '/efetch.fcgi', query: identity, body: efetchTwo(), headers: xml },
    ],
    { dateFrom: '2001-01-01', dateTo: '2001-12-31' },
    (t) => t.ctx.settings.write('email', { contact_email: 'me@example.org' }),
    { ephemeralCredentials: { ncbi_api_key: key } },
  );
  done(stub);
  assert.is(outcome.request.key, 'ephemeral');
  assert.is(outcome.records.length, 2);
  assert.is(outcome.traces.length, 2);
  for (const trace of outcome.traces) {
    assert.not.ok(trace.url.includes(key), trace.url);
    assert.match(trace.url, /api_key=\*\*\*/);
  }
  assert.not.ok(JSON.stringify(outcome).includes(key));
});

test('one end of the window is enough: the other is closed far away, as E-utilities needs the pair', async () => {
  const { stub } = await ask(
    [
      { path: '/esearch.fcgi', query: { mindate: '2020/03/01', maxdate: '3000/12/31', datetype: 'pdat' }, body: esearch() },
      { path: '/efetch.fcgi', body: efetchTwo() },
    ],
    { dateFrom: '2020-03-01' },
  );
  done(stub);
});

test('an author alone has no words to rank: no sort, so esearch lists the newest first', async () => {
  const { stub } = await ask(
    [
      { path: '/esearch.fcgi', query: { term: '0000-0002-1825-0097[auid]' }, body: esearch() },
      { path: '/efetch.fcgi', body: efetchTwo() },
    ],
    { query: '', author: 'https://orcid.org/0000-0002-1825-0097' },
  );
  done(stub);
  assert.is(stub.requests[0]!.query.get('sort'), null);
});

test('an author and keywords join the term', async () => {
  const { stub } = await ask(
    [
      { path: '/esearch.fcgi', query: { term: '(biopython "sequence analysis") AND 0000-0002-1825-0097[auid]' }, body: esearch() },
      { path: '/efetch.fcgi', body: efetchTwo() },
    ],
    { keywords: ['sequence analysis'], author: 'https://orcid.org/0000-0002-1825-0097' },
  );
  done(stub);
});

test('paging: retstart advances by the PMIDs found, and paging stops at max_results', async () => {
  const { outcome, stub } = await ask(
    [
      { path: '/esearch.fcgi', query: { retstart: '0', retmax: '3' }, body: esearch() },
      { path: '/efetch.fcgi', body: efetchTwo() },
      { path: '/esearch.fcgi', query: { retstart: '20', retmax: '3' }, body: esearch() },
      { path: '/efetch.fcgi', body: efetchLabelled() },
    ],
    { maxResults: 3 },
  );
  done(stub);
  assert.is(outcome.pages, 2);
  assert.equal(outcome.records.map((r) => r.nativeId), ['11748933', '11700088', '28424752']);
});

test('an esearch with no hits (PhraseNotFound) is answered_empty, and efetch is not called', async () => {
  const { outcome, stub } = await ask([{ path: '/esearch.fcgi', body: fixture('pubmed/esearch-empty-abcXYZ.xml') }], { query: 'abcXYZ' });
  done(stub);
  assert.is(outcome.zeroReason, 'answered_empty');
  assert.is(outcome.evidence.total_reported, 0);
  assert.is(stub.requests.length, 1);
  // PubMed's ErrorList says which word it did not know; the search record keeps it.
  assert.is(outcome.message, 'PubMed found nothing for this query. PubMed said: phrase not found: abcXYZ.');
});

test('a quoted keyword PubMed does not know as a phrase: answered_empty, and the message carries its QuotedPhraseNotFound warning', async () => {
  // The recorded empty answer with its ErrorList replaced by the warning PubMed gives for an
  // unknown quoted phrase (WarningList/QuotedPhraseNotFound, as the esearch DTD names it).
  const body = fixture('pubmed/esearch-empty-abcXYZ.xml')
    .toString('utf8')
    .replace('<ErrorList><PhraseNotFound>abcXYZ</PhraseNotFound></ErrorList><WarningList>', '<WarningList><QuotedPhraseNotFound>"qwerty asdfg"[All Fields]</QuotedPhraseNotFound>');
  assert.ok(body.includes('<QuotedPhraseNotFound>') && !body.includes('ErrorList'));
  const { outcome, stub } = await ask([{ path: '/esearch.fcgi', query: { term: '("qwerty asdfg")' }, body }], { query: '', keywords: ['qwerty asdfg'] });
  done(stub);
  assert.is(outcome.zeroReason, 'answered_empty');
  assert.is(outcome.message, 'PubMed found nothing for this query. PubMed said: quoted phrase not found: "qwerty asdfg"[All Fields].');
  // Only an OutputMessage: that is what PubMed said.
  const bare = fixture('pubmed/esearch-empty-abcXYZ.xml').toString('utf8').replace('<ErrorList><PhraseNotFound>abcXYZ</PhraseNotFound></ErrorList>', '');
  const plain = await ask([{ path: '/esearch.fcgi', body: bare }], { query: 'abcXYZ' });
  assert.is(plain.outcome.message, 'PubMed found nothing for this query. PubMed said: No items found.');
});

test('a malformed efetch answer is parse_failure; an HTML page instead of esearch XML too', async () => {
  const truncated = await ask(
    [
      { path: '/esearch.fcgi', body: esearch() },
      { path: '/efetch.fcgi', body: efetchTwo().subarray(0, 4000) },
    ],
    {},
  );
  assert.is(truncated.outcome.zeroReason, 'parse_failure');
  const html = await ask([{ path: '/esearch.fcgi', body: '<html><body><h1>Service unavailable</h1></body></html>' }], {});
  assert.is(html.outcome.zeroReason, 'parse_failure');
});

test('an esearch ERROR is upstream_failure with the message', async () => {
  const body = '<?xml version="1.0" encoding="UTF-8" ?><eSearchResult><ERROR>Invalid query</ERROR></eSearchResult>';
  const { outcome } = await ask([{ path: '/esearch.fcgi', body }], {});
  assert.is(outcome.zeroReason, 'upstream_failure');
  assert.match(outcome.message!, /Invalid query/);
});

// A Bookshelf chapter written for this test after the PubMed DTD (pubmed_250101): BookDocument
// with its own PMID, Book (publisher, title, date) and ArticleTitle.
const bookRecord = `<PubmedBookArticle><BookDocument><PMID Version="1">32809474</PMID>
<ArticleIdList><ArticleId IdType="bookaccession">NBK560639</ArticleId></ArticleIdList>
<Book><Publisher><PublisherName>StatPearls Publishing</PublisherName><PublisherLocation>Treasure Island (FL)</PublisherLocation></Publisher>
<BookTitle book="statpearls">StatPearls</BookTitle><PubDate><Year>2024</Year><Month>01</Month></PubDate></Book>
<ArticleTitle book="statpearls" part="article-28396">Minimal Change Disease</ArticleTitle>
<AuthorList Type="authors"><Author><LastName>Zamora</LastName><ForeName>Gerald</ForeName><Initials>G</Initials></Author></AuthorList>
</BookDocument><PubmedBookData><History><PubMedPubDate PubStatus="pubmed"><Year>2020</Year><Month>8</Month><Day>19</Day></PubMedPubDate></History><PublicationStatus>ppublish</PublicationStatus>
<ArticleIdList><ArticleId IdType="pubmed">32809474</ArticleId></ArticleIdList></PubmedBookData></PubmedBookArticle>`;

test('a book among articles keeps its place in the esearch order (PubMed\'s ranking), not after the articles', async () => {
  // The recorded esearch answer with its ids replaced by these three, in this order; the recorded
  // efetch answer (two articles) with the book added after them, as the parser groups them.
  const search = esearch()
    .toString('utf8')
    .replace('<Count>63</Count><RetMax>20</RetMax>', '<Count>3</Count><RetMax>3</RetMax>')
    .replace(/<IdList>[\s\S]*<\/IdList>/, '<IdList><Id>11748933</Id><Id>32809474</Id><Id>11700088</Id></IdList>');
  const body = efetchTwo().toString('utf8').replace('</PubmedArticleSet>', `${bookRecord}</PubmedArticleSet>`);
  const { outcome, stub } = await ask(
    [
      { path: '/esearch.fcgi', body: search, headers: xml },
      { path: '/efetch.fcgi', query: { id: '11748933,32809474,11700088' }, body, headers: xml },
    ],
    { maxResults: 3 },
  );
  done(stub);
  assert.equal(outcome.records.map((r) => r.nativeId), ['11748933', '32809474', '11700088']);
  const book = outcome.records[1]!;
  assert.is(book.title, 'Minimal Change Disease');
  assert.is(book.type, 'book-chapter');
  assert.is(book.venue, 'StatPearls');
});

test('an ORCID in the plain 16-character form of the PubMed DTD example is kept, hyphenated; the URL form too', async () => {
  // The recorded efetch answer with Identifier elements added to two authors, in the forms PubMed
  // uses: the DTD's own example value (no hyphens) and an orcid.org URL without hyphens.
  const body = efetchTwo()
    .toString('utf8')
    .replace('<Initials>AR</Initials>', '<Initials>AR</Initials><Identifier Source="ORCID">0000000179841889</Identifier>')
    .replace('<Initials>F</Initials>', '<Initials>F</Initials><Identifier Source="ORCID">http://orcid.org/0000000218250097</Identifier>')
    .replace('<Initials>L</Initials>', '<Initials>L</Initials><Identifier Source="ORCID">0000000212345678</Identifier>');
  const { outcome, stub } = await ask(
    [
      { path: '/esearch.fcgi', query: { db: 'pubmed', retmax: '2' }, body: esearch(), headers: xml },
      { path: '/efetch.fcgi', query: { id: ESEARCH_IDS }, body, headers: xml },
    ],
    { maxResults: 2 },
  );
  done(stub);
  const authors = outcome.records[0]!.authors;
  assert.is(authors[0]!.orcid, '0000-0001-7984-1889');
  assert.is(authors[1]!.orcid, '0000-0002-1825-0097');
  assert.is(authors[2]!.orcid, undefined); // 16 digits whose check character is wrong: not an iD
});

test('the esearch term and its sort are built once per search, not again for every page', async () => {
  const urls: string[] = [];
  const ids = ['11748933', '11700088'];
  const http = {
    traces: [],
    parse: parseHere,
    async get(url: string) {
      urls.push(url);
      if (url.includes('/esearch.fcgi')) return { text: `<eSearchResult><Count>4</Count><IdList>${ids.map((id) => `<Id>${id}</Id>`).join('')}</IdList></eSearchResult>` };
      return { text: fixture('pubmed/efetch-pubmed-11748933-11700088.xml').toString('utf8') };
    },
  } as unknown as SourceHttp;
  let reads = 0;
  const req = {
    query: 'biopython',
    get keywords() {
      reads++;
      return ['parsing'];
    },
    maxResults: 200,
    baseUrl: 'http://eutils.invalid',
    signal: signal(),
  } as SearchRequest;
  const first = await pubmed.fetchPage(req, undefined, http);
  assert.is(first.next, '2');
  await pubmed.fetchPage(req, first.next, http);
  const searches = urls.filter((u) => u.includes('/esearch.fcgi')).map((u) => new URL(u).searchParams);
  assert.equal(searches.map((p) => [p.get('term'), p.get('sort'), p.get('retstart')]), [['(biopython parsing)', 'relevance', '0'], ['(biopython parsing)', 'relevance', '2']]);
  assert.is(reads, 1);
});

test.run();
