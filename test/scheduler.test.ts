import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { getRoutineView } from '../src/routines/service.js';
import { setActive } from '../src/routines/repo.js';
import { createRoutineScheduler as createScheduler } from '../src/routines/due-fires.js';
import { RETRY_MS } from '../src/scheduler/scheduler.js';
import { claimJob, getJob, listJobs, putJob } from '../src/routines/jobs.js';
import { fixture } from './_setup.js';
import { routineDetail, routineTable } from '../commands/routine/format.js';
import { fakeClock, manualTimers, newDirs, routineBody, settled, startSvc } from './_scheduler.js';
import { startStub, type Stub } from './_stub.js';

let crossref: Stub;
const sources = () => ({ SVC_SOURCE_CROSSREF_URL: crossref.url });

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
});
test.after(async () => {
  await crossref.close();
});

test('a routine gets a persisted job with the 3600 s grace; the jobs route lists its next runs', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T12:00:00Z');
  const svc = await startSvc(dirs, fake, { env: sources() });
  try {
    assert.is((await svc.request('GET', '/api/health')).json().scheduler.state, 'running');
    const { id } = (await svc.request('POST', '/api/routines', routineBody())).json();
    const jobs = (await svc.request('GET', '/api/scheduler/jobs')).json();
    assert.is(jobs.scheduler.state, 'running');
    assert.is(jobs.total, 1);
    assert.equal(
      { routine_id: jobs.jobs[0].routine_id, next: jobs.jobs[0].next_run_at_utc, grace: jobs.jobs[0].misfire_grace_seconds, runs: jobs.jobs[0].next_runs },
      { routine_id: id, next: '2026-01-06T06:00:00.000Z', grace: 3600, runs: ['2026-01-06T06:00:00.000Z', '2026-01-07T06:00:00.000Z', '2026-01-08T06:00:00.000Z'] },
    );
    assert.is(jobs.scheduler.misfire_grace_seconds, 3600);
  } finally {
    await svc.close();
    dirs.cleanup();
  }
});

test('a fire on time runs, advances the job, and the scheduler waits for the next due time (capped by its poll)', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T05:59:00Z');
  const svc = await startSvc(dirs, fake, { env: sources() });
  try {
    const { id } = (await svc.request('POST', '/api/routines', routineBody())).json();
    fake.set('2026-01-05T06:00:00.250Z');
    const [outcome] = svc.scheduler!.tick();
    assert.is(outcome!.routineId, id);
    assert.is(outcome!.fired!.trigger, 'schedule');
    assert.is(outcome!.fired!.outcome, 'started');
    assert.is(outcome!.missed, null);
    assert.is(outcome!.nextRunAtUtc, '2026-01-06T06:00:00.000Z');
    assert.is(await settled(svc, outcome!.fired!.executionId!), 'completed');
    const exec = (await svc.request('GET', `/api/executions/${outcome!.fired!.executionId}`)).json();
    assert.is(exec.type, 'routine');
    assert.is(exec.routine_id, id);
    assert.equal([exec.parameters.date_from, exec.parameters.date_to], ['2025-12-29', '2026-01-05'], 'window_days 7 before the due time, to the run date');
    assert.is(svc.timers.pending.length, 1, 'one timer armed');
    assert.is(svc.timers.pending[0]!.ms, svc.scheduler!.pollMs, 'a day away: wake at the poll interval');
    fake.set('2026-01-06T05:59:50Z');
    svc.scheduler!.tick();
    assert.is(svc.timers.pending[0]!.ms, 10_000, 'ten seconds before the next fire');
  } finally {
    await svc.close();
    dirs.cleanup();
  }
});

test('a fire that cannot be handled is logged and retried after a pause, never in a tight loop', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T05:59:00Z');
  const svc = await startSvc(dirs, fake, { env: sources() });
  try {
    const { id } = (await svc.request('POST', '/api/routines', routineBody())).json();
    svc.ctx.db.prepare(`UPDATE routines SET parameters_json = '{broken' WHERE id = ?`).run(id);
    fake.set('2026-01-05T06:00:05Z');
    assert.equal(svc.scheduler!.tick(), []);
    assert.ok(svc.logLines.some((l) => l.includes(`routine ${id}: the scheduler could not handle its fire`)));
    assert.is(svc.timers.pending[0]!.ms, RETRY_MS);
    assert.is(getJob(svc.ctx.db, id)!.next_run_at_utc, '2026-01-05T06:00:00.000Z', 'nothing claimed: the fire is still due');
  } finally {
    await svc.close();
    dirs.cleanup();
  }
});

