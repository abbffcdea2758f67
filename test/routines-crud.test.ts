import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { internalErrorPlanned, startTestServer, type TestServer } from './_setup.js';
import { routineBody } from './_scheduler.js';
import { MAX_INTENT_LENGTH, MAX_NAME_LENGTH } from '../src/routines/schema.js';
import { MAX_WINDOW_DAYS } from '../src/routines/parameters.js';
import { MISSED_DETAIL_LIMIT } from '../src/routines/missed.js';
import { insertFire } from '../src/routines/jobs.js';
import { insertExecution } from '../src/executions/repo.js';
import { insertDelivery, insertTarget } from '../src/delivery/repo.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(async () => {
  await t.close();
});

const create = (body: unknown) => t.request('POST', '/api/routines', { body });
const jobOf = (id: number) => t.ctx.db.prepare('SELECT * FROM scheduler_jobs WHERE routine_id = ?').get(id) as any;

test('create answers {id, name}; the read has the defaults, parameters normalized, a job, missed fires and the delivery summary', async () => {
  const r = await create({ name: 'minimal', schedule_cron: '@daily', parameters: { repository: 'arxiv', query: 'graphs' } });
  assert.is(r.status, 201);
  const { id, name, ...rest } = r.json();
  assert.is(name, 'minimal');
  assert.equal(rest, {});
  const routine = (await t.request('GET', `/api/routines/${id}`)).json();
  assert.equal(
    [routine.ai_enabled, routine.ai_settings, routine.email_ai_summary_enabled, routine.email_enabled, routine.intent, routine.is_active, routine.notify_on_complete, routine.storage_settings, routine.entity],
    [false, null, false, false, null, true, false, null, null],
  );
  assert.equal(routine.parameters, {
    repositories: ['arxiv'], query: 'graphs', keywords: [], max_results: 100, ai_enabled: false, ai_settings: null, saved_configuration_id: null, window_days: null, since_last_success: false,
  });
  assert.equal(routine.missed_fires, { count: 0, last_due_at_utc: null });
  assert.equal(routine.missed_fire_details, []);
  assert.equal(routine.delivery_summary, {
    targets_by_channel: { email: 0, folder: 0, webhook: 0, feed: 0 }, enabled_target_count: 0, awaiting_review: 0, last_state: null, last_channel: null,
    last_attempts: null, last_error: null, last_delivered_at_utc: null, target_id: null,
  });
  assert.is(routine.schedule.next_runs.length, 3);
  assert.is(routine.schedule.timezone, 'UTC');
  const job = jobOf(id);
  assert.equal([job.id, job.misfire_grace_seconds, job.next_run_at_utc], [`routine-${id}`, 3600, routine.schedule.next_runs[0]]);
});

