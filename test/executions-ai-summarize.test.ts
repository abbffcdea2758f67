/**
 * `svc executions summarize ID`: a settled run's AI summary written again on request, through
 * the automatic step's writer, against a loopback OpenAI-compatible model.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { fixture, startTestServer, waitFor, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub, type Stub } from './_stub.js';
import { aiReady, finished, putAiSettings, storeOpenAiKey } from './_executions.js';
import { claimAiLane, insertExecution } from '../src/executions/repo.js';
import { pendingLane } from '../src/executions/ai-lane.js';
import { summarizeOnRequest } from '../src/executions/ai-summary-on-request.js';
import { startSummaryModel, SUMMARY, type SummaryModel } from './_fake-model.js';

const KEY = 'sk-summarize-test-key-0123456789';

let model: SummaryModel;
let crossref: Stub;
let t: TestServer;
let env: Record<string, string>;

test.before(async () => {
  model = await startSummaryModel(KEY);
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  t = await startTestServer({
    env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AI_OPENAI_URL: model.url },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 3000, executionHeartbeatMs: 50, aiSummaryTimeoutMs: 1500 } },
  });
  env = { ...t.dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AI_OPENAI_URL: model.url };
});
test.after(async () => {
  await t.close();
  await model.close();
  await crossref.close();
});

const settings = (values: Record<string, unknown>) => putAiSettings(t, values);
const storeKey = () => storeOpenAiKey(t, KEY);
async function ready() {
  await aiReady(t, KEY);
  model.mode = 'ok';
}
const detail = async (id: number) => (await t.request('GET', `/api/executions/${id}`)).json();

/** A dive on the server, answered once settled (and its lane decided when it asked for AI). */
async function diveRun(ai: boolean): Promise<any> {
  const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: ai } });
  assert.is(r.status, 202, r.text);
  const id = r.json().id as number;
  await finished(t, id);
  return waitFor(async () => {
    const d = await detail(id);
    return !d.ai_lane.requested || d.ai_lane.state === 'written' || d.ai_lane.state === 'not_used' ? d : undefined;
  }, 10_000, `the AI lane of execution ${id}`);
}

const spec = { type: 'dive' as const, repositories: ['crossref'], query: 'q', keywords: [], dateFrom: null, dateTo: null, maxResults: 2, aiEnabled: true, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: null, author: null };
const owner = { pid: process.pid, runtimeId: 'test', role: 'cli' };

test('no key stored: refused naming what to do (exit 2, nothing sent, lane kept); key stored: summarize writes it into the lane, the report and the log', async () => {
  await ready();
  assert.ok((await t.request('DELETE', '/api/credentials/openai_api_key')).status < 300);
  const run = await diveRun(true);
  assert.is(run.ai_lane.reason_code, 'missing_credential');
  const before = model.requests.length;

  const refused = await runCliInProcess(['executions', 'summarize', String(run.id)], { env });
  assert.is(refused.code, 2, refused.stderr);
  assert.is(refused.stdout, '');
  assert.is(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /svc credentials set openai_api_key/);
  assert.is(model.requests.length, before, 'nothing was sent');
  assert.is((await detail(run.id)).ai_lane.reason_code, 'missing_credential', 'the lane is as it was');

  await storeKey();
  const r = await runCliInProcess(['executions', 'summarize', String(run.id)], { env });
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stderr, '', 'quiet when piped');
  assert.match(r.stdout, /^AI summary by openai \/ served-summary-model \(model-written, not checked against the papers; 2 of 2 documents considered\):\n  Themes: /);
  assert.match(r.stdout, /\nReport: .*execution-\d+\.txt$/m);
  assert.is(model.requests.length, before + 1, 'one request');
  const sent = model.requests.at(-1)!;
  assert.is(sent.headers.authorization, `Bearer ${KEY}`);
  assert.is(sent.body.model, 'gpt-asked', 'the settings model, as the automatic path asks');
  assert.is(sent.body.max_tokens, 512);
  assert.match(sent.body.messages.find((m: any) => m.role === 'user').content, /Communicating Ecology/);

  const after = await detail(run.id);
  assert.equal([after.status, after.finished_at_utc, after.ai_lane.used, after.ai_lane.state, after.ai_lane.summary, after.ai_lane.on_request, after.ai_lane.reason_code], [run.status, run.finished_at_utc, true, 'written', SUMMARY, true, null]);
  const report = (await t.request('GET', `/api/executions/${run.id}/report`)).json().text as string;
  assert.match(report, /AI summary \(openai \/ served-summary-model; model-written, not checked against the papers; 2 of 2 documents considered/);
  assert.match(fs.readFileSync(after.report_path, 'utf8'), /  Possibly off-topic: none\./, 'the report file is written again with the summary');
  const log = (await t.request('GET', `/api/executions/${run.id}/log`)).text;
  assert.match(log, /AI summary by openai \/ served-summary-model/);
  assert.not.ok((refused.stdout + refused.stderr + r.stdout + r.stderr + log + JSON.stringify(after)).includes(KEY), 'the key never shows');
});

