import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fixture, waitFor } from './_setup.js';
import { fakeClock, newDirs, routineBody, settled, startSvc, type Svc } from './_scheduler.js';
import { startStub, type Stub } from './_stub.js';
import type { TempDirs } from './_setup.js';

let crossref: Stub;
let slow: Stub;
let dirs: TempDirs;
let svc: Svc;
const fake = fakeClock('2026-01-05T05:59:00Z');

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  slow = await startStub([{ path: '/search/publ/api', body: fixture('dblp/publ-search-test-h1-f1.json'), delayMs: 1200, times: Infinity }]);
  dirs = newDirs();
  svc = await startSvc(dirs, fake, { env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_SOURCE_DBLP_URL: slow.url } });
});
test.after(async () => {
  await svc.close();
  dirs.cleanup();
  await crossref.close();
  await slow.close();
});

test('running or analysing a routine that does not exist: 404 routine_not_found that says where the routines are listed (an agent is told list_routines)', async () => {
  for (const [method, path] of [['POST', '/api/routines/987654/run'], ['GET', '/api/analytics/keyword-contribution?routine_id=987654']] as const) {
    const r = await svc.request(method, path);
    assert.equal([r.status, r.json().detail.reason], [404, 'routine_not_found'], path);
    assert.is(r.json().detail.message, 'No routine 987654; GET /api/routines (or `svc routine list`) lists them.', path);
  }
});

const slowRoutine = (name: string) => routineBody({ name, parameters: { repository: 'dblp', query: 'test', max_results: 1 } });

test('a manual run answers the new execution id at once, through the dispatcher, and leaves a fire record', async () => {
  const { id } = (await svc.request('POST', '/api/routines', routineBody({ name: 'manual' }))).json();
  const r = await svc.request('POST', `/api/routines/${id}/run`);
  assert.is(r.status, 202);
  const run = r.json();
  assert.type(run.execution_id, 'number');
  assert.equal([run.status, run.routine_active, run.note], ['running', true, null]);
  assert.equal(run.window, { date_from: '2025-12-29', date_to: '2026-01-05' });
  assert.is(await settled(svc, run.execution_id), 'completed');
  const routine = (await svc.request('GET', `/api/routines/${id}`)).json();
  assert.equal([routine.last_fire.trigger, routine.last_fire.outcome, routine.last_fire.execution_id], ['manual', 'started', run.execution_id]);
  assert.is(routine.last_execution.id, run.execution_id);
});

test('a manual run works on an inactive routine and says so; the routine stays off the schedule', async () => {
  const { id } = (await svc.request('POST', '/api/routines', routineBody({ name: 'inactive', is_active: false }))).json();
  const run = (await svc.request('POST', `/api/routines/${id}/run`)).json();
  assert.is(run.routine_active, false);
  assert.match(run.note, /inactive/);
  await settled(svc, run.execution_id);
  const routine = (await svc.request('GET', `/api/routines/${id}`)).json();
  assert.is(routine.is_active, false);
  assert.is(routine.schedule.job_id, null);
});

test('a routine already running: a manual run is 409 conflict=routine_already_running with its execution_id; a scheduled fire is recorded skipped', async () => {
  const { id } = (await svc.request('POST', '/api/routines', slowRoutine('busy'))).json();
  const first = (await svc.request('POST', `/api/routines/${id}/run`)).json();
  const again = await svc.request('POST', `/api/routines/${id}/run`);
  assert.is(again.status, 409);
  const detail = again.json().detail;
  assert.equal([detail.conflict, detail.execution_id, detail.reason], ['routine_already_running', first.execution_id, 'routine_already_running']);
  const read = (await svc.request('GET', `/api/routines/${id}`)).json();
  assert.is(read.running_execution_id, first.execution_id);

  fake.set('2026-01-05T06:00:01Z');
  const outcome = svc.scheduler!.tick().find((o) => o.routineId === id)!;
  assert.is(outcome.fired!.outcome, 'skipped');
  assert.is(outcome.fired!.executionId, first.execution_id);
  const routine = (await svc.request('GET', `/api/routines/${id}`)).json();
  assert.is(routine.missed_fire_details[0].outcome, 'skipped');
  assert.match(routine.missed_fire_details[0].reason, /routine_already_running/);
  await settled(svc, first.execution_id);
  fake.set('2026-01-05T05:59:00Z');
});

