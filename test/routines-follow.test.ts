/**
 * A routine that follows a watch profile in mode "retractions": each fire
 * still searches for the person's papers, then checks the papers matched to
 * the profile for lifecycle notices, and reports (and delivers) the notices
 * first recorded since it last reported, not the new papers. Loopback Crossref
 * serves the search (a recorded /works answer) and the per-DOI lookups.
 *
 * The retraction record is the recorded PLOS work with its `updated-by` entry
 * turned from a correction into a retraction (type and label changed, nothing
 * else): no recorded Crossref work carrying a retraction was at hand, and the
 * shape of an `updated-by` retraction entry is the same as a correction's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { bareRecord } from './_corpus.js';
import { addTarget, deliveriesWhen, runRoutine } from './_delivery.js';
import { serverWithSources } from './_executions.js';
import { askRoutine, type Prompter } from '../commands/routine/ask.js';
import { fixture, waitFor, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub, type Stub } from './_stub.js';

const RETRACTED_DOI = '10.1371/journal.pone.0033693';
const FAILING_DOI = '10.3389/fgene.2017.00147';
const NOTICE = 'https://doi.org/10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda';

function retractionRecord(): string {
  const work = JSON.parse(fixture('crossref/work-10.1371_journal.pone.0033693-updated-by-correction.json').toString('utf8'));
  work.message['updated-by'] = work.message['updated-by'].map((u: any) => ({ ...u, type: 'retraction', label: 'Retraction' }));
  return JSON.stringify(work);
}

let t: TestServer;
let crossref: Stub;
let folder: string;
let feeds: string;
const ids: Record<string, number> = {};


test.before(async () => {
  crossref = await startStub([
    { path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity },
    { path: `/works/${RETRACTED_DOI}`, body: retractionRecord(), times: Infinity },
    { path: `/works/${FAILING_DOI}`, status: 500, body: '{"status":"error"}', times: Infinity },
  ]);
  t = await serverWithSources({ crossref: crossref.url });
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-follow-folder-'));
  feeds = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-follow-feed-'));
  // The followed people's papers, already in the corpus (an earlier search found them).
  const stored = mergeRecords(
    t.ctx.db,
    [
      bareRecord({ source: 'crossref', nativeId: RETRACTED_DOI, doi: RETRACTED_DOI, title: 'Methylphenidate Exposure Induces Dopamine Neuron Loss', authors: [{ name: 'Shankar Sadasivan', given: 'Shankar', family: 'Sadasivan' }], type: 'article' }),
      bareRecord({ source: 'crossref', nativeId: FAILING_DOI, doi: FAILING_DOI, title: 'A genetics paper', authors: [{ name: 'Wilhelmina Quatermass', given: 'Wilhelmina', family: 'Quatermass' }], type: 'article' }),
    ].map((record, rank) => ({ record, rank })),
    t.ctx.nowIso(),
  );
  ids.failing = stored[1]!.documentId;
});
// A test that turns run-completed notifications on leaves them off for the next, even when it fails.
test.after.each(async () => {
  await t.request('PUT', '/api/settings/notifications', { body: { settings: { on_complete: false } } });
});
test.after(async () => {
  await t.close();
  await crossref.close();
  fs.rmSync(folder, { recursive: true, force: true });
  fs.rmSync(feeds, { recursive: true, force: true });
});

async function followingRoutine(name: string, person: string, mode: 'new_papers' | 'retractions'): Promise<number> {
  const profile = (await t.request('POST', '/api/profiles', { body: { name: person } })).json();
  const r = await t.request('POST', '/api/routines', {
    body: { name, schedule_cron: '@daily', is_active: false, parameters: { repositories: ['crossref'], query: '', max_results: 2 }, entity: { profile_id: profile.id, mode } },
  });
  assert.is(r.status, 201, r.text);
  return r.json().id;
}

const lookups = (doi: string) => crossref.requests.filter((r) => r.path === `/works/${doi}`).length;
const report = async (executionId: number) => (await t.request('GET', `/api/executions/${executionId}/report`)).json().text as string;

test('a retractions fire checks the person\'s papers and reports and delivers the retraction with its notice', async () => {
  const routineId = await followingRoutine('sadasivan retractions', 'Shankar Sadasivan', 'retractions');
  await addTarget(t, routineId, { channel: 'folder', target: folder });
  const feed = await addTarget(t, routineId, { channel: 'feed', target: feeds });
  const notes: any[] = [];
  const off = t.ctx.bus.on('notification', (n: any) => notes.push(n));
  assert.is((await t.request('PUT', '/api/settings/notifications', { body: { settings: { on_complete: true } } })).status, 200);
  const executionId = await runRoutine(t, routineId);
  // The "run completed" notification speaks of the notices, as the digest does, not of results.
  const note = await waitFor(() => notes.find((n) => n.execution_id === executionId), 5000, 'the notification');
  assert.equal([note.kind, note.message], ['run_completed', "sadasivan retractions: 1 new notice on Shankar Sadasivan's papers (1 retraction, 0 corrections or new versions)."]);
  assert.is((await t.request('GET', `/api/executions/${executionId}`)).json().status, 'completed');
  assert.ok(crossref.requests.some((r) => r.path === '/works' && r.query.get('query.author') === 'Shankar Sadasivan'), 'the fire still asks for the person\'s papers');
  assert.is(lookups(RETRACTED_DOI), 1, 'the matched paper was looked up');
  assert.is(lookups(FAILING_DOI), 0, 'another person\'s paper was not');

  const events = (await t.request('GET', '/api/lifecycle')).json().events;
  assert.equal(events.map((e: any) => [e.kind, e.notice_url]), [['retraction', NOTICE]], 'the event is recorded');

  // The single-execution read carries the notices as the bundle does, and svc executions show says them.
  const read = (await t.request('GET', `/api/executions/${executionId}`)).json();
  assert.equal([read.follow.profile_name, read.follow.mode, read.follow.checked], ['Shankar Sadasivan', 'retractions', 1]);
  assert.equal(read.follow.events.map((e: any) => [e.kind, e.notice_url, e.doi]), [['retraction', NOTICE, RETRACTED_DOI]]);
  const shown = await runCliInProcess(['executions', 'show', String(executionId)], { env: t.dirs.env });
  assert.match(shown.stdout, /^Lifecycle notices on Shankar Sadasivan's papers \(watch profile \d+, mode retractions\)$/m);
  assert.match(shown.stdout, /^ {2}New since the routine last reported: 1 retraction, 0 corrections or new versions$/m);
  assert.ok(shown.stdout.includes(`1. Retraction: Methylphenidate Exposure Induces Dopamine Neuron Loss. doi:${RETRACTED_DOI}`) && shown.stdout.includes(`notice ${NOTICE} (`), shown.stdout);
  assert.equal(JSON.parse((await runCliInProcess(['--json', 'executions', 'show', String(executionId)], { env: t.dirs.env })).stdout).follow, read.follow);

  const text = await report(executionId);
  assert.match(text, /Lifecycle notices on Shankar Sadasivan's papers \(watch profile \d+, mode retractions\)/);
  assert.match(text, /Checked 1 of the 1 papers matched to the profile/);
  assert.match(text, /1 retraction, 0 corrections or new versions/);
  assert.match(text, /1\. Retraction: Methylphenidate Exposure Induces Dopamine Neuron Loss\. doi:10\.1371\/journal\.pone\.0033693/);
  assert.ok(text.includes(`notice ${NOTICE} (2012-05-08, from crossref; matched by name only`), text);

  await deliveriesWhen(t, executionId, (d) => d.state === 'delivered');
  const file = fs.readdirSync(folder).find((f) => f.includes(`-execution-${executionId}-`))!;
  const bundle = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
  assert.is(bundle.follow.profile_name, 'Shankar Sadasivan');
  assert.equal(bundle.follow.events.map((e: any) => [e.kind, e.notice_url, e.doi]), [['retraction', NOTICE, RETRACTED_DOI]]);
  assert.ok(bundle.report_text.includes('Lifecycle notices on Shankar Sadasivan'));
  const atom = fs.readFileSync(path.join(feeds, `svc-feed-${feed.id}.atom`), 'utf8');
  assert.match(atom, /<title>sadasivan retractions: 1 new notice on Shankar Sadasivan&#39;s papers \(run \d+\)<\/title>/);
  assert.ok(atom.includes(`Retraction: Methylphenidate Exposure Induces Dopamine Neuron Loss.`) && atom.includes(NOTICE), atom);
  assert.not.match(atom, /No new papers this run/, 'the digest\'s news is the notices, not the new papers');

  // The next fire checks again (the least recently tried first) but reports nothing twice.
  const second = await runRoutine(t, routineId);
  assert.is(lookups(RETRACTED_DOI), 2);
  assert.match(await report(second), /New since the routine last reported: 0 retractions, 0 corrections or new versions/);
  await deliveriesWhen(t, second, (d) => d.state === 'delivered');
  const again = JSON.parse(fs.readFileSync(path.join(folder, fs.readdirSync(folder).find((f) => f.includes(`-execution-${second}-`))!), 'utf8'));
  assert.equal(again.follow.events, []);
  const quiet = await waitFor(() => notes.find((n) => n.execution_id === second), 5000, 'the second notification');
  assert.is(quiet.message, "sadasivan retractions: no new notices on Shankar Sadasivan's papers.");
  off();
});

test('only mode retractions checks: a new_papers fire of the same person asks the search alone and reports papers', async () => {
  const profile = (await t.request('POST', '/api/profiles', { body: { name: 'S. Sadasivan' } })).json();
  const create = async (mode: string) =>
    (await t.request('POST', '/api/routines', { body: { name: `s ${mode}`, schedule_cron: '@daily', is_active: false, parameters: { repositories: ['crossref'], query: '', max_results: 2 }, entity: { profile_id: profile.id, mode } } })).json().id;
  const before = crossref.requests.length;
  const notes: any[] = [];
  const off = t.ctx.bus.on('notification', (n: any) => notes.push(n));
  await t.request('PUT', '/api/settings/notifications', { body: { settings: { on_complete: true } } });
  const papers = await runRoutine(t, await create('new_papers'));
  const note = await waitFor(() => notes.find((n) => n.execution_id === papers), 5000, 'the notification');
  assert.match(note.message, /^s new_papers: \d+ results? \(\d+ new\)\.$/, 'a new_papers fire still speaks of results');
  off();
  assert.is((await t.request('GET', `/api/executions/${papers}`)).json().status, 'completed');
  assert.equal(crossref.requests.slice(before).map((r) => r.path), ['/works'], 'only the search was asked');
  assert.not.match(await report(papers), /Lifecycle notices/);
  assert.is((await t.request('GET', `/api/executions/${papers}`)).json().follow, null, 'no follow block for a new_papers fire');
  // With no words, the search reads as what it is, not as an empty query.
  assert.match(await report(papers), /^Query:     everything by S\. Sadasivan$/m);
  const log = (await t.request('GET', `/api/executions/${papers}/log`)).json().events;
  assert.match(log[0].message, /^routine everything by S\. Sadasivan on crossref/);
  const retractions = await runRoutine(t, await create('retractions'));
  assert.equal(crossref.requests.slice(before).map((r) => r.path), ['/works', '/works', `/works/${RETRACTED_DOI}`], 'the same person in mode retractions: search, then the lookup');
  assert.match(await report(retractions), /Lifecycle notices on S\. Sadasivan's papers/);
});

test('a lookup that fails is recorded and the run keeps the status its search gave it', async () => {
  const routineId = await followingRoutine('quatermass retractions', 'Wilhelmina Quatermass', 'retractions');
  const executionId = await runRoutine(t, routineId);
  assert.ok(lookups(FAILING_DOI) >= 1);
  const detail = (await t.request('GET', `/api/executions/${executionId}`)).json();
  assert.equal([detail.status, detail.error ?? null], ['completed', null]);
  const text = await report(executionId);
  assert.match(text, /Checked 0 of the 1 papers matched to the profile .*; 1 could not be checked and are tried again in turn\./);
  assert.match(text, /could not check doi:10\.3389\/fgene\.2017\.00147: .*crossref: upstream_failure: HTTP 500/, text);
  const paper = (await t.request('GET', `/api/documents/${ids.failing}/lifecycle`)).json();
  assert.equal([paper.checked_at_utc, paper.last_attempt.outcome], [null, 'failed'], 'no successful check is recorded');
});

test('a paper whose lookups always fail takes its turn: it never keeps the person\'s other papers from being checked again', async () => {
  const OK_DOI = '10.5555/follow.rotate.ok';
  const BROKEN_DOI = '10.5555/follow.rotate.broken';
  crossref.expect({ path: `/works/${OK_DOI}`, body: JSON.stringify({ status: 'ok', 'message-type': 'work', message: { DOI: OK_DOI, title: ['A paper checked fine'] } }), times: Infinity });
  crossref.expect({ path: `/works/${BROKEN_DOI}`, status: 500, body: '{"status":"error"}', times: Infinity });
  const authors = [{ name: 'Rota Turner', given: 'Rota', family: 'Turner' }];
  // The broken paper first (the lower id): never-tried papers go by id.
  const [broken, ok] = mergeRecords(
    t.ctx.db,
    [
      bareRecord({ source: 'crossref', nativeId: BROKEN_DOI, doi: BROKEN_DOI, title: 'A paper whose lookups fail', authors, type: 'article' }),
      bareRecord({ source: 'crossref', nativeId: OK_DOI, doi: OK_DOI, title: 'A paper checked fine', authors, type: 'article' }),
    ].map((record, rank) => ({ record, rank })),
    t.ctx.nowIso(),
  );
  const routineId = await followingRoutine('turner retractions', 'Rota Turner', 'retractions');
  const limit = t.ctx.tuning.followCheckLimit;
  t.ctx.tuning.followCheckLimit = 1; // one paper a fire: the order decides which
  try {
    const outcome = async (id: number) => (await t.request('GET', `/api/documents/${id}/lifecycle`)).json().last_attempt?.outcome ?? null;
    const first = await runRoutine(t, routineId);
    assert.equal([await outcome(broken!.documentId), await outcome(ok!.documentId)], ['failed', null], 'never tried first, by id');
    assert.match(await report(first), /Checked 0 of the 2 papers matched to the profile \(up to 1 a run, least recently tried first\); 1 could not be checked and are tried again in turn; 1 wait for the next runs\./);
    await runRoutine(t, routineId);
    assert.is(lookups(OK_DOI), 1, 'then the paper never tried');
    await runRoutine(t, routineId);
    const fourth = await runRoutine(t, routineId);
    assert.is(lookups(OK_DOI), 2, 'the paper that always fails took one turn, then the other paper was checked again');
    assert.match(await report(fourth), /Checked 1 of the 2 papers matched to the profile/);
    assert.is(await outcome(broken!.documentId), 'failed');
  } finally {
    t.ctx.tuning.followCheckLimit = limit;
  }
});

test('a routine deleted while its fire checks the papers: the run completes and says the notices were not kept for it', async () => {
  const SLOW_DOI = '10.5555/follow.deleted.mid.fire';
  crossref.expect({ path: `/works/${SLOW_DOI}`, body: retractionRecord(), delayMs: 600, times: Infinity });
  const [slow] = mergeRecords(t.ctx.db, [{ record: bareRecord({ source: 'crossref', nativeId: SLOW_DOI, doi: SLOW_DOI, title: 'A paper checked slowly', authors: [{ name: 'Dora Deleted', given: 'Dora', family: 'Deleted' }], type: 'article' }), rank: 0 }], t.ctx.nowIso());
  const routineId = await followingRoutine('deleted mid fire', 'Dora Deleted', 'retractions');
  const started = await t.request('POST', `/api/routines/${routineId}/run`);
  assert.is(started.status, 202, started.text);
  const executionId = started.json().execution_id as number;
  await waitFor(() => lookups(SLOW_DOI) > 0, 10_000, 'the lookup');
  assert.is((await t.request('DELETE', `/api/routines/${routineId}`)).json().running_execution_id, executionId);
  await waitFor(async () => (await t.request('GET', `/api/executions/${executionId}`)).json().status !== 'running', 15_000, 'the run');
  assert.is((await t.request('GET', `/api/executions/${executionId}`)).json().status, 'completed');
  const log = (await t.request('GET', `/api/executions/${executionId}/log`)).json().events.map((e: any) => e.message).join('\n');
  assert.not.match(log, /FOREIGN KEY|check of the followed profile's papers failed/, log);
  assert.match(log, /Lifecycle check: 1 checked; the routine was deleted during the run, so no notice was kept as reported for it/);
  const text = await report(executionId);
  assert.match(text, /Checked 1 of the 1 papers matched to the profile/);
  assert.match(text, /^ {2}The routine was deleted during the run, so no notice was kept as reported for it \(`svc lifecycle` lists the recorded ones\)\.$/m, text);
  const paper = (await t.request('GET', `/api/documents/${slow!.documentId}/lifecycle`)).json();
  assert.equal(paper.events.map((e: any) => e.kind), ['retraction'], 'what the check found is recorded all the same');
});

const svc = (...args: string[]) => runCliInProcess(args, { env: t.dirs.env });
const oneLine = (r: { stderr: string }) => r.stderr.trim().split('\n').length === 1;

test('svc routine add --follow, edit --follow-mode | --no-follow | --follow; show and list say who is followed and how', async () => {
  const person = (await t.request('POST', '/api/profiles', { body: { name: 'Ada Follower' } })).json();
  const add = await svc('--json', 'routine', 'add', '--name', 'follow ada', '--schedule', '@daily', '--sources', 'crossref', '--follow', String(person.id), '--follow-mode', 'retractions', '--inactive');
  assert.is(add.code, 0, add.stderr);
  const created = JSON.parse(add.stdout);
  assert.equal([created.entity, created.parameters.query], [{ profile_id: person.id, mode: 'retractions' }, ''], 'no --query: everything by that person');
  const id = String(created.id);
  const show = await svc('routine', 'show', id);
  assert.ok(show.stdout.includes(`  follows    Ada Follower (watch profile ${person.id}), mode retractions: each fire also checks their papers for retractions, corrections and new versions`), show.stdout);
  assert.match(show.stdout, /search {5}everything by the followed person on crossref/);
  const list = await svc('routine', 'list');
  assert.match(list.stdout, /NAME +FOLLOWS/);
  assert.match(list.stdout, new RegExp(`follow ada +Ada Follower \\(watch profile ${person.id}\\), mode retractions`));

  const mode = await svc('--json', 'routine', 'edit', id, '--follow-mode', 'new_papers');
  assert.equal(JSON.parse(mode.stdout).entity, { profile_id: person.id, mode: 'new_papers' });
  const noQuery = await svc('routine', 'edit', id, '--no-follow');
  assert.equal([noQuery.code, oneLine(noQuery)], [2, true]);
  assert.match(noQuery.stderr, /give --query with --no-follow/);
  const cleared = await svc('--json', 'routine', 'edit', id, '--no-follow', '--query', 'ecology');
  assert.is(cleared.code, 0, cleared.stderr);
  assert.is(JSON.parse(cleared.stdout).entity, null);
  assert.not.match((await svc('routine', 'show', id)).stdout, /follows/);
  const again = await svc('--json', 'routine', 'edit', id, '--follow', String(person.id));
  assert.equal(JSON.parse(again.stdout).entity, { profile_id: person.id, mode: 'new_papers' });
});

test('refused with exit 2 and one line naming the flag: unknown or group profile, bad mode, no source that searches by author', async () => {
  const group = (await t.request('POST', '/api/profiles', { body: { name: 'The Follow Consortium', kind: 'group' } })).json();
  const person = (await t.request('POST', '/api/profiles', { body: { name: 'Bea Followed' } })).json();
  const add = (...flags: string[]) => svc('routine', 'add', '--name', 'refused follow', '--schedule', '@daily', ...flags);
  const cases: [string[], RegExp][] = [
    [['--sources', 'crossref', '--follow', '9999'], /^svc: --follow 9999: No watch profile 9999; `svc profile list` lists them\.$/],
    [['--sources', 'crossref', '--follow', String(group.id)], new RegExp(`^svc: --follow ${group.id}: Watch profile ${group.id} is a group profile; a routine can follow only a person`)],
    [['--sources', 'crossref', '--follow', String(person.id), '--follow-mode', 'sometimes'], /^svc: --follow-mode "sometimes": entity\.mode must be new_papers or retractions\.$/],
    [['--sources', 'crossref', '--follow', 'ada'], /^svc: --follow takes the id of a person watch profile/],
    [['--sources', 'crossref', '--query', 'x', '--follow-mode', 'retractions'], /^svc: --follow-mode needs --follow <profile id>/],
    [['--sources', 'dblp', '--follow', String(person.id)], new RegExp(`^svc: --follow ${person.id}: none of the sources \\(dblp\\) can search by author, so no fire could ask for Bea Followed's papers; add one that can to --sources, e\\.g\\. `)],
    [['--sources', 'orcid', '--follow', String(person.id)], /--sources names a source that cannot be searched now — orcid: ORCID answers only for an ORCID iD/],
  ];
  for (const [flags, message] of cases) {
    const r = await add(...flags);
    assert.equal([r.code, oneLine(r)], [2, true], `${flags.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr.trim(), message, r.stderr);
  }
  const json = await svc('--json', 'routine', 'add', '--name', 'refused follow', '--schedule', '@daily', '--sources', 'crossref', '--follow', '9999');
  assert.is(JSON.parse(json.stdout || json.stderr).error, 'unknown_profile');
  assert.not.ok((await t.request('GET', '/api/routines')).json().routines.some((r: any) => r.name === 'refused follow'), 'nothing was created');
});

test('on a terminal, add offers to follow a person profile when one exists', async () => {
  const person = (await t.request('POST', '/api/profiles', { body: { name: 'Cyd Asked' } })).json();
  const texts = ['asked follow', String(person.id), '', '@daily', '', ''];
  const asked: string[] = [];
  const prompter: Prompter = {
    async text(opts) {
      asked.push(opts.message);
      const answer = texts.shift()!;
      assert.is(opts.validate?.(answer), undefined, `${opts.message}: ${answer}`);
      return answer;
    },
    async multiselect(opts) {
      assert.is(opts.options.find((o) => o.value === 'dblp')?.hint, 'cannot search by author');
      return ['crossref'];
    },
    async confirm(opts) {
      asked.push(opts.message);
      return true; // mode retractions, and the schedule
    },
    note() {},
    refuse() {},
  };
  const body = await askRoutine(t.ctx, prompter);
  assert.equal(body.entity, { profile_id: person.id, mode: 'retractions' });
  assert.equal((body.parameters as any).query, '');
  assert.ok(asked.some((m) => m.startsWith('Follow a watch profile?') && m.includes(`${person.id} Cyd Asked`)));
  assert.ok(asked.some((m) => /Cyd Asked's papers for retractions, corrections and new versions/.test(m)));
});

test.run();