test('--json prints {execution_id, ai_lane}; --ai-model and --ai-instructions are asked for this summary only', async () => {
  await ready();
  const run = await diveRun(true);
  const r = await runCliInProcess(['executions', 'summarize', String(run.id), '--json', '--ai-model', 'gpt-other', '--ai-instructions', 'Only the field work, please.'], { env });
  assert.is(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(Object.keys(out), ['execution_id', 'ai_lane']);
  assert.is(out.execution_id, run.id);
  const lane = out.ai_lane;
  assert.equal(
    [lane.requested, lane.used, lane.state, lane.provider, lane.model, lane.requested_model, lane.documents_considered, lane.documents_total, lane.summary, lane.caveat, lane.instructions_given, lane.on_request],
    [true, true, 'written', 'openai', 'served-summary-model', 'gpt-other', 2, 2, SUMMARY, 'model-written, not checked against the papers', true, true],
  );
  assert.equal(lane, (await detail(run.id)).ai_lane, 'the lane the read shows');
  const sent = model.requests.at(-1)!;
  assert.is(sent.body.model, 'gpt-other');
  assert.match(sent.raw, /Only the field work, please\./);
  assert.is((await detail(run.id)).parameters.ai_settings, null, "the run's own ai_settings are unchanged");
  assert.not.ok(r.stdout.includes(KEY));
  const long = await runCliInProcess(['executions', 'summarize', String(run.id), '--ai-instructions', 'x'.repeat(2001)], { env });
  assert.is(long.code, 2, long.stderr);
  assert.match(long.stderr, /--ai-instructions/);
});

test('a run that never asked for AI is summarized on request; what it asked (ai_enabled) is unchanged', async () => {
  await ready();
  const run = await diveRun(false);
  assert.is(run.ai_lane.requested, false);
  const r = await runCliInProcess(['executions', 'summarize', String(run.id)], { env });
  assert.is(r.code, 0, r.stderr);
  const after = await detail(run.id);
  assert.equal([after.parameters.ai_enabled, after.ai_lane.requested, after.ai_lane.used, after.ai_lane.on_request], [false, true, true, true]);
  assert.match((await runCliInProcess(['executions', 'show', String(run.id)], { env })).stdout, /AI summary by openai[^\n]*:\n  Themes: /);
  assert.match((await t.request('GET', `/api/executions/${run.id}/report`)).json().text, /AI summary \(openai \/ served-summary-model/);
});

test('a cancelled run is summarized from the documents it kept', async () => {
  await ready();
  const run = await diveRun(false);
  t.ctx.db.prepare(`UPDATE executions SET status = 'cancelled' WHERE id = ?`).run(run.id);
  const r = await runCliInProcess(['--json', 'executions', 'summarize', String(run.id)], { env });
  assert.is(r.code, 0, r.stderr);
  assert.equal([JSON.parse(r.stdout).ai_lane.used, JSON.parse(r.stdout).ai_lane.documents_considered], [true, 2]);
  assert.is((await detail(run.id)).status, 'cancelled', 'the status is never changed');
});

test('the provider refusing the key: exit 1 with its reason, recorded in the lane, the key never shown', async () => {
  await ready();
  const run = await diveRun(true);
  model.mode = 'unauthorized';
  try {
    const r = await runCliInProcess(['--json', 'executions', 'summarize', String(run.id)], { env });
    assert.is(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.is(out.error, 'upstream_refused');
    assert.match(out.message, /svc credentials set openai_api_key/);
    const lane = (await detail(run.id)).ai_lane;
    assert.equal([lane.used, lane.reason_code, lane.on_request], [false, 'upstream_refused', true]);
    assert.not.ok((r.stdout + r.stderr + JSON.stringify(lane)).includes(KEY));
  } finally {
    model.mode = 'ok';
  }
});

test('refused in one line: an unknown run (3), a running one (4), one without documents (4), one whose summary is about to be written (4)', async () => {
  await ready();
  const before = model.requests.length;
  const unknown = await runCliInProcess(['executions', 'summarize', '999999'], { env });
  assert.is(unknown.code, 3, unknown.stderr);
  assert.is(unknown.stderr.trim().split('\n').length, 1);
  assert.match(unknown.stderr, /No execution 999999/);

  const running = insertExecution(t.ctx.db, spec, owner, new Date().toISOString(), null, pendingLane('openai', null));
  const r = await runCliInProcess(['--json', 'executions', 'summarize', String(running)], { env });
  assert.is(r.code, 4, r.stderr);
  assert.is(JSON.parse(r.stdout).error, 'execution_running');

  const empty = insertExecution(t.ctx.db, { ...spec, aiEnabled: false }, owner, '2020-01-01T00:00:00.000Z', null, null);
  t.ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = '2020-01-01T00:01:00.000Z', result_count = 0 WHERE id = ?`).run(empty);
  const e = await runCliInProcess(['executions', 'summarize', String(empty)], { env });
  assert.is(e.code, 4, e.stderr);
  assert.match(e.stderr, /found no documents/);

  // Settled a moment ago, its automatic step not yet begun: that step will write it.
  const settling = insertExecution(t.ctx.db, spec, owner, new Date().toISOString(), null, pendingLane('openai', null));
  t.ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = ?, result_count = 2 WHERE id = ?`).run(new Date().toISOString(), settling);
  const p = await runCliInProcess(['executions', 'summarize', String(settling)], { env });
  assert.is(p.code, 4, p.stderr);
  assert.match(p.stderr, /being written right now/);
  assert.is(model.requests.length, before, 'nothing was sent');
  t.ctx.db.prepare(`UPDATE executions SET status = 'completed' WHERE id = ?`).run(running);
});

test('one writer at a time: while another process writes the summary, summarize is refused (4); two at once in one process, one wins', async () => {
  await ready();
  const run = await diveRun(true);
  const tuning = t.ctx.tuning;
  const saved = { ...tuning };
  Object.assign(tuning, { aiSummaryTimeoutMs: 30_000 });
  model.mode = 'hang';
  try {
    const first = summarizeOnRequest(t.ctx, run.id);
    const second = await summarizeOnRequest(t.ctx, run.id).then(() => null, (err) => err);
    assert.is(second?.reason, 'summary_being_written', String(second));
    await waitFor(async () => (await detail(run.id)).ai_lane.state === 'writing', 10_000, 'writing');
    const before = model.requests.length;
    const r = await runCliInProcess(['executions', 'summarize', String(run.id)], { env });
    assert.is(r.code, 4, r.stderr);
    assert.match(r.stderr, /being written right now/);
    assert.is(model.requests.length, before, 'the second writer never asked');
    // The claim itself, as a writer that read the lane before the first took it would make it.
    const { heldCutoffs } = await import('../src/executions/ai-summary.js');
    assert.is(claimAiLane(t.ctx.db, run.id, { requested: true, used: false, state: 'writing' }, heldCutoffs(t.ctx, true)), false);
    // Deleting the run stops the first writer.
    assert.is((await t.request('DELETE', `/api/executions/${run.id}`)).status, 200);
    const ended = await first.then(() => null, (err) => err);
    assert.is(ended?.reason, 'execution_not_found', String(ended));
  } finally {
    Object.assign(tuning, saved);
    model.mode = 'ok';
  }
});

test('stopped while writing (Ctrl-C): the lane is put back as it was and the command says it was cancelled', async () => {
  await ready();
  const run = await diveRun(true);
  const lane = (await detail(run.id)).ai_lane;
  model.mode = 'hang';
  try {
    const stop = new AbortController();
    const writing = summarizeOnRequest(t.ctx, run.id, {}, stop.signal).then(() => null, (err) => err);
    await waitFor(async () => (await detail(run.id)).ai_lane.state === 'writing', 10_000, 'writing');
    stop.abort();
    const err = await writing;
    assert.is(err?.reason, 'cancelled', String(err));
    assert.equal((await detail(run.id)).ai_lane, lane);
  } finally {
    model.mode = 'ok';
  }
});

test.run();
