import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { insertFire } from '../src/routines/jobs.js';
import { PRODUCERS } from '../src/watchdog/service.js';
import { startTestServer, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { routineBody } from './_scheduler.js';
import { addRun, daysAgo, record, store } from './_history.js';

let t: TestServer;
let quiet: number;
let keyed: number;
let missed: number;
let young: number;

test.before(async () => {
  t = await startTestServer();
  const ctx = t.ctx;
  const [doc] = store(ctx, [record({ source: 'arxiv', nativeId: '2401.1', ids: { arxiv: '2401.1' }, title: 'A paper' })]);
  // crossref: answered long ago, then three upstream failures in a row (newest last).
  addRun(ctx, { startedAt: daysAgo(20), sources: { crossref: { docs: [doc!] } } });
  for (const n of [3, 2, 1]) addRun(ctx, { startedAt: daysAgo(n), sources: { crossref: { zeroReason: 'upstream_failure' } } });
  // arxiv: alternating parse failures and answers, the newest answered: no streak, half failing.
  for (let i = 10; i >= 1; i--) addRun(ctx, { startedAt: daysAgo(i + 0.5), sources: { arxiv: i % 2 === 0 ? { zeroReason: 'parse_failure' } : { docs: [doc!] } } });
  // dblp: one run, too few to judge.
  addRun(ctx, { startedAt: daysAgo(1), sources: { dblp: { zeroReason: 'upstream_failure' } } });

  quiet = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'gone quiet' }) })).json().id;
  [5, 4, 6, 0, 0, 0].forEach((n, i) => addRun(ctx, { routineId: quiet, startedAt: daysAgo(40 - i), resultCount: 8, newCount: n }));
  young = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'young' }) })).json().id;
  keyed = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'needs openalex', parameters: { repositories: ['openalex', 'crossref'], query: 'x' } }) })).json().id;
  missed = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'missed one' }) })).json().id;
  insertFire(ctx.db, { routineId: missed, trigger: 'schedule', outcome: 'missed', firstDueAtUtc: '2025-01-01T06:00:00.000Z', dueAtUtc: '2025-01-02T06:00:00.000Z', fireCount: 2, reason: 'closed' }, ctx.nowIso());
  // An inactive routine is never judged.
  const inactive = (await t.request('POST', '/api/routines', { body: routineBody({ name: 'off', is_active: false, parameters: { repositories: ['scopus'], query: 'x' } }) })).json().id;
  insertFire(ctx.db, { routineId: inactive, trigger: 'schedule', outcome: 'missed', firstDueAtUtc: '2025-01-01T06:00:00.000Z', dueAtUtc: '2025-01-01T06:00:00.000Z' }, ctx.nowIso());
});
test.after(() => t.close());

const watchdog = async (query = '') => (await t.request('GET', `/api/watchdog${query}`)).json();
const byKey = (answer: any) => Object.fromEntries(answer.findings.map((f: any) => [f.key, f]));

