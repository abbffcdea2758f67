import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';
import { routineBody } from './_scheduler.js';
import { addRun, daysAgo, record, store } from './_history.js';

let t: TestServer;
let d: Record<string, number> = {};
let quietRoutine: number;
let youngRoutine: number;

test.before(async () => {
  t = await startTestServer();
  const ctx = t.ctx;
  const [coral, reef, graph, both, yearOnly, undated] = store(ctx, [
    record({ source: 'crossref', nativeId: '10.1/coral', doi: '10.1/coral', title: 'Coral bleaching in warm seas', publicationDate: '2024-01-15', datePrecision: 'day', categories: ['Ecology'] }),
    record({ source: 'arxiv', nativeId: '2401.00001', ids: { arxiv: '2401.00001' }, title: 'Reef fish and coral', publicationDate: '2024-01-20', datePrecision: 'day', categories: ['q-bio.PE'] }),
    record({ source: 'crossref', nativeId: '10.1/graph', doi: '10.1/graph', title: 'Graph networks', publicationDate: '2024-03-01', datePrecision: 'day', categories: ['Ecology', 'cs.LG'] }),
    record({ source: 'crossref', nativeId: '10.1/both', doi: '10.1/both', title: 'Found by both', publicationDate: '2024-03', datePrecision: 'month' }),
    record({ source: 'crossref', nativeId: '10.1/year', doi: '10.1/year', title: 'Dated to the year', publicationDate: '2023', datePrecision: 'year' }),
    record({ source: 'crossref', nativeId: '10.1/undated', doi: '10.1/undated', title: 'Undated' }),
  ]);
  store(ctx, [record({ source: 'arxiv', nativeId: '2403.00002', ids: { arxiv: '2403.00002' }, doi: '10.1/both', title: 'Found by both', publicationDate: '2024-03-02', datePrecision: 'day' })]);
  d = { coral: coral!, reef: reef!, graph: graph!, both: both!, yearOnly: yearOnly!, undated: undated! };
  // Discovery: coral seen 10 days after publication, reef 1 day after, graph 2 days before.
  const seen = (id: number, at: string) => {
    ctx.db.prepare('UPDATE documents SET first_seen_at_utc = ? WHERE id = ?').run(at, id);
    ctx.db.prepare('UPDATE document_sources SET first_seen_at_utc = ? WHERE document_id = ?').run(at, id);
  };
  seen(d.coral, '2024-01-25T08:00:00.000Z');
  seen(d.reef, '2024-01-21T23:00:00.000Z');
  seen(d.graph, '2024-02-28T00:00:00.000Z');
  seen(d.yearOnly, daysAgo(100));
  seen(d.both, '2024-03-05T12:00:00.000Z');

  addRun(ctx, { startedAt: daysAgo(2), keywords: ['Coral', 'reef'], sources: { crossref: { docs: [d.coral, d.graph, d.both], newDocs: [d.coral, d.graph, d.both] }, arxiv: { docs: [d.reef, d.both], newDocs: [d.reef] } } });
  addRun(ctx, { startedAt: daysAgo(1), sources: { crossref: { zeroReason: 'upstream_failure' }, arxiv: { docs: [d.reef] } } });
  addRun(ctx, { startedAt: daysAgo(60), sources: { crossref: { docs: [d.yearOnly], newDocs: [d.yearOnly] } } });

  quietRoutine = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'gone quiet' }) })).json().id;
  youngRoutine = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'young' }) })).json().id;
  [5, 4, 6, 0, 0, 0].forEach((n, i) => addRun(ctx, { routineId: quietRoutine, startedAt: daysAgo(50 - 2 * i), resultCount: 10, newCount: n }));
  [3, 0].forEach((n, i) => addRun(ctx, { routineId: youngRoutine, startedAt: daysAgo(10 - i), resultCount: 5, newCount: n }));
});
test.after(() => t.close());

const get = async (path: string) => {
  const r = await t.request('GET', path);
  assert.is(r.status, 200, `${path}: ${r.text}`);
  return r.json();
};

test('publication volume: per publication month, gaps filled, split by source or category, year-only and undated apart', async () => {
  const v = await get('/api/analytics/publication-volume');
  assert.equal(v.months.map((m: any) => [m.month, m.total]), [['2024-01', 2], ['2024-02', 0], ['2024-03', 2]]);
  assert.equal(v.months[2].by, { crossref: 2, arxiv: 1 }, 'a paper held by two sources counts under each');
  assert.equal(v.totals, { dated_papers: 4, year_only_papers: 1, undated_papers: 1, series_keys: 2 });
  const c = await get('/api/analytics/publication-volume?split=category');
  assert.equal(c.months[0].by, { Ecology: 1, 'q-bio.PE': 1 });
  assert.equal(c.months[2].by, { Ecology: 1, 'cs.LG': 1 });
  const top = await get('/api/analytics/publication-volume?split=category&top=1');
  assert.equal(top.series, [{ key: 'Ecology', total: 2 }, { key: 'other', total: 2, keys: 2 }]);
  assert.match(v.method, /publication month/);
});

test('the window: papers first seen and runs started in the last N days; true totals kept', async () => {
  const all = await get('/api/analytics/summary');
  const recent = await get('/api/analytics/summary?window=30d');
  assert.equal([all.corpus.documents_total, all.corpus.documents_in_window], [6, 6]);
  assert.equal([recent.corpus.documents_total, recent.corpus.documents_in_window], [6, 1], 'first seen in 2024 or 100 days ago: outside');
  assert.is(recent.window.days, 30);
  assert.ok(recent.window.from_utc < recent.window.to_utc);
  assert.is(all.executions.completed, 11);
  assert.is(recent.executions.completed, 4, 'the 60-day-old run and the quiet routine\'s first runs are outside 30 days');
  assert.equal(all.routines, { active: 2, inactive: 0 });
});