test('restarting a routine\'s finished run while the routine runs again is the same conflict; once it ends, the restart runs', async () => {
  const { id } = (await svc.request('POST', '/api/routines', slowRoutine('restart-busy'))).json();
  const done = (await svc.request('POST', `/api/routines/${id}/run`)).json().execution_id;
  await settled(svc, done);
  const running = (await svc.request('POST', `/api/routines/${id}/run`)).json().execution_id;
  const refused = await svc.request('POST', `/api/executions/${done}/restart`);
  assert.is(refused.status, 409);
  assert.equal([refused.json().detail.conflict, refused.json().detail.execution_id], ['routine_already_running', running]);
  await settled(svc, running);
  const restarted = await svc.request('POST', `/api/executions/${done}/restart`);
  assert.is(restarted.status, 202, restarted.text);
  await settled(svc, restarted.json().id ?? restarted.json().execution_id);
});

test('with no free slot a fire queues up to routine_fire_queue_limit, the overflow is recorded, and the queued one starts when a slot frees', async () => {
  svc.ctx.db.prepare('DELETE FROM scheduler_jobs').run(); // only this test's routines are due
  const set = await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 1 });
  assert.is(set.status, 200, set.text);
  fake.set('2026-01-06T05:59:00Z');
  const a = (await svc.request('POST', '/api/routines', routineBody({ name: 'queued' }))).json().id;
  const b = (await svc.request('POST', '/api/routines', routineBody({ name: 'overflow' }))).json().id;
  const blocker = await svc.request('POST', '/api/search/dive', { repository: 'dblp', query: 'test', max_results: 1 });
  assert.is(blocker.status, 202);

  fake.set('2026-01-06T06:00:00Z');
  const outcomes = svc.scheduler!.tick();
  const byRoutine = Object.fromEntries(outcomes.map((o) => [o.routineId, o.fired!]));
  assert.is(byRoutine[a]!.outcome, 'queued');
  assert.is(byRoutine[b]!.outcome, 'overflow');
  assert.match(byRoutine[b]!.reason!, /routine_fire_queue_limit 1/);
  assert.ok(svc.logLines.some((l) => /not run — overflow/.test(l)), 'never silent: logged');

  const overflowed = (await svc.request('GET', `/api/routines/${b}`)).json();
  assert.equal([overflowed.last_fire.outcome, overflowed.missed_fire_details[0].outcome, overflowed.missed_fire_details[0].ran], ['overflow', 'overflow', false]);
  const active = (await svc.request('GET', '/api/executions/active')).json();
  assert.equal(active.queued_routine_fires, [{ routine_id: a, queued_at_utc: '2026-01-06T06:00:00.000Z', position: 1 }], 'snake_case like every other field');
  assert.equal((await svc.request('GET', '/api/scheduler/jobs')).json().queued_fires, active.queued_routine_fires);
  const queuedRead = (await svc.request('GET', `/api/routines/${a}`)).json();
  assert.is(queuedRead.queued_fire_at_utc, '2026-01-06T06:00:00.000Z');
  const manual = await svc.request('POST', `/api/routines/${a}/run`);
  assert.is(manual.status, 409);
  assert.is(manual.json().detail.conflict, 'routine_already_queued');

  await settled(svc, blocker.json().id);
  const started = await waitFor(async () => {
    const r = (await svc.request('GET', `/api/routines/${a}`)).json();
    return r.last_fire.outcome === 'started' ? r.last_fire : undefined;
  }, 10_000, 'the queued fire to start');
  assert.type(started.execution_id, 'number');
  await settled(svc, started.execution_id);
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 3, routine_fire_queue_limit: 20 });
});

test('a queued fire whose routine is deactivated before a slot frees is dropped, not run', async () => {
  svc.ctx.db.prepare('DELETE FROM scheduler_jobs').run();
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 5 });
  fake.set('2026-01-08T05:59:00Z');
  const a = (await svc.request('POST', '/api/routines', routineBody({ name: 'changed its mind' }))).json().id;
  const blocker = (await svc.request('POST', '/api/search/dive', { repository: 'dblp', query: 'test', max_results: 1 })).json().id;
  fake.set('2026-01-08T06:00:00Z');
  assert.is(svc.scheduler!.tick()[0]!.fired!.outcome, 'queued');
  await svc.request('POST', `/api/routines/${a}/deactivate`);
  await settled(svc, blocker);
  const fire = await waitFor(async () => {
    const r = (await svc.request('GET', `/api/routines/${a}`)).json();
    return r.last_fire.outcome !== 'queued' ? r.last_fire : undefined;
  }, 10_000, 'the queued fire to be settled');
  assert.is(fire.outcome, 'dropped');
  assert.match(fire.reason, /deactivated or deleted/);
  assert.is(svc.ctx.db.prepare('SELECT count(*) FROM executions WHERE routine_id = ?').pluck().get(a), 0);
  assert.equal((await svc.request('GET', '/api/executions/active')).json().queued_routine_fires, []);
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 3, routine_fire_queue_limit: 20 });
});