test('parameters are validated at create and update with a 422 that names the bad key', async () => {
  const base = { name: 'x', schedule_cron: '0 6 * * *' };
  const cases: [Record<string, unknown>, (string | number)[], RegExp][] = [
    [{ repositories: ['crossref'], query: 'q', colour: 'blue' }, ['body', 'parameters', 'colour'], /Unknown parameter "colour"/],
    [{ repositories: ['crossref'], query: 'q', date_from: '2024-01-01' }, ['body', 'parameters', 'date_from'], /window_days/],
    [{ repositories: ['crossref'], query: 'q', request_id: 'r' }, ['body', 'parameters', 'request_id'], /one submission/],
    [{ repositories: ['crossref'], repository: 'arxiv', query: 'q' }, ['body', 'parameters', 'repository'], /not both/],
    [{ query: 'q' }, ['body', 'parameters', 'repositories'], /Name the sources/],
    [{ repositories: ['crossref', 'nowhere'], query: 'q' }, ['body', 'parameters', 'repositories', 1], /Unknown repository "nowhere"/],
    [{ repository: 'nowhere', query: 'q' }, ['body', 'parameters', 'repository'], /Unknown repository/],
    [{ repositories: ['crossref'] }, ['body', 'parameters', 'query'], /./],
    [{ repositories: ['crossref'], query: 'q', window_days: 0 }, ['body', 'parameters', 'window_days'], /./],
    [{ repositories: ['crossref'], query: 'q', window_days: MAX_WINDOW_DAYS + 1 }, ['body', 'parameters', 'window_days'], /./],
    [{ repositories: ['crossref'], query: 'q', max_results: 10_001 }, ['body', 'parameters', 'max_results'], /./],
    [{ repositories: ['crossref'], query: 'q', saved_configuration_id: 424242 }, ['body', 'parameters', 'saved_configuration_id'], /No saved configuration 424242/],
  ];
  for (const [parameters, loc, msg] of cases) {
    const r = await create({ ...base, parameters });
    assert.is(r.status, 422, JSON.stringify(parameters));
    const issue = r.json().detail[0];
    assert.equal(issue.loc, loc, JSON.stringify(parameters));
    assert.match(issue.msg, msg);
  }
  const secret = await create({ ...base, parameters: { repositories: ['crossref'], query: 'q', ephemeral_credentials: { openalex_api_key: 'sekret-value' } } });
  assert.is(secret.status, 422);
  assert.equal(secret.json().detail[0].loc, ['body', 'parameters', 'ephemeral_credentials']);
  assert.not.match(secret.text, /sekret-value/);
  assert.is((await create({ ...base, parameters: ['crossref'] })).json().detail[0].loc.join('.'), 'body.parameters');
  const { id } = (await create({ ...base, parameters: { repositories: ['crossref'], query: 'q' } })).json();
  const bad = await t.request('PUT', `/api/routines/${id}`, { body: { parameters: { repositories: ['crossref'], query: 'q', window: 3 } } });
  assert.equal([bad.status, bad.json().detail[0].loc], [422, ['body', 'parameters', 'window']]);
});

test('an invalid cron is a 422 that says what is wrong; unknown fields and limits are refused', async () => {
  const params = { repositories: ['crossref'], query: 'q' };
  const bad = [
    ['0 0 6 * * *', /no seconds field/],
    ['61 6 * * *', /minute/i],
    ['every day', /field/],
    ['CRON_TZ=Atlantis/Lost 0 6 * * *', /Unknown time zone/],
    ['@reboot', /not a time/],
    ['0 6 31 2 *', /never fires/],
  ] as const;
  for (const [cron, msg] of bad) {
    const r = await create({ name: 'c', schedule_cron: cron, parameters: params });
    assert.is(r.status, 422, cron);
    const issue = r.json().detail[0];
    assert.equal([issue.loc, issue.type], [['body', 'schedule_cron'], 'cron_invalid']);
    assert.match(issue.msg, msg, cron);
  }
  const unknown = await create({ name: 'c', schedule_cron: '@daily', parameters: params, schedule: '@daily' });
  assert.equal([unknown.status, unknown.json().detail[0].loc], [422, ['body', 'schedule']]);
  assert.is((await create({ name: 'n'.repeat(MAX_NAME_LENGTH + 1), schedule_cron: '@daily', parameters: params })).status, 422);
  assert.is((await create({ name: 'n'.repeat(MAX_NAME_LENGTH), schedule_cron: '@daily', parameters: params })).status, 201);
  assert.is((await create({ name: 'i', schedule_cron: '@daily', parameters: params, intent: 'i'.repeat(MAX_INTENT_LENGTH + 1) })).status, 422);
  assert.is((await create({ name: 'i', schedule_cron: '@daily', parameters: params, intent: '   ' })).status, 422);
  const zoned = (await create({ name: 'tz', schedule_cron: 'CRON_TZ=Europe/Berlin 0 6 * * 1-5', parameters: params })).json();
  assert.is((await t.request('GET', `/api/routines/${zoned.id}`)).json().schedule.timezone, 'Europe/Berlin');
});

