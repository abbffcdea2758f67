import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { startCheck } from '../src/lifecycle/check.js';
import { bareRecord } from './_corpus.js';
import { fixture, waitFor, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { serverWithSources } from './_executions.js';
import { startStub, type Stub } from './_stub.js';

let crossref: Stub;
let arxiv: Stub;
let t: TestServer;
const ids: Record<string, number> = {};


test.before(async () => {
  crossref = await startStub([
    { path: '/works/10.1371/journal.pone.0033693', body: fixture('crossref/work-10.1371_journal.pone.0033693-updated-by-correction.json'), times: Infinity },
    { path: '/works/10.3389/fgene.2017.00147', body: fixture('crossref/work-10.3389_fgene.2017.00147-relation-has-preprint.json'), times: Infinity },
    { path: '/works/10.1101/171108', status: 404, body: 'Resource not found.', times: Infinity },
  ]);
  arxiv = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), headers: { 'content-type': 'application/atom+xml' }, times: Infinity }]);
  t = await serverWithSources({ crossref: crossref.url, arxiv: arxiv.url });
  const stored = mergeRecords(
    t.ctx.db,
    [
      bareRecord({ source: 'crossref', nativeId: '10.1371/journal.pone.0033693', doi: '10.1371/journal.pone.0033693', title: 'Corrected article', type: 'article', publicationDate: '2012-03-01' }),
      bareRecord({ source: 'crossref', nativeId: '10.3389/fgene.2017.00147', doi: '10.3389/fgene.2017.00147', title: 'Published genetics paper', type: 'article' }),
      bareRecord({ source: 'biorxiv', nativeId: '10.1101/171108', doi: '10.1101/171108', title: 'Its preprint, held apart', type: 'preprint' }),
      bareRecord({ source: 'arxiv', nativeId: '2204.08348', ids: { arxiv: '2204.08348', arxiv_version: 'v1' }, title: 'Versioned preprint', type: 'preprint' }),
      bareRecord({ source: 'arxiv', nativeId: '1202.4527', ids: { arxiv: '1202.4527', arxiv_version: 'v1' }, title: 'Preprint with a journal reference', type: 'preprint' }),
      bareRecord({ source: 'arxiv', nativeId: '1812.11470', ids: { arxiv: '1812.11470', arxiv_version: 'v1' }, title: 'Unchanged preprint', type: 'preprint' }),
      bareRecord({ source: 'dblp', nativeId: 'conf/x/1', title: 'Nothing to ask about', ids: { dblp: 'conf/x/1' } }),
    ].map((record, rank) => ({ record, rank })),
    t.ctx.nowIso(),
  );
  ['corrected', 'published', 'preprint', 'versioned', 'journalref', 'unchanged', 'bare'].forEach((name, i) => (ids[name] = stored[i]!.documentId));
});
test.after(async () => {
  await t.close();
  await crossref.close();
  await arxiv.close();
});

async function checkToEnd(body: unknown): Promise<any> {
  const started = await t.request('POST', '/api/lifecycle/check', { body });
  assert.is(started.status, 202, started.text);
  const runId = started.json().run_id;
  return waitFor(async () => {
    const last = (await t.request('GET', '/api/lifecycle')).json().check.last;
    return last.run_id === runId && last.status !== 'running' ? last : undefined;
  }, 10_000, 'the check to end');
}

test('before any check: coverage says nothing was checked and there are no events', async () => {
  const human = await runCliInProcess(['lifecycle'], { env: t.dirs.env });
  assert.match(human.stdout, /^None of the 7 papers has been checked yet; `svc lifecycle check` asks the sources\.$/m);
  const answer = (await t.request('GET', '/api/lifecycle')).json();
  assert.equal([answer.events_total, answer.coverage.documents_total, answer.coverage.checked, answer.coverage.never_checked], [0, 7, 0, 7]);
  assert.is(answer.check.running, false);
  assert.ok(answer.method.includes('Crossref'));
});