test('a queue limit of 0 sends every fire without a free slot to overflow', async () => {
  svc.ctx.db.prepare('DELETE FROM scheduler_jobs').run();
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 0 });
  fake.set('2026-01-07T05:59:00Z');
  const a = (await svc.request('POST', '/api/routines', routineBody({ name: 'no queue' }))).json().id;
  const blocker = (await svc.request('POST', '/api/search/dive', { repository: 'dblp', query: 'test', max_results: 1 })).json().id;
  fake.set('2026-01-07T06:00:00Z');
  const [outcome] = svc.scheduler!.tick();
  assert.equal([outcome!.routineId, outcome!.fired!.outcome], [a, 'overflow']);
  await settled(svc, blocker);
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 3, routine_fire_queue_limit: 20 });
});

test('a manual routine run with no free slot is refused like any manual run (429, Retry-After)', async () => {
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 20 });
  const { id } = (await svc.request('POST', '/api/routines', routineBody({ name: 'refused' }))).json();
  const blocker = (await svc.request('POST', '/api/search/dive', { repository: 'dblp', query: 'test', max_results: 1 })).json().id;
  const r = await svc.request('POST', `/api/routines/${id}/run`);
  assert.is(r.status, 429);
  assert.is(r.headers['retry-after'], '5');
  assert.type(r.json().detail, 'string');
  await settled(svc, blocker);
  await svc.request('PUT', '/api/settings/execution', { max_concurrent_executions: 3, routine_fire_queue_limit: 20 });
});

test('deleting a routine while it runs: the run goes on and the answer names it; a new routine never takes the deleted one\'s id (nor its runs)', async () => {
  const { id } = (await svc.request('POST', '/api/routines', slowRoutine('deleted mid-run'))).json();
  const run = (await svc.request('POST', `/api/routines/${id}/run`)).json();
  const gone = await svc.request('DELETE', `/api/routines/${id}`);
  assert.equal(gone.json(), { id, deleted: true, job_removed: true, running_execution_id: run.execution_id });
  assert.is(await settled(svc, run.execution_id), 'completed', 'the run went on');
  const next = (await svc.request('POST', '/api/routines', routineBody({ name: 'came after' }))).json();
  assert.ok(next.id > id, `a new id, not ${id} again`);
  const fresh = (await svc.request('GET', `/api/routines/${next.id}`)).json();
  assert.equal([fresh.last_execution, fresh.running_execution_id], [null, null]);
  assert.is((await svc.request('POST', `/api/routines/${next.id}/run`)).status, 202, 'not blocked by the old run');
  await settled(svc, (await svc.request('GET', `/api/routines/${next.id}`)).json().last_execution.id);
});

test('a fire still queued when svc shuts down is recorded as dropped, not lost', async () => {
  const local = newDirs();
  const clock = fakeClock('2026-01-05T05:59:00Z');
  const one = await startSvc(local, clock, { env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_SOURCE_DBLP_URL: slow.url } });
  await one.request('PUT', '/api/settings/execution', { max_concurrent_executions: 1, routine_fire_queue_limit: 5 });
  const { id } = (await one.request('POST', '/api/routines', routineBody())).json();
  await one.request('POST', '/api/search/dive', { repository: 'dblp', query: 'test', max_results: 1 });
  clock.set('2026-01-05T06:00:00Z');
  assert.is(one.scheduler!.tick()[0]!.fired!.outcome, 'queued');
  await one.close();
  const reader = await startSvc(local, clock, { scheduler: false });
  try {
    const routine = (await reader.request('GET', `/api/routines/${id}`)).json();
    assert.is(routine.last_fire.outcome, 'dropped');
    assert.match(routine.last_fire.reason, /shut down/);
  } finally {
    await reader.close();
    local.cleanup();
  }
});

test.run();