test('an entity with a bad profile id, mode or absent profile is 400, never stored', async () => {
  const base = { name: 'e', schedule_cron: '@daily', parameters: { repositories: ['crossref'], query: 'q' } };
  const cases: [unknown, string][] = [
    [{ profile_id: 1, mode: 'everything' }, 'invalid_entity_mode'],
    [{ profile_id: 'one', mode: 'new_papers' }, 'invalid_entity_profile'],
    [{ profile_id: -3, mode: 'retractions' }, 'invalid_entity_profile'],
    [{ profile_id: 1, mode: 'new_papers', kind: 'person' }, 'invalid_entity'],
    ['profile 1', 'invalid_entity'],
    [{ profile_id: 1, mode: 'new_papers' }, 'unknown_profile'],
  ];
  const before = t.ctx.db.prepare('SELECT count(*) FROM routines').pluck().get();
  for (const [entity, reason] of cases) {
    const r = await create({ ...base, entity });
    assert.is(r.status, 400, JSON.stringify(entity));
    assert.is(r.json().detail.reason, reason);
  }
  assert.match((await create({ ...base, entity: { profile_id: 7, mode: 'new_papers' } })).json().detail.message, /No watch profile 7/);
  const group = (await t.request('POST', '/api/profiles', { body: { name: 'ATLAS Collaboration', kind: 'group' } })).json();
  const wrongKind = await create({ ...base, entity: { profile_id: group.id, mode: 'new_papers' } });
  assert.equal([wrongKind.status, wrongKind.json().detail.reason], [400, 'invalid_entity_kind']);
  assert.is(t.ctx.db.prepare('SELECT count(*) FROM routines').pluck().get(), before);
  const person = (await t.request('POST', '/api/profiles', { body: { name: 'Josiah Carberry', orcid: '0000-0002-1825-0097' } })).json();
  const following = await create({ ...base, name: 'follows', entity: { profile_id: person.id, mode: 'retractions' } });
  assert.is(following.status, 201);
  assert.equal((await t.request('GET', `/api/routines/${following.json().id}`)).json().entity, { profile_id: person.id, mode: 'retractions' });
  assert.is((await t.request('DELETE', `/api/profiles/${person.id}`)).status, 409, 'a followed profile is not deleted from under its routine');
  assert.is((await create({ ...base, entity: null })).status, 201);
  const { id } = (await create(base)).json();
  assert.is((await t.request('PUT', `/api/routines/${id}`, { body: { entity: { profile_id: 99, mode: 'retractions' } } })).status, 400);
});

test('update: every field optional and nullable, no defaults; null clears what may be empty and leaves the rest', async () => {
  const { id } = (await create(routineBody({ name: 'before', notify_on_complete: true }))).json();
  const jobBefore = jobOf(id);
  let r = await t.request('PUT', `/api/routines/${id}`, { body: { name: null, intent: null, schedule_cron: null, notify_on_complete: null } });
  assert.is(r.status, 200, r.text);
  let routine = r.json();
  assert.equal([routine.name, routine.intent, routine.schedule_cron, routine.notify_on_complete], ['before', null, '0 6 * * *', true]);
  assert.equal(jobOf(id).next_run_at_utc, jobBefore.next_run_at_utc);
  r = await t.request('PUT', `/api/routines/${id}`, { body: {} });
  assert.is(r.status, 200);
  assert.is(r.json().email_enabled, false, 'an empty update changes nothing (no defaults)');
  routine = (await t.request('PUT', `/api/routines/${id}`, { body: { schedule_cron: '30 7 * * *', intent: 'ecology of coral reefs', email_enabled: true } })).json();
  assert.equal([routine.schedule_cron, routine.intent, routine.email_enabled], ['30 7 * * *', 'ecology of coral reefs', true]);
  assert.match(jobOf(id).next_run_at_utc, /T07:30:00\.000Z$/);
  routine = (await t.request('PUT', `/api/routines/${id}`, { body: { is_active: false } })).json();
  assert.is(routine.is_active, false);
  assert.is(jobOf(id), undefined, 'inactive: off the schedule');
  assert.is((await t.request('PUT', '/api/routines/99999', { body: {} })).status, 404);
});

