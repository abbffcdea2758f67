import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext, type Context } from '../src/context.js';
import { insertFire } from '../src/routines/jobs.js';
import { insertRun } from '../src/lifecycle/repo.js';
import { createRoutine } from '../src/routines/service.js';
import { lagText, overviewText, volumeText } from '../commands/analytics/format.js';
import { publicationVolume } from '../src/analytics/volume.js';
import { discoveryLag } from '../src/analytics/lag.js';
import { parseWindow } from '../src/analytics/window.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fixture, ROOT, startTestServer, tempDirs, waitFor, type TempDirs } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { addRun, daysAgo, record, store } from './_history.js';
import { routineBody } from './_scheduler.js';
import { runCliCaptured, runCliInProcess } from './_cli.js';

let dirs: TempDirs;
let arxiv: Stub;
let env: Record<string, string>;
let docs: number[];
let routineId: number;

test.before(async () => {
  dirs = tempDirs();
  arxiv = await startStub([{ path: '/query', body: fixture('arxiv/search-all-testing-start0-max10.xml'), times: Infinity }]);
  env = { ...dirs.env, SVC_SOURCE_ARXIV_URL: arxiv.url };
  const ctx: Context = createContext({ env });
  docs = store(ctx, [
    record({ source: 'arxiv', nativeId: '2204.08348', ids: { arxiv: '2204.08348', arxiv_version: 'v1' }, title: 'Versioned preprint', publicationDate: '2024-02-01', datePrecision: 'day', type: 'preprint' }),
    record({ source: 'arxiv', nativeId: '1812.11470', ids: { arxiv: '1812.11470', arxiv_version: 'v1' }, title: 'Unchanged preprint', publicationDate: '2024-03-01', datePrecision: 'day', type: 'preprint' }),
  ]);
  routineId = createRoutine(ctx, routineBody({ name: 'missed one' })).id;
  insertFire(ctx.db, { routineId, trigger: 'schedule', outcome: 'missed', firstDueAtUtc: '2025-01-01T06:00:00.000Z', dueAtUtc: '2025-01-01T06:00:00.000Z' }, ctx.nowIso());
  addRun(ctx, { startedAt: daysAgo(1), keywords: ['preprint'], sources: { arxiv: { docs, newDocs: docs } } });
  await ctx.close();
});
test.after(async () => {
  await arxiv.close();
  dirs.cleanup();
});

const cli = (...args: string[]) => runCliInProcess(args, { env });

test('svc analytics: every view answers one JSON document; human tables without bars off a terminal', async () => {
  for (const view of ['overview', 'summary', 'volume', 'sources', 'keywords', 'routine-health', 'discovery-lag']) {
    const r = await cli('analytics', view, '--json');
    assert.is(r.code, 0, `${view}: ${r.stderr}`);
    const answer = JSON.parse(r.stdout);
    assert.ok(answer.method && answer.window, view);
  }
  const volume = JSON.parse((await cli('analytics', 'volume', '--split', 'category', '--top', '3', '--json')).stdout);
  assert.equal([volume.split, volume.months.length], ['category', 2]);
  const human = await cli('analytics', 'volume');
  assert.match(human.stdout, /MONTH\s+PAPERS\s+ARXIV/);
  assert.not.match(human.stdout, /█/);
  const keywords = await cli('analytics', 'keywords', '--window', '7d');
  assert.match(keywords.stdout, /preprint\s+1\s+2\s+2\s+2/);
});