test('findings from constructed run histories: failing and unreliable sources, a quiet routine, a missing key, missed fires', async () => {
  const w = await watchdog();
  const f = byKey(w);
  assert.equal(Object.keys(f).sort(), ['missed_fires:' + missed + ':2025-01-02T06:00:00.000Z', `missing_key:${keyed}:openalex`, `routine_quiet:${quiet}`, 'source_failing:crossref', 'source_unreliable:arxiv'].sort());
  const crossref = f['source_failing:crossref'];
  assert.equal([crossref.label, crossref.evidence.streak, crossref.evidence.reasons], ['broken', 3, ['upstream_failure']]);
  assert.equal(crossref.evidence.runs.map((r: any) => r.http_status), [503, 503, 503]);
  assert.is(crossref.thresholds.failure_streak, 3);
  assert.match(crossref.what_to_do, /svc executions record/);
  const arxiv = f['source_unreliable:arxiv'];
  assert.equal([arxiv.label, arxiv.evidence.failures_in_recent_runs, arxiv.evidence.recent_runs, arxiv.evidence.streak], ['unusual', 5, 10, 0]);
  assert.equal([f[`routine_quiet:${quiet}`].label, f[`routine_quiet:${quiet}`].evidence.history_mean_new], ['unusual', 5]);
  const key = f[`missing_key:${keyed}:openalex`];
  assert.equal([key.label, key.evidence.credential, key.evidence.credential_status], ['broken', 'openalex_api_key', 'absent']);
  assert.match(key.what_to_do, /svc credentials set openalex_api_key/);
  assert.equal(f[`missed_fires:${missed}:2025-01-02T06:00:00.000Z`].evidence.missed_count, 2);
  assert.match(f[`missed_fires:${missed}:2025-01-02T06:00:00.000Z`].what_to_do, new RegExp(`svc routine run ${missed}\`.*svc routine show ${missed}\``), 'names the routine, not ID');
  assert.equal([w.alarm_total, w.by_label, w.muted_total], [5, { broken: 2, unusual: 3 }, 0]);
  assert.equal(w.findings.map((x: any) => x.label), ['broken', 'broken', 'unusual', 'unusual', 'unusual'], 'broken first');
});

test('each finding says since when: the first run of the streak or of the quiet runs, the oldest failing run, the first missed fire; null when nothing stored dates it', async () => {
  const f = byKey(await watchdog());
  const crossref = f['source_failing:crossref'];
  assert.is(crossref.since_utc, crossref.evidence.runs.at(-1).started_at_utc, 'the first run of the streak');
  assert.ok(Math.abs(Date.parse(crossref.since_utc) - Date.parse(daysAgo(3))) < 3_600_000, crossref.since_utc);
  const arxiv = f['source_unreliable:arxiv'];
  assert.ok(Math.abs(Date.parse(arxiv.since_utc) - Date.parse(daysAgo(10.5))) < 3_600_000, `the oldest failing run of the ten: ${arxiv.since_utc}`);
  const quietOne = f[`routine_quiet:${quiet}`];
  assert.is(quietOne.since_utc, quietOne.evidence.recent_runs.at(-1).started_at_utc, 'the first of the quiet runs');
  assert.ok(Math.abs(Date.parse(quietOne.since_utc) - Date.parse(daysAgo(37))) < 3_600_000, quietOne.since_utc);
  assert.is(f[`missed_fires:${missed}:2025-01-02T06:00:00.000Z`].since_utc, '2025-01-01T06:00:00.000Z', 'the first missed fire, not the latest');
  assert.is(f[`missing_key:${keyed}:openalex`].since_utc, null, 'the credential store keeps no date');
  const r = await runCliInProcess(['watchdog'], { env: t.dirs.env });
  assert.match(r.stdout, new RegExp(`key: missed_fires:${missed}:2025-01-02T06:00:00.000Z\n.*\n  since: 2025-01-01 06:00\n`));
});

test('svc watchdog lists the evidence its what-to-do points at: the runs (with zero reason and HTTP status), missed fires', async () => {
  const r = await runCliInProcess(['watchdog'], { env: t.dirs.env });
  assert.is(r.code, 0, r.stderr);
  const crossref = r.stdout.split('\n\n').find((block) => block.includes('key: source_failing:crossref'))!;
  assert.is(crossref.match(/^  run \d+ \(\d{4}-\d\d-\d\d \d\d:\d\d\): upstream_failure \(HTTP 503\)/gm)?.length, 3, crossref);
  const quietBlock = r.stdout.split('\n\n').find((block) => block.includes(`key: routine_quiet:${quiet}`))!;
  assert.match(quietBlock, /^  run \d+ \([^)]*\): 8 results, 0 new$/m);
  assert.match(r.stdout, /^  2 missed fires, the last due 2025-01-02 06:00$/m);
});