test('activate and deactivate toggle is_active; deactivating keeps the routine and its runs and takes it off the schedule', async () => {
  const { id } = (await create(routineBody({ name: 'toggle' }))).json();
  t.ctx.db
    .prepare(`INSERT INTO executions (type, status, routine_id, query, repositories_json, parameters_json, started_at_utc, finished_at_utc) VALUES ('routine', 'completed', ?, 'q', '[]', '{}', ?, ?)`)
    .run(id, t.ctx.nowIso(), t.ctx.nowIso());
  const off = await t.request('POST', `/api/routines/${id}/deactivate`);
  assert.equal(off.json(), { id, is_active: false });
  assert.is(jobOf(id), undefined);
  const routine = (await t.request('GET', `/api/routines/${id}`)).json();
  assert.equal([routine.is_active, routine.last_execution.status, routine.schedule.next_runs], [false, 'completed', []]);
  assert.is((await t.request('GET', '/api/routines?active_only=true')).json().routines.some((r: any) => r.id === id), false);
  assert.is((await t.request('GET', '/api/routines')).json().routines.some((r: any) => r.id === id), true);
  const on = (await t.request('POST', `/api/routines/${id}/activate`)).json();
  assert.equal([on.id, on.is_active], [id, true]);
  assert.is(jobOf(id).next_run_at_utc, on.next_run_at_utc);
  assert.equal((await t.request('POST', `/api/routines/${id}/activate`)).json().next_run_at_utc, on.next_run_at_utc, 'idempotent');
});

test('delete removes the routine and its job in one transaction', async () => {
  const { id } = (await create(routineBody({ name: 'doomed' }))).json();
  assert.ok(jobOf(id));
  // A routine row that refuses to go: the job must stay too (nothing half-deleted).
  t.ctx.db.exec(`CREATE TEMP TRIGGER refuse_delete BEFORE DELETE ON routines WHEN old.name = 'doomed' BEGIN SELECT RAISE(ABORT, 'refused by test'); END`);
  internalErrorPlanned(/refused by test/);
  const failed = await t.request('DELETE', `/api/routines/${id}`);
  assert.is(failed.status, 500);
  assert.ok(jobOf(id), 'the job survived the failed delete');
  t.ctx.db.exec('DROP TRIGGER refuse_delete');
  const r = await t.request('DELETE', `/api/routines/${id}`);
  assert.equal(r.json(), { id, deleted: true, job_removed: true, running_execution_id: null });
  assert.is(jobOf(id), undefined);
  assert.is((await t.request('GET', `/api/routines/${id}`)).status, 404);
  assert.is((await t.request('DELETE', `/api/routines/${id}`)).status, 404);
  assert.is((await t.request('GET', '/api/routines/abc')).status, 422);
});

test(`missed_fire_details lists the newest ${MISSED_DETAIL_LIMIT} off-schedule fires; the count covers them all`, async () => {
  const { id } = (await create(routineBody({ name: 'many misses' }))).json();
  for (let i = 0; i < MISSED_DETAIL_LIMIT + 5; i++) {
    const due = new Date(Date.UTC(2025, 0, 1 + i, 6)).toISOString();
    insertFire(t.ctx.db, { routineId: id, trigger: 'schedule', outcome: 'missed', firstDueAtUtc: due, dueAtUtc: due, fireCount: 2, reason: 'test' }, t.ctx.nowIso());
  }
  const routine = (await t.request('GET', `/api/routines/${id}`)).json();
  assert.is(routine.missed_fires.count, 2 * (MISSED_DETAIL_LIMIT + 5));
  assert.is(routine.missed_fire_details.length, MISSED_DETAIL_LIMIT);
  assert.is(routine.missed_fire_details[0].last_due_at_utc, new Date(Date.UTC(2025, 0, MISSED_DETAIL_LIMIT + 5, 6)).toISOString());
  assert.not.ok('missed_fire_details' in (await t.request('GET', '/api/routines')).json().routines.find((r: any) => r.id === id), 'lists carry the count only');
});