test('svc analytics refusals are usage errors (exit 2) naming the flag', async () => {
  for (const args of [['analytics', 'bogus'], ['analytics', '--window', '0'], ['analytics', 'volume', '--split', 'journal'], ['analytics', 'volume', '--top', '51'], ['analytics', 'keywords', '--routine', 'x']]) {
    const r = await cli(...args, '--json');
    assert.is(r.code, 2, args.join(' '));
    assert.ok(JSON.parse(r.stdout).error, args.join(' '));
  }
  assert.match((await cli('analytics', '--window', 'week')).stderr, /--window must be a number of days/);
  // A flag of another view is named, not ignored; an unknown routine is not read as "no keywords".
  const misplaced = await cli('analytics', 'summary', '--split', 'source');
  assert.is(misplaced.code, 2);
  assert.match(misplaced.stderr, /--split applies to the volume view only/);
  assert.match((await cli('analytics', '--routine', String(routineId))).stderr, /--routine applies to the keywords view only/);
  const unknown = await cli('analytics', 'keywords', '--routine', '999', '--json');
  assert.equal([unknown.code, JSON.parse(unknown.stdout).error], [3, 'routine_not_found']);
  assert.is((await cli('analytics', 'keywords', '--routine', String(routineId))).code, 0);
});

test('svc watchdog and svc lifecycle: a mistyped subcommand is named as one (exit 2), not passed to the default', async () => {
  for (const [command, known] of [['watchdog', /show, mute, unmute/], ['lifecycle', /status, check, stop, show/]] as const) {
    const r = await cli(command, 'chekc');
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`"chekc" is not a ${command} command`));
    assert.match(r.stderr, known);
    const j = await cli(command, 'chekc', '--json');
    assert.equal([j.code, JSON.parse(j.stdout).error], [2, 'unknown_command']);
    assert.not.match((await cli(command, '--help')).stdout, /\[unknown\]/);
  }
});

test('svc analytics on an empty corpus: no table is a header with nothing under it; each says what is missing', async () => {
  const empty = tempDirs();
  try {
    const say = async (...args: string[]) => {
      const r = await runCliInProcess(['analytics', ...args], { env: empty.env });
      assert.is(r.code, 0, r.stderr);
      return r.stdout;
    };
    const overview = await say();
    assert.not.match(overview, /^SOURCE +DELIVERED/m);
    assert.not.match(overview, /^MONTH +PAPERS/m);
    assert.match(overview, /^Discovery lag: no paper first seen in the window is dated to the day\.$/m);
    assert.match(overview, /Top sources\nNo source delivered a paper in the window\.\n/);
    assert.match(overview, /Recent publication months\nNo paper in the window is dated to the month\.\n/);
    const sources = await say('sources');
    assert.not.match(sources, /^SOURCE/m);
    assert.match(sources, /^No run in the window asked a source: `svc dive` or `svc sweep` starts one\.$/m);
    const lag = await say('discovery-lag');
    assert.not.match(lag, /^SOURCE/m);
    assert.match(lag, /^No source has a paper dated to the day in the window\.$/m);
    assert.match(lag, /^Discovery lag: no paper first seen in the window is dated to the day\.$/m);
    assert.not.match(lag, /median –|over 0 papers|^LAG/m);
  } finally {
    empty.cleanup();
  }
});

