/**
 * Conformance audit of analytics and the watchdog against the contract: the
 * overview's headline agrees with the views it summarizes, a mute acknowledges
 * one finding (not every later one with the same key), and the assistant's
 * get_analytics offers only windows the routes accept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseWindow } from '../src/analytics/window.js';
import { getAnalytics } from '../src/mcp/tools/analytics.js';
import { ROOT, startTestServer, waitFor, type TestServer } from './_setup.js';
import { PRODUCERS } from '../src/watchdog/service.js';
import { routineBody } from './_scheduler.js';
import { addRun, daysAgo, record, store } from './_history.js';

let t: TestServer;
let spread: number;

test.before(async () => {
  t = await startTestServer();
  // Newest first: three completed runs with nothing new, five failed runs, then a history of three finding 5 new each.
  spread = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'quiet behind failures' }) })).json().id;
  const runs: [string, number][] = [
    ...Array.from({ length: 3 }, () => ['completed', 5] as [string, number]),
    ...Array.from({ length: 5 }, () => ['failed', 0] as [string, number]),
    ...Array.from({ length: 3 }, () => ['completed', 0] as [string, number]),
  ];
  runs.forEach(([status, newCount], i) => addRun(t.ctx, { routineId: spread, status: status as 'completed' | 'failed', startedAt: daysAgo(30 - i), resultCount: 6, newCount }));
});
test.after(() => t.close());

const get = async (path: string) => {
  const r = await t.request('GET', path);
  assert.is(r.status, 200, `${path}: ${r.text}`);
  return r.json();
};

test('lifecycle limits at their bounds: check limit 1 and 5000 accepted (default 1000), for-documents takes exactly 500 ids', async () => {
  // The corpus is still empty here, so a check asks no source.
  for (const [body, limit] of [[{ limit: 1 }, 1], [{ limit: 5000, run_until_done: true }, 5000], [{}, 1000]] as const) {
    const r = await t.request('POST', '/api/lifecycle/check', { body });
    assert.is(r.status, 202, `${JSON.stringify(body)}: ${r.text}`);
    assert.is(r.json().limit, limit);
    await waitFor(async () => (await get('/api/lifecycle')).check.running === false, 5000, 'the check to end');
  }
  for (const body of [{ limit: 0 }, { limit: 5001 }, { limit: null }, { limit: '10' }, { run_until_done: 1 }]) {
    assert.is((await t.request('POST', '/api/lifecycle/check', { body })).status, 422, JSON.stringify(body));
  }
  const ids = (n: number) => Array.from({ length: n }, (_, i) => 900_000 + i);
  const five = await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: ids(500) } });
  assert.is(five.status, 200, five.text);
  assert.is(five.json().unknown_ids.length, 500);
  const over = await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids: ids(501) } });
  assert.equal([over.status, over.json().detail[0].loc], [422, ['body', 'document_ids']]);
  for (const document_ids of [[0], [1.5], ['1'], null]) {
    assert.is((await t.request('POST', '/api/lifecycle/for-documents', { body: { document_ids } })).status, 422, JSON.stringify(document_ids));
  }
});

test('overview: its quiet routines are the ones routine-health (default runs) flags quiet', async () => {
  const health = await get('/api/analytics/routine-health');
  const flagged = health.routines.filter((r: any) => r.quiet === true).map((r: any) => r.routine_id);
  assert.equal(flagged, [spread], 'routine-health judges it over its last 20 settled runs');
  const overview = await get('/api/analytics/overview');
  assert.equal(overview.routines.quiet.map((r: any) => r.routine_id), flagged, 'the headline is computed the same way as the view');
});

test('a mute acknowledges one finding: once it clears, the same key returning alarms again', async () => {
  const [doc] = store(t.ctx, [record({ source: 'crossref', nativeId: '10.1/a', doi: '10.1/a', title: 'A paper' })]);
  for (const n of [9, 8, 7]) addRun(t.ctx, { startedAt: daysAgo(n), sources: { crossref: { zeroReason: 'upstream_failure' } } });
  const key = 'source_failing:crossref';
  const findings = async () => (await get('/api/watchdog?include_muted=true')).findings.filter((f: any) => f.key === key);
  assert.is((await findings()).length, 1);
  assert.is((await t.request('POST', '/api/watchdog/mute', { body: { key, note: 'outage, known' } })).status, 200);
  assert.equal((await findings()).map((f: any) => f.muted), [true]);
  // The source recovers: several answered runs, the finding clears.
  for (const n of [6, 5, 4, 3.5]) addRun(t.ctx, { startedAt: daysAgo(n), sources: { crossref: { docs: [doc!] } } });
  assert.equal(await findings(), []);
  // Later it breaks again: a new finding, not the acknowledged outage.
  for (const n of [3, 2, 1]) addRun(t.ctx, { startedAt: daysAgo(n), sources: { crossref: { zeroReason: 'parse_failure' } } });
  const again = await findings();
  assert.equal(again.map((f: any) => f.muted), [false]);
  const w = await get('/api/watchdog');
  assert.ok(w.findings.some((f: any) => f.key === key), 'it is back in the list and the alarm total');
  assert.is((await t.request('POST', '/api/watchdog/unmute', { body: { key } })).status, 404, 'the old mute is gone');
});

test('get_analytics: every window its description offers is one the analytics routes accept', () => {
  const description = String(getAnalytics.args.window!.description);
  const examples = description.match(/\b(?:\d+[a-z]?|all)\b/g) ?? [];
  assert.ok(examples.length >= 2, description);
  for (const example of examples) assert.not.throws(() => parseWindow(example, new Date()), `${example} (from "${description}")`);
});

test('svc-analytics(1) describes every watchdog check as one that judges (broken or unusual)', () => {
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc-analytics.1'), 'utf8').replace(/\\-/g, '-');
  for (const { check } of PRODUCERS) {
    const entry = page.split(/\n\.TP\n/).find((part) => part.startsWith(`.B ${check}`));
    assert.ok(entry, `${check} has an entry`);
    assert.match(entry!, /broken|unusual/, `${check}: what makes it speak`);
    assert.not.match(entry!, /not judged in this version/, `${check} judges`);
  }
});

test.run();