test('missed fires across a simulated shutdown: counted on reads while closed, recorded at start, the one within grace runs once', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T12:00:00Z');
  const first = await startSvc(dirs, fake, { env: sources() });
  const { id } = (await first.request('POST', '/api/routines', routineBody())).json();
  await first.close();

  // Closed from the 5th at noon to the 9th at 06:30: 06:00 on the 6th, 7th and 8th are late by more than the grace; the 9th by 30 minutes.
  fake.set('2026-01-09T06:30:00Z');
  const reader = createContext({ env: { ...dirs.env, ...sources() }, clock: fake.clock, log: silentLogger });
  try {
    const closed = getRoutineView(reader, id);
    assert.equal(closed.missed_fires, { count: 3, last_due_at_utc: '2026-01-08T06:00:00.000Z' }, 'counted on a read, with no scheduler running');
    assert.equal(
      closed.missed_fire_details!.map((d: any) => [d.outcome, d.count, d.recorded]),
      [
        ['pending', 1, false],
        ['missed', 3, false],
      ],
    );
    // One fire is "it", three are "they": the reason reads as a sentence either way.
    assert.equal(closed.missed_fire_details!.map((d: any) => d.reason), [
      'came due while no scheduler was running; a scheduler starting within the grace runs it once',
      'came due while no scheduler was running, longer ago than the grace; they will not run',
    ]);
  } finally {
    await reader.close();
  }

  const second = await startSvc(dirs, fake, { env: sources() });
  try {
    const routine = (await second.request('GET', `/api/routines/${id}`)).json();
    assert.equal(routine.missed_fires, { count: 3, last_due_at_utc: '2026-01-08T06:00:00.000Z' });
    const [coalesced, missed] = routine.missed_fire_details;
    assert.equal([coalesced.outcome, coalesced.count, coalesced.last_due_at_utc, coalesced.recorded], ['coalesced', 1, '2026-01-09T06:00:00.000Z', true]);
    assert.equal([missed.outcome, missed.count, missed.first_due_at_utc, missed.last_due_at_utc, missed.ran], ['missed', 3, '2026-01-06T06:00:00.000Z', '2026-01-08T06:00:00.000Z', false]);
    assert.match(missed.reason, /not run/);
    assert.type(coalesced.execution_id, 'number');
    assert.is(await settled(second, coalesced.execution_id), 'completed');
    assert.is(routine.schedule.next_run_at_utc, '2026-01-10T06:00:00.000Z');
    assert.is(second.ctx.db.prepare('SELECT count(*) FROM executions WHERE routine_id = ?').pluck().get(id), 1, 'one run, not four');
    assert.ok(second.logLines.some((l) => /3 fire\(s\) missed/.test(l)));
    assert.ok(
      second.logLines.some((l) => /notification fires_missed: .*3 scheduled runs missed \(last due 2026-01-08 06:00 UTC\)/.test(l)),
      'notifications.on_failure (default true) covers missed fires, as its setting says',
    );
  } finally {
    await second.close();
    dirs.cleanup();
  }
});

test('the grace boundary: late by 3599.999 s runs once; late by exactly 3600 s is missed and not run', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T12:00:00Z');
  let svc = await startSvc(dirs, fake, { env: sources() });
  const { id } = (await svc.request('POST', '/api/routines', routineBody())).json();
  await svc.close();
  try {
    fake.set('2026-01-06T06:59:59.999Z');
    svc = await startSvc(dirs, fake, { env: sources() });
    let routine = (await svc.request('GET', `/api/routines/${id}`)).json();
    assert.is(routine.missed_fires.count, 0);
    assert.is(routine.last_fire.trigger, 'coalesced');
    assert.is(routine.last_fire.outcome, 'started');
    await settled(svc, routine.last_fire.execution_id);
    await svc.close();

    fake.set('2026-01-07T07:00:00.000Z');
    svc = await startSvc(dirs, fake, { env: sources() });
    routine = (await svc.request('GET', `/api/routines/${id}`)).json();
    assert.equal(routine.missed_fires, { count: 1, last_due_at_utc: '2026-01-07T06:00:00.000Z' });
    assert.is(routine.last_fire.outcome, 'missed');
    assert.is(svc.ctx.db.prepare('SELECT count(*) FROM executions WHERE routine_id = ?').pluck().get(id), 1, 'the missed fire did not run');
  } finally {
    await svc.close();
    dirs.cleanup();
  }
});