test('svc lifecycle check: the first Ctrl-C says a second abandons the slice; the second aborts a hanging lookup at once, records what answered, and ends the run interrupted', async () => {
  const quit = tempDirs();
  const crossref = await startStub([
    { path: '/works/10.1371/journal.pone.0033693', body: fixture('crossref/work-10.1371_journal.pone.0033693-updated-by-correction.json'), times: Infinity },
    { path: '/works/10.5555/hang.1', body: '{}', delayMs: 60_000, times: Infinity },
  ]);
  try {
    const qenv = { ...quit.env, SVC_SOURCE_CROSSREF_URL: crossref.url };
    const ctx = createContext({ env: qenv });
    // Checked in id order: the answering paper first, then the one whose lookup hangs.
    const [answered, hanging] = store(ctx, [
      record({ source: 'crossref', nativeId: '10.1371/journal.pone.0033693', doi: '10.1371/journal.pone.0033693', title: 'A paper Crossref answers' }),
      record({ source: 'crossref', nativeId: '10.5555/hang.1', doi: '10.5555/hang.1', title: 'A paper whose lookup hangs' }),
    ]);
    await ctx.close();
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'lifecycle', 'check', '--limit', '2'], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...qenv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await waitFor(() => crossref.requests.some((r) => r.path === '/works/10.5555/hang.1'), 15_000, 'the hanging lookup on the wire');
    child.kill('SIGINT');
    await waitFor(() => /Stopping after the slice in flight… \(Ctrl-C again abandons it now, keeping what the sources have answered\)/.test(stderr), 5_000, 'the first Ctrl-C to be taken');
    const second = Date.now();
    child.kill('SIGINT');
    assert.is(await exited, 130, stderr);
    assert.ok(Date.now() - second < 5_000, 'the hanging lookup is abandoned, not waited for');
    assert.match(stderr, /Abandoning the slice in flight/);
    assert.match(stdout, /^Check \d+ interrupted: 1 paper checked, 0 failed/m);
    const status = JSON.parse((await runCliInProcess(['--json', 'lifecycle'], { env: qenv })).stdout);
    assert.is(status.check.running, false);
    assert.equal([status.check.last.status, status.check.last.error], ['interrupted', 'abandoned with a second Ctrl-C; the papers the sources had answered were recorded, the rest stay first in line']);
    const shown = async (id: number) => JSON.parse((await runCliInProcess(['--json', 'lifecycle', 'show', String(id)], { env: qenv })).stdout);
    assert.ok((await shown(answered!)).checked_at_utc, 'what the source answered is recorded');
    assert.is((await shown(hanging!)).checked_at_utc, null, 'the abandoned paper stays first in line');
    assert.is((await shown(hanging!)).last_attempt, null);
  } finally {
    await crossref.close();
    quit.cleanup();
  }
});

test('svc lifecycle (status) does not call a check running whose process has not been seen for the stale interval', async () => {
  const gone = tempDirs();
  try {
    const ctx = createContext({ env: gone.env });
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    insertRun(ctx.db, 10, false, 'a-process-that-went-away', hourAgo);
    await ctx.close();
    const status = JSON.parse((await runCliInProcess(['--json', 'lifecycle'], { env: gone.env })).stdout);
    assert.is(status.check.running, false);
    assert.equal([status.check.last.status, status.check.last.error], ['interrupted', 'its owner went away']);
    assert.not.match((await runCliInProcess(['lifecycle'], { env: gone.env })).stdout, /A check is running/);
  } finally {
    gone.cleanup();
  }
});

test('bar charts of volume and lag on a terminal', () => {
  const ctx = createContext({ env });
  try {
    const w = parseWindow(null, new Date());
    assert.match(volumeText(publicationVolume(ctx, w), true), /2024-02\s+1\s+1\s+█+/);
    assert.match(lagText(discoveryLag(ctx, w), true), /over a year\s+2\s+█{40}/);
  } finally {
    void ctx.close();
  }
});