test('the calendar shows upcoming fires of active routines, at most 100 per routine', async () => {
  const { id } = (await create(routineBody({ name: 'often', schedule_cron: '*/5 * * * *' }))).json();
  const now = Date.now();
  const events = (await t.request('GET', `/api/calendar/events?from=${new Date(now).toISOString()}&to=${new Date(now + 3 * 86_400_000).toISOString()}`)).json().events;
  const mine = events.filter((e: any) => e.kind === 'routine_fire' && e.routine_id === id);
  assert.is(mine.length, 100);
  assert.is(mine[0].status, 'scheduled');
  await t.request('POST', `/api/routines/${id}/deactivate`);
  const after = (await t.request('GET', '/api/calendar/events')).json().events;
  assert.is(after.filter((e: any) => e.routine_id === id && e.kind === 'routine_fire').length, 0);
});

test('the list reads each routine as its own read does (its facts gathered for all routines at once are not mixed up between them)', async () => {
  const db = t.ctx.db;
  const now = t.ctx.nowIso();
  const ids: number[] = [];
  for (const [i, cron] of ['0 6 * * *', 'CRON_TZ=Europe/Berlin 0 8 * * 1', '*/30 * * * *', '@monthly'].entries()) {
    ids.push((await create({ name: `listed ${i}`, schedule_cron: cron, parameters: { repositories: ['arxiv'], query: `q${i}` } })).json().id);
  }
  const [a, b, c, d] = ids as [number, number, number, number];
  const run = (routineId: number, status: string, startedAt: string) => {
    const spec = { type: 'routine', repositories: ['arxiv'], query: 'q', keywords: [], dateFrom: null, dateTo: null, maxResults: 100, aiEnabled: false, aiSettings: null, requestId: null, savedConfigurationId: null, routineId, author: null };
    const id = insertExecution(db, spec as never, { pid: process.pid, runtimeId: t.ctx.runtimeId, role: 'server' }, startedAt, null, null);
    db.prepare('UPDATE executions SET status = ?, last_seen_at_utc = ?, result_count = ? WHERE id = ?').run(status, now, routineId, id);
    return id;
  };
  // a: two runs (the later start is the last run) and deliveries in several states; b: a run going on; c: missed fires; d: off the schedule.
  run(a, 'completed', '2026-01-02T00:00:00.000Z');
  const lastOfA = run(a, 'failed', '2026-01-03T00:00:00.000Z');
  run(b, 'running', now);
  const target = insertTarget(db, { routineId: a, channel: 'webhook', enabled: true, mode: 'review', target: 'http://127.0.0.1:9/hook', secret: 's' }, now);
  insertTarget(db, { routineId: c, channel: 'folder', enabled: false, mode: 'automatic', target: '/tmp/x', secret: null }, now);
  for (const state of ['delivered', 'awaiting_review', 'awaiting_review', 'failed'] as const) {
    insertDelivery(db, { routineId: a, executionId: run(a, 'completed', '2026-01-01T00:00:00.000Z'), targetId: target, origin: 'target', channel: 'webhook', mode: 'review', state }, now);
  }
  insertFire(db, { routineId: c, trigger: 'schedule', outcome: 'missed', firstDueAtUtc: '2026-01-01T06:00:00.000Z', dueAtUtc: '2026-01-02T06:00:00.000Z', fireCount: 2 }, now);
  await t.request('POST', `/api/routines/${d}/deactivate`);
  const listed = (await t.request('GET', '/api/routines')).json().routines as any[];
  for (const id of ids) {
    const { missed_fire_details, ...own } = (await t.request('GET', `/api/routines/${id}`)).json();
    assert.ok(Array.isArray(missed_fire_details));
    assert.equal(listed.find((r) => r.id === id), own, `routine ${id}`);
  }
  const byId = new Map(listed.map((r) => [r.id, r]));
  assert.is(byId.get(a).last_execution.id, lastOfA);
  assert.equal([byId.get(a).delivery_summary.awaiting_review, byId.get(a).delivery_summary.last_state, byId.get(a).delivery_summary.targets_by_channel.webhook], [2, 'failed', 1]);
  assert.is(byId.get(b).running_execution_id, byId.get(b).last_execution.id);
  assert.equal([byId.get(c).missed_fires.count, byId.get(c).delivery_summary.enabled_target_count, byId.get(c).last_execution], [2, 0, null]);
  assert.equal([byId.get(d).is_active, byId.get(d).schedule.next_runs, byId.get(d).running_execution_id], [false, [], null]);
});

test.run();
