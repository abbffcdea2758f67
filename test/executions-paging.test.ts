/**
 * A run asks a source's next page while it stores the page before (merge,
 * events), and what it records stays as it was when it asked only after
 * storing: the pages asked, a failure of the next page, a cancel while the
 * next page is on the wire.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, waitFor, type TestServer } from './_setup.js';
import { startStub, type Expectation, type Stub } from './_stub.js';
import { dive, finished, serverWithSources } from './_executions.js';

const CANCER = JSON.parse(fixture('europepmc/search-cancer-lite.json').toString('utf8'));
const PER_PAGE = CANCER.resultList.result.length as number;

/** Europe PMC page n (other works on every page and in every test), pointing at page n + 1 unless it is the last. */
let works = 0;
function page(n: number, last: boolean): string {
  const w = ++works;
  const result = CANCER.resultList.result.map((r: any) => ({ ...r, id: `${r.id}-${w}`, pmid: undefined, pmcid: undefined, doi: r.doi ? `${r.doi}.w${w}` : undefined, title: `${r.title} (works ${w})` }));
  return JSON.stringify({ ...CANCER, resultList: { result }, nextCursorMark: last ? `c${n}` : `c${n + 1}` });
}

const cursor = (n: number) => (n === 0 ? '*' : `c${n}`);
const pageAt = (n: number, last: boolean, extra: Partial<Expectation> = {}): Expectation => ({ path: '/search', query: { cursorMark: cursor(n) }, body: page(n, last), ...extra });

let stub: Stub;
let t: TestServer;

test.before(async () => {
  stub = await startStub();
  t = await serverWithSources({ europepmc: stub.url });
});
test.after(async () => {
  await t.close();
  await stub.close();
});

const count = (sql: string, ...args: unknown[]) => t.ctx.db.prepare(sql).pluck().get(...args) as number;

test('the next page is asked before the page before it is stored: its request goes out before its records and its event are written', async () => {
  for (const [n, last] of [[0, false], [1, false], [2, true]] as const) stub.expect(pageAt(n, last));
  const asked: { cursor: string; pagesStored: number }[] = [];
  const real = t.ctx.fetch;
  t.ctx.fetch = (input, init) => {
    const url = new URL(String(input));
    asked.push({ cursor: url.searchParams.get('cursorMark')!, pagesStored: count(`SELECT count(*) FROM execution_events WHERE kind = 'source_page'`) });
    return real(input, init);
  };
  try {
    const id = await dive(t, { repository: 'europepmc', query: 'cancer', max_results: 3 * PER_PAGE });
    const detail = await finished(t, id);
    assert.is(detail.status, 'completed');
    assert.is(detail.result_count, 3 * PER_PAGE);
    assert.is(detail.sources[0].pages, 3);
  } finally {
    t.ctx.fetch = real;
  }
  stub.assertDone();
  assert.equal(asked, [
    { cursor: '*', pagesStored: 0 },
    { cursor: 'c1', pagesStored: 0 },
    { cursor: 'c2', pagesStored: 1 },
  ]);
});

test('a long run indexes its papers for full-text search batch by batch while it pages, not all at the end', async () => {
  const pages = 12; // the run stores 250 records at a time: after page 10, again at the end
  for (let n = 0; n < pages; n++) stub.expect(pageAt(n, n === pages - 1));
  // Papers the full-text index holds (a MATCH: the table's own count reads the documents); every title here says "works".
  const searchable = () => count(`SELECT count(*) FROM documents_fts WHERE documents_fts MATCH 'works'`);
  const before = searchable();
  const indexed: number[] = [];
  const real = t.ctx.fetch;
  t.ctx.fetch = (input, init) => (indexed.push(searchable() - before), real(input, init));
  try {
    const detail = await finished(t, await dive(t, { repository: 'europepmc', query: 'cancer', max_results: pages * PER_PAGE }));
    assert.is(detail.result_count, pages * PER_PAGE);
  } finally {
    t.ctx.fetch = real;
  }
  stub.assertDone();
  // The request for the last page goes out after page 10's batch was stored: that batch is indexed by then.
  assert.is(indexed.length, pages);
  assert.is(indexed[pages - 1], 250);
  assert.equal(indexed.slice(0, pages - 1), Array(pages - 1).fill(0));
  assert.is(searchable() - before, pages * PER_PAGE);
});

test('a failure of the page asked ahead is recorded as before: the page before it is stored, the source answered with a partial failure', async () => {
  stub.expect(pageAt(0, false));
  stub.expect({ path: '/search', query: { cursorMark: 'c1' }, status: 404, body: '{"error":"gone"}' });
  const id = await dive(t, { repository: 'europepmc', query: 'cancer', max_results: 3 * PER_PAGE });
  const detail = await finished(t, id);
  stub.assertDone();
  assert.is(detail.status, 'completed');
  assert.is(detail.result_count, PER_PAGE);
  const source = detail.sources[0];
  assert.is(source.status, 'answered');
  assert.is(source.pages, 1);
  assert.is(source.zero_reason, null);
  assert.match(source.message, /^Stopped after page 1: Europe PMC: HTTP 404/);
  const record = (await t.request('GET', `/api/executions/${id}/search-record`)).json();
  assert.is(record.sources[0].partial_failure.http_status, 404);
  assert.equal(record.sources[0].http.map((h: any) => h.status), [200, 404]);
  assert.is(count(`SELECT count(*) FROM execution_events WHERE execution_id = ? AND kind = 'source_page'`, id), 1);
});

test('cancel while the page asked ahead is on the wire: cancelled, the pages stored are kept, the next one is not, as before', async () => {
  stub.expect(pageAt(0, false));
  stub.expect(pageAt(1, false, { delayMs: 3000 }));
  const seen = stub.requests.length;
  const id = await dive(t, { repository: 'europepmc', query: 'cancer', max_results: 3 * PER_PAGE });
  await waitFor(() => (count(`SELECT count(*) FROM execution_events WHERE execution_id = ? AND kind = 'source_page'`, id) === 1 ? true : undefined), 5000, 'page 1 stored');
  await waitFor(() => (stub.requests.slice(seen).some((r) => r.query.get('cursorMark') === 'c1') ? true : undefined), 5000, 'page 2 asked');
  assert.is((await t.request('POST', `/api/executions/${id}/cancel`)).status, 200);
  const detail = await finished(t, id);
  assert.is(detail.status, 'cancelled');
  assert.is(detail.result_count, PER_PAGE);
  const source = detail.sources[0];
  assert.is(source.status, 'cancelled');
  assert.is(source.record_count, PER_PAGE);
  assert.is(source.pages, 1);
  assert.is(source.zero_reason, null);
  const record = (await t.request('GET', `/api/executions/${id}/search-record`)).json();
  assert.equal(record.sources[0].http.map((h: any) => h.status), [200, null], 'the page on the wire was abandoned, nothing after it asked');
  assert.is(count(`SELECT count(*) FROM execution_documents WHERE execution_id = ?`, id), PER_PAGE);
  const log = (await t.request('GET', `/api/executions/${id}/log`)).json().text as string;
  assert.match(log, /page 1, 25 kept of 25/);
  assert.not.match(log, /page 2/);
  assert.match(log, /cancelled: 25 documents/);
  const report = (await t.request('GET', `/api/executions/${id}/report`)).json().text as string;
  assert.match(report, /Status: +cancelled/);
});

test.run();