test('svc watchdog: findings, mute and unmute by key, refusals', async () => {
  const w = JSON.parse((await cli('watchdog', '--json')).stdout);
  const key = `missed_fires:${routineId}:2025-01-01T06:00:00.000Z`;
  assert.ok(w.findings.some((f: any) => f.key === key));
  const human = await cli('watchdog');
  assert.match(human.stdout, /UNUSUAL\s+Routine "missed one" missed 1 scheduled fire, the latest/);
  assert.not.match(human.stdout, /\(s\)/, 'counts are spelled, not "(s)"');
  if (w.could_not_judge.length) assert.match(human.stdout, new RegExp(`Could not judge:[\\s\\S]*${w.could_not_judge[0].check}`));
  const muted = await cli('watchdog', 'mute', key, '--note', 'laptop was off', '--json');
  assert.equal([muted.code, JSON.parse(muted.stdout).muted, JSON.parse(muted.stdout).alarm_total], [0, true, w.alarm_total - 1]);
  assert.not.ok(JSON.parse((await cli('watchdog', '--json')).stdout).findings.some((f: any) => f.key === key));
  assert.ok(JSON.parse((await cli('watchdog', '--muted', '--json')).stdout).findings.some((f: any) => f.key === key && f.muted));
  // The human views say where the muted findings are, when and why one was muted, and that a second --note is not stored.
  assert.match((await cli('watchdog')).stdout, /; 1 muted \(`svc watchdog --muted` lists them\)\.\n/);
  const listed = await cli('watchdog', '--muted');
  assert.match(listed.stdout, /^0 alarms|; 1 muted\.\n/);
  assert.match(listed.stdout, new RegExp(`key: ${key.replace(/[.]/g, '\\.')}\n.*\n  muted: \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} — laptop was off\n`));
  const again = await cli('watchdog', 'mute', key, '--note', 'another note');
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /^Already muted since \d{4}-\d{2}-\d{2} \d{2}:\d{2}: .* The note given is not stored \(a mute keeps its first note\); `svc watchdog unmute` and mute again to change it\.\n$/);
  const plain = await cli('watchdog', 'mute', key);
  assert.match(plain.stdout, /^Already muted since \d{4}-\d{2}-\d{2} \d{2}:\d{2}: missed_fires:\S+ \d+ alarms? left\.\n$/, 'no --note, nothing to say about it');
  assert.is((await cli('watchdog', 'unmute', key)).code, 0);
  assert.is((await cli('watchdog', 'unmute', key)).code, 3);
  assert.is((await cli('watchdog', 'mute', 'no-such-key')).code, 3);
});

test('svc analytics, watchdog and lifecycle refusals name the svc command, not the HTTP route (which the HTTP answer keeps)', async () => {
  const routine = await cli('analytics', 'keywords', '--routine', '999999');
  assert.is(routine.code, 3, routine.stderr);
  assert.is(routine.stderr.trim(), 'svc: No routine 999999; `svc routine list` lists them.');
  const finding = await cli('watchdog', 'mute', 'no-such-key');
  assert.is(finding.code, 3, finding.stderr);
  assert.is(finding.stderr.trim(), 'svc: No current watchdog finding has the key "no-such-key"; `svc watchdog` lists them.');
  const other = tempDirs();
  try {
    const ctx = createContext({ env: other.env });
    // A paper to check: on an empty corpus the command says there is nothing to check before it looks for a running check.
    store(ctx, [record({ source: 'arxiv', nativeId: '1812.11470', ids: { arxiv: '1812.11470' }, title: 'A paper to check' })]);
    const runId = insertRun(ctx.db, 10, false, 'another-process', ctx.nowIso());
    await ctx.close();
    const running = await runCliInProcess(['lifecycle', 'check'], { env: other.env });
    assert.is(running.code, 4, running.stderr);
    assert.is(running.stderr.trim(), `svc: Lifecycle check ${runId} is running; \`svc lifecycle stop\` (or Ctrl-C in its terminal) stops it after the current slice.`);
    const json = JSON.parse((await runCliInProcess(['--json', 'lifecycle', 'check'], { env: other.env })).stdout);
    assert.equal(json.error, 'lifecycle_check_running');
    assert.not.match(json.message, /\/api\//);
  } finally {
    other.cleanup();
  }
  const t = await startTestServer();
  try {
    const r = await t.request('GET', '/api/analytics/keyword-contribution?routine_id=999999');
    assert.is(r.status, 404);
    assert.equal(r.json().detail.reason, 'routine_not_found');
    assert.match(r.json().detail.message, /GET \/api\/routines/);
  } finally {
    await t.close();
  }
});

test('svc lifecycle check on an empty corpus says there is nothing to check and how papers get in (exit 0), and records no run; POST /api/lifecycle/check still starts one', async () => {
  const t = await startTestServer();
  try {
    const human = await runCliCaptured(['lifecycle', 'check'], t.dirs.env);
    assert.is(human.code, 0, human.stderr);
    assert.is(human.stdout, 'The corpus has no papers yet, so there is nothing to check; `svc dive` or `svc sweep` collects some.');
    assert.is(human.stderr, '', 'no "Lifecycle check 1: up to 1000 papers" line');
    const json = await runCliCaptured(['--json', 'lifecycle', 'check', '--until-done'], t.dirs.env);
    assert.is(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout), { run_id: null, documents_total: 0, checked: 0, message: 'The corpus has no papers yet, so there is nothing to check; `svc dive` or `svc sweep` collects some.' });
    assert.is((await t.request('GET', '/api/lifecycle')).json().check.last, null, 'no check of 0 papers recorded');
    assert.is((await runCliCaptured(['lifecycle'], t.dirs.env)).stdout.split('\n')[0], 'The corpus has no papers yet; `svc dive` or `svc sweep` collects some.');
    // The HTTP door answers 202 with the run it started, whatever the corpus holds (a client polls that run).
    const started = await t.request('POST', '/api/lifecycle/check', { body: {} });
    assert.is(started.status, 202, started.text);
    const last = await waitFor(async () => {
      const l = (await t.request('GET', '/api/lifecycle')).json().check.last;
      return l && l.status !== 'running' ? l : undefined;
    }, 5_000, 'the check of the empty corpus to end');
    assert.equal([last.run_id, last.status, last.checked], [started.json().run_id, 'completed', 0]);
  } finally {
    await t.close();
  }
});