test('check against recorded Crossref and arXiv answers: correction, preprint published, arXiv version and journal reference', async () => {
  const run = await checkToEnd({ limit: 10 });
  assert.equal([run.status, run.checked, run.failed], ['completed', 7, 0]);
  const one = async (name: string) => (await t.request('GET', `/api/documents/${ids[name]}/lifecycle`)).json();

  const corrected = await one('corrected');
  assert.equal(corrected.events.map((e: any) => [e.kind, e.source, e.notice_url, e.event_date]), [
    ['version_change', 'crossref', 'https://doi.org/10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda', '2012-05-08'],
  ]);
  assert.is(corrected.last_attempt.outcome, 'checked');
  assert.ok(corrected.last_attempt.asked.some((a: any) => a.source === 'openalex' && a.outcome === 'skipped' && /missing_key/.test(a.reason)), 'OpenAlex without its key is named, not asked');

  assert.equal((await one('published')).events, [], 'the published version itself has no event');
  const preprint = await one('preprint');
  assert.equal(preprint.events.map((e: any) => [e.kind, e.notice_url, e.detail.published_document_id]), [['preprint_to_published', 'https://doi.org/10.3389/fgene.2017.00147', ids.published]]);

  const versioned = (await one('versioned')).events.map((e: any) => [e.kind, e.notice_url]).sort();
  assert.equal(versioned, [
    ['preprint_to_published', 'https://doi.org/10.1145/3533767.3534401'],
    ['version_change', 'https://arxiv.org/abs/2204.08348v3'],
  ]);
  const journal = (await one('journalref')).events;
  assert.equal(journal.map((e: any) => [e.kind, e.notice_url]), [['preprint_to_published', 'https://arxiv.org/abs/1202.4527']]);
  assert.match(journal[0].label, /Journal reference: International Journal of Software Engineering/);
  assert.equal((await one('unchanged')).events, []);
  const bare = await one('bare');
  assert.equal([bare.askable, bare.last_attempt.outcome, bare.events.length], [false, 'nothing_to_ask', 0]);

  const overview = (await t.request('GET', '/api/lifecycle')).json();
  assert.equal(overview.by_kind, { retraction: 0, preprint_to_published: 3, version_change: 2 });
  assert.is(overview.events_total, 5);
  assert.equal([overview.coverage.checked, overview.coverage.never_checked, overview.coverage.nothing_to_ask], [7, 0, 1]);
  const page = (await t.request('GET', '/api/lifecycle?kind=version_change&limit=1')).json();
  assert.equal([page.events.length, page.events_total, page.next_offset], [1, 2, 1]);
  assert.equal(arxiv.requests.length, 1, 'arXiv asked once for the whole slice (id_list)');
  assert.equal(arxiv.requests[0]!.query.get('id_list')!.split(',').sort(), ['1202.4527', '1812.11470', '2204.08348']);
  crossref.assertDone();
});

test('svc lifecycle show: a source skipped for want of its key reads as skipped, with the command that stores the key, not as an error; the JSON is unchanged', async () => {
  const show = await runCliInProcess(['lifecycle', 'show', String(ids.corrected)], { env: t.dirs.env });
  assert.is(show.code, 0, show.stderr);
  assert.match(show.stdout, /^Last checked: \d{4}-\d\d-\d\d \d\d:\d\d \(last attempt \d{4}-\d\d-\d\d \d\d:\d\d: checked\)$/m);
  assert.match(show.stdout, /^Skipped openalex: openalex_api_key was not stored; `svc credentials set openalex_api_key` stores it for the next check\.$/m);
  assert.not.match(show.stdout, /missing_key/);
  const answer = JSON.parse((await runCliInProcess(['--json', 'lifecycle', 'show', String(ids.corrected)], { env: t.dirs.env })).stdout);
  assert.equal(Object.keys(answer.last_attempt), ['at_utc', 'run_id', 'outcome', 'asked', 'error']);
  assert.equal(answer.last_attempt.asked.find((a: any) => a.source === 'openalex'), { source: 'openalex', outcome: 'skipped', reason: 'missing_key: openalex_api_key is not stored' });
});

test('svc lifecycle pages the events: --limit and --offset, and says how to see the next ones (the page size kept)', async () => {
  const first = await runCliInProcess(['lifecycle', '--limit', '2'], { env: t.dirs.env });
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /^7 of 7 papers checked/m);
  assert.match(first.stdout, /Events 1 to 2 of 5 shown, newest first; `svc lifecycle --limit 2 --offset 2` shows the next ones\./);
  const last = await runCliInProcess(['--json', 'lifecycle', 'status', '--limit', '2', '--offset', '4'], { env: t.dirs.env });
  assert.equal([JSON.parse(last.stdout).events.length, JSON.parse(last.stdout).next_offset], [1, null]);
  assert.not.match((await runCliInProcess(['lifecycle', '--offset', '4'], { env: t.dirs.env })).stdout, /shows the next ones/);
  assert.is((await runCliInProcess(['lifecycle', '--limit', '501'], { env: t.dirs.env })).code, 2);
});

test('a second check records no event twice', async () => {
  const run = await checkToEnd(null);
  assert.equal([run.status, run.events, run.limit, run.run_until_done], ['completed', 0, 1000, false]);
  assert.is((await t.request('GET', '/api/lifecycle')).json().events_total, 5);
});

test('limit bounds the check; least recently checked papers go first', async () => {
  const run = await checkToEnd({ limit: 2 });
  assert.equal([run.checked, run.slices], [2, 1]);
  const checked = await Promise.all(Object.values(ids).map(async (id) => (await t.request('GET', `/api/documents/${id}/lifecycle`)).json().last_attempt.run_id));
  assert.is(checked.filter((r) => r === run.run_id).length, 2);
});

