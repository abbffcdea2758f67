import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';
import { makeRecord, seed } from './_corpus.js';

let crossref: Stub;
let t: TestServer;
let exec: number;

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  t = await serverWithSources({ crossref: crossref.url });
  exec = await dive(t, { repository: 'crossref', query: 'communicating ecology', keywords: ['science outreach'], max_results: 2 });
  await finished(t, exec);
});
test.after(async () => {
  await t.close();
  await crossref.close();
});

const docByDoi = (doi: string) => t.ctx.db.prepare('SELECT id FROM documents WHERE doi = ?').pluck().get(doi) as number;

test('why: the run, the source, the rank, and which words matched in which field', async () => {
  const id = docByDoi('10.1093/obo/9780199830060-0238');
  const r = await t.request('GET', `/api/documents/${id}/why`);
  assert.is(r.status, 200, r.text);
  const why = r.json();
  assert.is(why.document_id, id);
  assert.is(why.found_by[0].source, 'crossref');
  assert.is(why.found_by[0].linked_to_stored_run, true);
  const run = why.executions[0];
  assert.is(run.execution_id, exec);
  assert.is(run.source, 'crossref');
  assert.is(run.query, 'communicating ecology');
  assert.is(run.relevance_ranked, true);
  const term = (name: string) => run.terms.find((x: any) => x.term === name);
  assert.ok(term('communicating').fields.includes('title'));
  assert.ok(term('ecology').fields.includes('title'));
  assert.ok(term('ecology').fields.includes('venue'));
  assert.equal(term('science outreach').kind, 'keyword');
  assert.is(run.verdict, term('science outreach').fields.length ? 'all_terms_matched' : 'some_terms_matched');
  assert.ok(typeof why.method === 'string' && why.method.length > 50);
});

test('why: words the record lacks are listed unmatched and the gap is said to be unverifiable', async () => {
  // The stub answers every query the same, as a relevance-ranked source may: "zebrafish" is in neither record.
  const second = await dive(t, { repository: 'crossref', query: 'zebrafish', max_results: 2 });
  await finished(t, second);
  const id = docByDoi('10.1093/obo/9780199830060-0023');
  const why = (await t.request('GET', `/api/documents/${id}/why`)).json();
  assert.is(why.executions.length, 2);
  const run = why.executions.find((e: any) => e.execution_id === second);
  assert.equal(run.terms, [{ term: 'zebrafish', kind: 'query_word', fields: [] }]);
  assert.is(run.verdict, 'no_term_matched');
  assert.is(run.first_found_by_this_run, false);
  assert.ok(why.cannot_verify.some((s: string) => s.startsWith(`Execution ${second}:`) && /ranks by relevance/.test(s)));
});

test('why: provenance with no stored run, no abstract, unknown paper', async () => {
  const [id] = seed(t.ctx, [makeRecord(7, { source: 'openalex', nativeId: 'W7', abstract: undefined, title: 'Unrelated thing entirely' })]);
  const why = (await t.request('GET', `/api/documents/${id}/why`)).json();
  assert.equal(why.executions, []);
  assert.is(why.found_by[0].linked_to_stored_run, false);
  assert.ok(why.cannot_verify.some((s: string) => /no stored run links it/.test(s)));
  assert.ok(why.cannot_verify.some((s: string) => /No source gave an abstract/.test(s)));
  assert.is((await t.request('GET', '/api/documents/999999/why')).status, 404);
  assert.is((await t.request('GET', '/api/documents/0/why')).status, 422);
});

test('why: the paper comes in full for its page: abstract, authors with ORCID, every identifier with the page it opens', async () => {
  const [id] = seed(t.ctx, [
    makeRecord(9, {
      source: 'semanticscholar',
      nativeId: 'abc123',
      title: 'A paper with many identifiers',
      abstract: 'What the paper says.',
      authors: [{ name: 'Ada Lovelace', orcid: '0000-0002-1825-0097', affiliations: ['Analytical Society'] }],
      doi: '10.5555/many.ids',
      ids: { arxiv: '2204.08348', arxiv_version: 'v2', pmid: '28424752', pmcid: 'PMC5398311', s2: 'abc123', dblp: 'journals/corr/abs-2204-08348', springer: 'doi:10.5555/Many.IDs', odd_scheme: 'Z9' },
      pdfUrl: 'https://example.org/many.pdf',
      license: 'cc-by',
      openAccess: true,
    }),
  ]);
  const paper = (await t.request('GET', `/api/documents/${id}/why`)).json().paper;
  assert.is(paper.title, 'A paper with many identifiers');
  assert.is(paper.abstract, 'What the paper says.');
  assert.equal(paper.authors, ['Ada Lovelace'], 'the list view of the authors stays as explorer pages give it');
  assert.equal(paper.author_details, [{ name: 'Ada Lovelace', orcid: '0000-0002-1825-0097', affiliations: ['Analytical Society'] }]);
  assert.is(paper.date_precision, 'day');
  assert.equal([paper.pdf_url, paper.license, paper.open_access], ['https://example.org/many.pdf', 'cc-by', true]);
  assert.equal(
    paper.identifiers.map((i: any) => [i.scheme, i.value, i.url]),
    [
      ['doi', '10.5555/many.ids', 'https://doi.org/10.5555/many.ids'],
      ['arxiv', '2204.08348', 'https://arxiv.org/abs/2204.08348'],
      ['pmid', '28424752', 'https://pubmed.ncbi.nlm.nih.gov/28424752/'],
      ['pmcid', 'PMC5398311', 'https://pmc.ncbi.nlm.nih.gov/articles/PMC5398311/'],
      ['s2', 'abc123', 'https://www.semanticscholar.org/paper/abc123'],
      ['dblp', 'journals/corr/abs-2204-08348', 'https://dblp.org/rec/journals/corr/abs-2204-08348'],
      // A scheme svc has no address for is listed by its name, unlinked; a version and an id repeating the DOI are not identifiers.
      ['odd_scheme', 'Z9', null],
    ],
  );
  assert.equal(paper.identifiers[0].label, 'DOI');
});

test('why: instants inside the cannot-verify sentences read to the minute in UTC; the *_utc fields stay exact', async () => {
  const [id] = seed(t.ctx, [makeRecord(8, { source: 'openalex', nativeId: 'W8', title: 'Seen once, no run' })]);
  const orphan = (await t.request('GET', `/api/documents/${id}/why`)).json();
  const first = orphan.found_by[0].first_seen_at_utc as string;
  assert.match(first, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(orphan.cannot_verify.some((s: string) => s.includes(`(first seen ${first.slice(0, 10)} ${first.slice(11, 16)} UTC)`)), orphan.cannot_verify.join('\n'));
  // Found by two dives: the record shown is the one last seen.
  const dived = (await t.request('GET', `/api/documents/${docByDoi('10.1093/obo/9780199830060-0238')}/why`)).json();
  const lastSeen = dived.found_by[0].last_seen_at_utc as string;
  assert.ok(dived.cannot_verify.some((s: string) => s.includes(`the one last seen (${lastSeen.slice(0, 10)} ${lastSeen.slice(11, 16)} UTC)`)), dived.cannot_verify.join('\n'));
  for (const s of [...orphan.cannot_verify, ...dived.cannot_verify]) assert.not.match(s, /\d{4}-\d\d-\d\dT\d\d:/);
});

test.run();