test('svc lifecycle: check with progress, show, status; refusals', async () => {
  assert.is((await cli('lifecycle', 'check', '--limit', '0')).code, 2);
  assert.is((await cli('lifecycle', 'check', '--limit', '5001', '--json')).code, 2);
  const check = await cli('lifecycle', 'check', '--limit', '5');
  assert.is(check.code, 0, check.stderr);
  assert.match(check.stderr, /pass 1, slice 1: 2 checked, 0 failed, 2 new events/);
  // No OpenAlex key here: said at the start, with the command that stores it (it was found only in lifecycle show).
  assert.match(check.stderr, /^openalex is not asked: openalex_api_key is not stored; `svc credentials set openalex_api_key` adds it to later checks\.$/m);
  assert.match(check.stdout, /completed: 2 papers checked, 0 failed, 2 new events/);
  const show = JSON.parse((await cli('lifecycle', 'show', String(docs[0]), '--json')).stdout);
  assert.equal(show.events.map((e: any) => e.kind).sort(), ['preprint_to_published', 'version_change']);
  const human = await cli('lifecycle', 'show', String(docs[0]));
  assert.match(human.stdout, /version_change\s+arxiv\s+https:\/\/arxiv\.org\/abs\/2204\.08348v3/);
  // Instants to the minute, as every human view shows them (it printed 2026-…T…:08.003Z).
  assert.match(human.stdout, /^Last checked: \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(last attempt \d{4}-\d{2}-\d{2} \d{2}:\d{2}: /m);
  assert.match((await cli('lifecycle')).stdout, /^2 of \d+ papers checked \(last \d{4}-\d{2}-\d{2} \d{2}:\d{2}, oldest \d{4}-\d{2}-\d{2} \d{2}:\d{2}\);/m);
  const status = JSON.parse((await cli('lifecycle', '--json')).stdout);
  assert.equal([status.coverage.checked, status.events_total, status.check.last.status], [2, 2, 'completed']);
  assert.is((await cli('lifecycle', 'show', '99999')).code, 3);
  assert.is((await cli('lifecycle', 'show', 'abc')).code, 2);
  assert.equal(JSON.parse((await cli('lifecycle', 'stop', '--json')).stdout).stop_requested, false);
});


test('svc analytics overview: empty recent months in a row are one line, as in the volume view (a lone paper showed ten rows of 0)', () => {
  const months = ['2023-08', '2023-09', '2023-10', '2023-11', '2023-12', '2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06', '2024-07'];
  const totals = [1, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 2];
  const o = {
    window: { days: null, from_utc: null },
    corpus: { documents_total: 6, documents_in_window: 6 },
    executions: { completed: 1 },
    routines: { active: 0, quiet: [] },
    lifecycle_events: 0,
    discovery_lag: { median_days: null, papers: 0 },
    top_sources: [],
    recent_months: months.map((month, i) => ({ month, total: totals[i] })),
  };
  const piped = overviewText(o, false);
  assert.match(piped, /Recent publication months\nMONTH +PAPERS\n2023-08 +1\n2023-09\.\.2024-04 +0\n2024-05 +3\n2024-06 +0\n2024-07 +2$/);
  const tty = overviewText(o, true);
  assert.match(tty, /^2023-09\.\.2024-04 +0 +\(8 months with no paper\)$/m);
  assert.match(tty, /^2024-05 +3 +█{40}$/m);
});

test('svc lifecycle check on a terminal says the first slice is under way before its first progress; piped, it does not', async () => {
  const tty = await runCliCaptured(['lifecycle', 'check', '--limit', '1'], env, { stdoutIsTTY: true, stderrIsTTY: true });
  assert.is(tty.code, 0, tty.stderr);
  const asking = tty.stderr.indexOf('\x1b[2Kpass 1, slice 1: asking the sources…');
  assert.ok(asking > 0 && asking < tty.stderr.indexOf('slice 1: 1 checked'), tty.stderr);
  const piped = await runCliCaptured(['lifecycle', 'check', '--limit', '1'], env);
  assert.is(piped.code, 0, piped.stderr);
  assert.not.match(piped.stderr, /asking the sources/);
});

test('svc analytics volume: a long run of empty months is one line in the human view; --json keeps every month', async () => {
  const own = tempDirs();
  try {
    const ctx = createContext({ env: own.env });
    store(ctx, [
      record({ source: 'arxiv', nativeId: 'old-1', title: 'An old paper', publicationDate: '2001-03-15', datePrecision: 'day' }),
      record({ source: 'arxiv', nativeId: 'new-1', title: 'A new paper', publicationDate: '2024-02-01', datePrecision: 'day' }),
      record({ source: 'arxiv', nativeId: 'new-2', title: 'Another new paper', publicationDate: '2024-04-01', datePrecision: 'day' }),
    ]);
    await ctx.close();
    const json = await runCliInProcess(['analytics', 'volume', '--json'], { env: own.env });
    const months = JSON.parse(json.stdout).months;
    assert.equal([months.length, months[0].month, months.at(-1).month], [278, '2001-03', '2024-04']);
    const human = await runCliInProcess(['analytics', 'volume'], { env: own.env });
    assert.is(human.code, 0, human.stderr);
    const lines = human.stdout.trim().split('\n');
    assert.ok(lines.length < 12, `${lines.length} lines:\n${human.stdout}`);
    assert.match(human.stdout, /^2001-03\s+1\s+1$/m);
    assert.match(human.stdout, /^2001-04\.\.2024-01\s+0\s+0$/m);
    assert.match(human.stdout, /^2024-03\s+0\s+0$/m, 'a single empty month stays a month');
    assert.match(human.stdout, /--json lists every month/);
    // Nothing to show is said in words, with what to do, not as a bare header or "0 of 0".
    const health = await runCliInProcess(['analytics', 'routine-health'], { env: own.env });
    assert.match(health.stdout, /No routine to judge yet: `svc routine add`/);
    assert.not.match(health.stdout, /ROUTINE/);
    assert.not.match((await runCliInProcess(['analytics', 'keywords'], { env: own.env })).stdout, /0 of 0 papers/);
  } finally {
    own.cleanup();
  }
});

test('svc-analytics(1) EXIT STATUS: 3 also for a routine keywords --routine does not know, 130 also for a check stopped by svc lifecycle stop', () => {
  const page = fs.readFileSync(path.join(ROOT, 'man', 'svc-analytics.1'), 'utf8');
  const exit = page.slice(page.indexOf('.SH EXIT STATUS')).replace(/\\f[BRI]|\\/g, '').replace(/\s+/g, ' ');
  assert.match(exit, /3 no such document, routine \(keywords --routine\) or finding/);
  assert.match(exit, /130 a check stopped \(by Ctrl-C or by svc lifecycle stop\)/);
});

test.run();