test('refusals: limit bounds, body types, unknown document, more than 500 ids', async () => {
  for (const body of [{ limit: 0 }, { limit: 5001 }, { limit: 1.5 }, { run_until_done: 'yes' }]) {
    const r = await t.request('POST', '/api/lifecycle/check', { body });
    assert.is(r.status, 422, JSON.stringify(body));
    assert.ok(Array.isArray(r.json().detail));
  }
  assert.is((await t.request('GET', '/api/documents/999999/lifecycle')).status, 404);
  assert.is((await t.request('GET', '/api/documents/abc/lifecycle')).status, 422);
  const tooMany = await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: Array.from({ length: 501 }, (_, i) => i + 1) } });
  assert.is(tooMany.status, 422);
  const page = (await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: [ids.versioned, 999999, ids.bare, ids.versioned] } })).json();
  assert.equal(page.unknown_ids, [999999]);
  assert.equal(page.documents.map((d: any) => [d.document_id, d.kinds.sort()]), [
    [ids.versioned, ['preprint_to_published', 'version_change']],
    [ids.bare, []],
  ]);
  assert.equal((await t.request('POST', '/api/lifecycle/for-documents', { body: {} })).json(), { documents: [], unknown_ids: [] });
});

test('stop: honoured after the slice in flight; a second check while one runs is a conflict; nothing running says so', async () => {
  const slow = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), delayMs: 300, times: Infinity }]);
  t.ctx.config.sourceUrls.arxiv = slow.url;
  try {
    // One paper per slice, so the stop lands between slices (the HTTP door always uses the default slice).
    const { run: started, done } = startCheck(t.ctx, { limit: 5000, runUntilDone: true, sliceSize: 1 });
    const again = await t.request('POST', '/api/lifecycle/check', { body: {} });
    assert.is(again.status, 409);
    assert.is(again.json().detail.reason, 'lifecycle_check_running');
    const stop = (await t.request('POST', '/api/lifecycle/stop')).json();
    assert.equal([stop.stop_requested, stop.run_id], [true, started.id]);
    const ended = await done;
    const last = (await t.request('GET', '/api/lifecycle')).json().check.last;
    assert.equal([last.run_id, last.status, ended.status], [started.id, 'stopped', 'stopped']);
    assert.ok(last.checked >= 1 && last.checked < 7, `stopped after the slice in flight (checked ${last.checked})`);
    assert.equal((await t.request('POST', '/api/lifecycle/stop')).json().stop_requested, false);
  } finally {
    t.ctx.config.sourceUrls.arxiv = arxiv.url;
    await slow.close();
  }
});

test('a failing source: the paper is marked failed, keeps its last successful check time (its place in line), and the failure is named', async () => {
  const failing = await startStub([
    { path: '/works/10.1371/journal.pone.0033693', status: 500, body: fixture('crossref/error-500-works-cursor-5.json'), times: Infinity },
    { path: '/works/10.3389/fgene.2017.00147', body: fixture('crossref/work-10.3389_fgene.2017.00147-relation-has-preprint.json'), times: Infinity },
    { path: '/works/10.1101/171108', status: 404, body: 'Resource not found.', times: Infinity },
  ]);
  const saved = t.ctx.config.sourceUrls.crossref;
  const before = (await t.request('GET', `/api/documents/${ids.corrected}/lifecycle`)).json();
  t.ctx.config.sourceUrls.crossref = failing.url;
  try {
    const run = await checkToEnd({ limit: 10 });
    assert.equal([run.checked, run.failed], [6, 1]);
    const doc = (await t.request('GET', `/api/documents/${ids.corrected}/lifecycle`)).json();
    assert.is(doc.last_attempt.outcome, 'failed');
    assert.match(doc.last_attempt.error, /crossref: upstream_failure: HTTP 500/);
    // The failure follows the outcome; the source skipped for its key is on its own line, not among the failures.
    const show = await runCliInProcess(['lifecycle', 'show', String(ids.corrected)], { env: t.dirs.env });
    assert.match(show.stdout, /: failed — crossref: upstream_failure: HTTP 500[^\n]*\)\n/);
    assert.not.match(show.stdout, /failed — [^\n]*openalex/);
    assert.match(show.stdout, /^Skipped openalex: /m);
    assert.is(doc.checked_at_utc, before.checked_at_utc);
    assert.is(doc.events.length, 1, 'events found earlier are kept');
    assert.is((await t.request('GET', '/api/lifecycle')).json().coverage.failed_last_attempt, 1);
  } finally {
    t.ctx.config.sourceUrls.crossref = saved!;
    await failing.close();
  }
});

test.run();