test('source contribution: delivered, first found, and found by nothing else; zero reasons of settled runs', async () => {
  const s = await get('/api/analytics/source-contribution');
  const by = Object.fromEntries(s.sources.map((x: any) => [x.source, x]));
  assert.equal([by.crossref.delivered, by.crossref.first_found, by.crossref.only_this_source], [4, 4, 3], 'both is also held by arXiv');
  assert.equal([by.arxiv.delivered, by.arxiv.first_found, by.arxiv.only_this_source], [2, 1, 1]);
  assert.equal(by.crossref.zero_reasons, { upstream_failure: 1 });
  assert.equal([by.crossref.runs_asked, by.crossref.runs_not_answered], [3, 1]);
  assert.is(s.totals.delivered, 5);
  const w = await get('/api/analytics/source-contribution?window=30');
  assert.is(Object.fromEntries(w.sources.map((x: any) => [x.source, x])).crossref.delivered, 3);
});

test('keyword contribution: papers only that keyword found; papers matching none are counted, not hidden', async () => {
  const k = await get('/api/analytics/keyword-contribution');
  const by = Object.fromEntries(k.keywords.map((x: any) => [x.keyword, x]));
  assert.equal(by.coral, { keyword: 'coral', runs: 1, papers_found: 4, papers_matching: 2, only_this_keyword: 1 });
  assert.equal(by.reef, { keyword: 'reef', runs: 1, papers_found: 4, papers_matching: 1, only_this_keyword: 0 });
  assert.equal([k.totals.runs_with_keywords, k.totals.papers, k.totals.papers_matching_no_keyword], [1, 4, 2]);
  const none = await get(`/api/analytics/keyword-contribution?routine_id=${quietRoutine}`);
  assert.equal(none.keywords, []);
});

test('routine health: new results per run and the quiet flag against the routine\'s own history', async () => {
  const h = await get('/api/analytics/routine-health');
  const by = Object.fromEntries(h.routines.map((r: any) => [r.routine_id, r]));
  assert.is(by[quietRoutine].quiet, true);
  assert.equal(by[quietRoutine].runs.map((r: any) => r.new_count), [0, 0, 0, 6, 4, 5], 'newest first');
  assert.equal(by[quietRoutine].new_per_run, { mean: 2.5, median: 2, last: 0 });
  assert.is(by[youngRoutine].quiet, null);
  assert.match(by[youngRoutine].quiet_reason, /needs 6 completed runs/);
  assert.equal([h.totals.quiet, h.totals.not_judged], [1, 1]);
  assert.is(h.thresholds.recent_runs, 3);
  const few = await get('/api/analytics/routine-health?runs=3');
  assert.is(Object.fromEntries(few.routines.map((r: any) => [r.routine_id, r]))[quietRoutine].quiet, null, 'three runs are too few to judge');
});

test('discovery lag: median days from publication to first seen, day-precision dates only', async () => {
  const l = await get('/api/analytics/discovery-lag');
  // Lags: graph -2, reef 1 (seen 23:00 UTC the next day), both 3, coral 10.
  assert.equal([l.overall.papers, l.overall.median_days, l.overall.p25_days, l.overall.seen_before_publication], [4, 2, 0.3, 1]);
  assert.equal(l.buckets.map((b: any) => b.papers), [1, 2, 1, 0, 0, 0]);
  assert.equal(l.excluded, { month_or_year: 1, undated: 1 });
  const by = Object.fromEntries(l.sources.map((s: any) => [s.source, s]));
  assert.equal([by.crossref.papers, by.crossref.median_days, by.arxiv.papers, by.arxiv.median_days], [3, 3, 2, 2]);
});

test('overview: the headline of each view', async () => {
  const o = await get('/api/analytics/overview');
  assert.is(o.corpus.documents_total, 6);
  assert.equal(o.routines.quiet, [{ routine_id: quietRoutine, name: 'gone quiet' }]);
  assert.is(o.discovery_lag.median_days, 2);
  assert.is(o.top_sources[0].source, 'crossref');
  assert.is(o.recent_months.length, 3);
});

test('refusals: window, split, top, runs, routine_id', async () => {
  for (const path of [
    '/api/analytics/summary?window=0',
    '/api/analytics/summary?window=3651',
    '/api/analytics/overview?window=week',
    '/api/analytics/publication-volume?split=journal',
    '/api/analytics/publication-volume?top=0',
    '/api/analytics/publication-volume?top=51',
    '/api/analytics/routine-health?runs=201',
    '/api/analytics/keyword-contribution?routine_id=0',
    '/api/analytics/discovery-lag?window=-5',
  ]) {
    const r = await t.request('GET', path);
    assert.is(r.status, 422, path);
    assert.ok(Array.isArray(r.json().detail), path);
  }
  const unknown = await t.request('GET', '/api/analytics/keyword-contribution?routine_id=987654');
  assert.equal([unknown.status, unknown.json().detail.reason], [404, 'routine_not_found']);
  assert.is((await t.request('GET', '/api/analytics/summary?window=all')).status, 200);
  assert.is((await t.request('GET', '/api/analytics/summary', { token: null })).status, 401);
});

test.run();