test('what could not be judged is listed with reasons', async () => {
  const w = await watchdog();
  const unjudged = w.could_not_judge.map((u: any) => `${u.check}:${u.subject?.id ?? ''}`);
  assert.ok(unjudged.includes('source_failing:dblp'), 'one run is too few');
  assert.ok(unjudged.includes(`routine_quiet:${young}`));
  assert.equal(w.checks.map((c: any) => c.check), PRODUCERS.map((p) => p.check));
});

test('mute leaves the alarm total and the list; include_muted shows it; unmute returns it', async () => {
  const key = 'source_unreliable:arxiv';
  const muted = await t.request('POST', '/api/watchdog/mute', { body: { key, note: 'known flaky' } });
  assert.is(muted.status, 200);
  assert.equal([muted.json().muted, muted.json().already_muted, muted.json().alarm_total, muted.json().note], [true, false, 4, 'known flaky']);
  const w = await watchdog();
  assert.equal([w.alarm_total, w.muted_total, w.by_label.unusual], [4, 1, 2]);
  assert.not.ok(byKey(w)[key]);
  const all = await watchdog('?include_muted=true');
  assert.equal([byKey(all)[key].muted, byKey(all)[key].mute_note, all.alarm_total], [true, 'known flaky', 4]);
  const again = (await t.request('POST', '/api/watchdog/mute', { body: { key } })).json();
  assert.equal([again.already_muted, again.note], [true, 'known flaky'], 'muting twice changes nothing');
  const unmuted = await t.request('POST', '/api/watchdog/unmute', { body: { key } });
  assert.equal([unmuted.status, unmuted.json().muted, unmuted.json().alarm_total], [200, false, 5]);
  const twice = await t.request('POST', '/api/watchdog/unmute', { body: { key } });
  assert.equal([twice.status, twice.json().detail.reason], [404, 'mute_not_found']);
});

test('a newer missed fire alarms again after a mute', async () => {
  const w = await watchdog();
  const key = Object.keys(byKey(w)).find((k) => k.startsWith('missed_fires:'))!;
  await t.request('POST', '/api/watchdog/mute', { body: { key } });
  assert.is((await watchdog()).alarm_total, 4);
  insertFire(t.ctx.db, { routineId: missed, trigger: 'schedule', outcome: 'missed', firstDueAtUtc: '2025-02-01T06:00:00.000Z', dueAtUtc: '2025-02-01T06:00:00.000Z' }, t.ctx.nowIso());
  const after = await watchdog();
  assert.is(after.alarm_total, 5);
  assert.ok(byKey(after)[`missed_fires:${missed}:2025-02-01T06:00:00.000Z`]);
});

test('refusals: unknown finding, bad bodies, bad include_muted', async () => {
  const unknown = await t.request('POST', '/api/watchdog/mute', { body: { key: 'source_failing:nowhere' } });
  assert.equal([unknown.status, unknown.json().detail.reason], [404, 'finding_not_found']);
  for (const body of [{}, { key: '' }, { key: 'x'.repeat(301) }, { key: 'source_failing:crossref', note: 'n'.repeat(501) }, { key: 7 }]) {
    const r = await t.request('POST', '/api/watchdog/mute', { body });
    assert.is(r.status, 422, JSON.stringify(body).slice(0, 60));
  }
  assert.is((await t.request('POST', '/api/watchdog/unmute', { body: { note: 'x' } })).status, 422);
  assert.is((await t.request('POST', '/api/watchdog/mute')).status, 422);
  assert.is((await t.request('GET', '/api/watchdog?include_muted=yes')).status, 422);
});

test('storing the key clears the missing-key finding', async () => {
  t.ctx.credentials.set('openalex_api_key', 'k-123456');
  const w = await watchdog();
  assert.not.ok(Object.keys(byKey(w)).some((k) => k.startsWith('missing_key:')));
  assert.not.ok(JSON.stringify(w).includes('k-123456'), 'no secret in the answer');
});

test.run();