test('at start-up, jobs whose routine is missing or inactive are removed before active routines are registered', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T12:00:00Z');
  const first = await startSvc(dirs, fake, { scheduler: false });
  const a = (await first.request('POST', '/api/routines', routineBody({ name: 'a' }))).json().id;
  const b = (await first.request('POST', '/api/routines', routineBody({ name: 'b' }))).json().id;
  const c = (await first.request('POST', '/api/routines', routineBody({ name: 'c' }))).json().id;
  // Leave the store inconsistent, as an older version or a restored database could: a job of a
  // routine that is gone, a job of an inactive routine, an active routine without a job.
  const now = first.ctx.nowIso();
  putJob(first.ctx.db, 999, '0 6 * * *', '2026-01-06T06:00:00.000Z', now);
  setActive(first.ctx.db, b, false, now);
  first.ctx.db.prepare('DELETE FROM scheduler_jobs WHERE routine_id = ?').run(c);
  await first.close();

  const timers = manualTimers();
  const ctx = createContext({ env: dirs.env, clock: fake.clock, log: silentLogger });
  try {
    const report = createScheduler(ctx, { timers }).start()!;
    assert.equal(report.removedStale, [b, 999]);
    assert.equal(report.registered, [c]);
    assert.equal(listJobs(ctx.db).map((j) => j.routine_id).sort(), [a, c].sort());
    assert.is(getJob(ctx.db, c)!.next_run_at_utc, '2026-01-06T06:00:00.000Z');
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('SVC_DISABLE_SCHEDULER: no scheduler, no dispatch of due fires; reads still count what is missed', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T12:00:00Z');
  let svc = await startSvc(dirs, fake, { scheduler: false, env: sources() });
  try {
    const { id } = (await svc.request('POST', '/api/routines', routineBody())).json();
    await svc.close();
    fake.set('2026-01-07T06:30:00Z');
    svc = await startSvc(dirs, fake, { scheduler: false, env: { ...sources(), SVC_DISABLE_SCHEDULER: 'true' } });
    assert.is(svc.scheduler, undefined);
    assert.is(svc.ctx.service('scheduler', () => 'none'), 'none', 'no scheduler was built');
    assert.is((await svc.request('GET', '/api/health')).json().scheduler.state, 'disabled');
    const jobs = (await svc.request('GET', '/api/scheduler/jobs')).json();
    assert.is(jobs.scheduler.state, 'disabled');
    assert.is(jobs.jobs[0].overdue, true);
    assert.is(jobs.jobs[0].next_run_at_utc, '2026-01-06T06:00:00.000Z', 'nobody handled it');
    assert.is(svc.ctx.db.prepare('SELECT count(*) FROM routine_fires').pluck().get(), 0);
    assert.is(svc.ctx.db.prepare('SELECT count(*) FROM executions').pluck().get(), 0);
    const routine = (await svc.request('GET', `/api/routines/${id}`)).json();
    assert.equal(routine.missed_fires, { count: 1, last_due_at_utc: '2026-01-06T06:00:00.000Z' });
    // The CLI says it too: a next run in the past reads as overdue, not as a time to come.
    assert.match(routineTable([routine]), /2026-01-06 06:00 \(overdue\)/);
    assert.match(routineDetail(routine), /overdue {4}a fire came due 2026-01-06 06:00 UTC and no scheduler has run it yet/);
    assert.not.match(routineTable([(await svc.request('GET', `/api/routines/${(await svc.request('POST', '/api/routines', routineBody({ name: 'fresh' }))).json().id}`)).json()]), /overdue/);
  } finally {
    await svc.close();
    dirs.cleanup();
  }
});

test('two schedulers on one database never fire the same due time twice', async () => {
  const dirs = newDirs();
  const fake = fakeClock('2026-01-05T05:00:00Z');
  const svc = await startSvc(dirs, fake, { scheduler: false, env: sources() });
  const { id } = (await svc.request('POST', '/api/routines', routineBody())).json();
  const other = createContext({ env: { ...dirs.env, ...sources() }, clock: fake.clock, log: silentLogger, tuning: { sourceRateScale: 0 } });
  try {
    const s1 = createScheduler(svc.ctx, { timers: manualTimers() });
    const s2 = createScheduler(other, { timers: manualTimers() });
    s1.start();
    s2.start();
    fake.set('2026-01-05T06:00:01Z');
    const fired = [...s1.tick(), ...s2.tick()].filter((o) => o.fired);
    assert.is(fired.length, 1);
    assert.is(svc.ctx.db.prepare('SELECT count(*) FROM routine_fires WHERE routine_id = ?').pluck().get(id), 1);
    await settled(svc, fired[0]!.fired!.executionId!);
    // Both read the same row before either moved it: only the first claim wins.
    const job = getJob(svc.ctx.db, id)!;
    assert.is(claimJob(svc.ctx.db, job, '2026-01-07T06:00:00.000Z', svc.ctx.nowIso()), true);
    assert.is(claimJob(other.db, job, '2026-01-07T06:00:00.000Z', other.nowIso()), false);
    s1.stop();
    s2.stop();
  } finally {
    await other.close();
    await svc.close();
    dirs.cleanup();
  }
});

test.run();
