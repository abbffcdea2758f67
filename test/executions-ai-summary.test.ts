import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, startTestServer, tempDirs, waitFor, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub, type Stub } from './_stub.js';
import { aiReady, finished, putAiSettings, storeOpenAiKey } from './_executions.js';
import { insertExecution, markInterrupted } from '../src/executions/repo.js';
import { pendingLane } from '../src/executions/ai-lane.js';
import { executionManager } from '../src/executions/manager.js';
import { createContext } from '../src/context.js';
import { silentLogger } from '../src/log.js';
import { ABSTRACT_CHAR_LIMIT, PROMPT_CHAR_LIMIT, summaryPrompt } from '../src/executions/ai-prompt.js';
import { SUMMARY_TEXT_LIMIT } from '../src/executions/ai-summary.js';
import { storedAiSettings } from '../src/executions/ai-settings.js';
import { startSummaryModel, SUMMARY, type SummaryModel } from './_fake-model.js';

const KEY = 'sk-summary-test-key-0123456789';

let model: SummaryModel;
let crossref: Stub;
let empty: Stub;
let t: TestServer;

test.before(async () => {
  model = await startSummaryModel(KEY);
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  empty = await startStub([{ path: '/works', body: fixture('crossref/works-query-empty-adfaaf.json'), times: Infinity }]);
  t = await startTestServer({
    env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AI_OPENAI_URL: model.url },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 3000, executionHeartbeatMs: 50, aiSummaryTimeoutMs: 1500 } },
  });
});
test.after(async () => {
  await t.close();
  await model.close();
  await crossref.close();
  await empty.close();
});

const settings = (values: Record<string, unknown>) => putAiSettings(t, values);
const storeKey = () => storeOpenAiKey(t, KEY);
const ready = async () => {
  await aiReady(t, KEY);
  model.mode = 'ok';
};

/** A dive that asks for AI; answers the execution once its lane is decided. */
async function aiDive(body: Record<string, unknown> = {}): Promise<any> {
  const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true, ...body } });
  assert.is(r.status, 202, r.text);
  const id = r.json().id as number;
  await finished(t, id);
  return waitFor(async () => {
    const detail = (await t.request('GET', `/api/executions/${id}`)).json();
    return detail.ai_lane.state === 'written' || detail.ai_lane.state === 'not_used' ? detail : undefined;
  }, 10_000, `the AI lane of execution ${id}`);
}

test('a run with ai_enabled asks the model once with its documents; the summary is stored, labelled, and in the report', async () => {
  await ready();
  const before = model.requests.length;
  const detail = await aiDive({ query: 'ecology of signals', keywords: ['ecology'] });
  assert.is(detail.status, 'completed');
  assert.is(model.requests.length, before + 1, 'one request');
  const sent = model.requests.at(-1)!;
  assert.is(sent.url, '/v1/chat/completions');
  assert.is(sent.headers.authorization, `Bearer ${KEY}`);
  assert.not.ok(sent.raw.includes(KEY), 'the key is only in the Authorization header');
  assert.not.ok(sent.url.includes(KEY));
  assert.is(sent.body.model, 'gpt-asked');
  assert.is(sent.body.max_tokens, 512);
  const user = sent.body.messages.find((m: any) => m.role === 'user').content as string;
  assert.match(user, /Communicating Ecology/);
  assert.match(user, /Chemical Ecology/);
  assert.match(user, /Search query: "ecology of signals"/);
  assert.match(user, /\[1\] /);
  assert.match(sent.body.messages[0].content, /Themes:/, 'the system prompt asks for themes');
  const lane = detail.ai_lane;
  assert.equal(
    [lane.requested, lane.used, lane.state, lane.provider, lane.model, lane.requested_model, lane.documents_considered, lane.documents_total, lane.summary, lane.reason],
    [true, true, 'written', 'openai', 'served-summary-model', 'gpt-asked', 2, 2, SUMMARY, null],
  );
  assert.is(lane.caveat, 'model-written, not checked against the papers');
  const report = (await t.request('GET', `/api/executions/${detail.id}/report`)).json().text as string;
  assert.match(report, /AI summary \(openai \/ served-summary-model; model-written, not checked against the papers; 2 of 2 documents considered/);
  assert.match(report, /  Notable papers: \[1\] and \[2\]\./);
  const file = fs.readFileSync((await t.request('GET', `/api/executions/${detail.id}`)).json().report_path, 'utf8');
  assert.match(file, /Possibly off-topic: none\./, 'the report file is written again with the summary');
});

test('ai_settings: model and instructions are honoured, max_output_tokens is clamped to the settings', async () => {
  await ready();
  let detail = await aiDive({ ai_settings: { model: 'gpt-override', instructions: 'Focus on field studies of insects.', max_output_tokens: 100_000 } });
  let sent = model.requests.at(-1)!;
  assert.is(sent.body.model, 'gpt-override');
  assert.is(sent.body.max_tokens, 512, 'never above ai.max_output_tokens');
  assert.match(sent.body.messages.find((m: any) => m.role === 'user').content, /researcher's request[^\n]*\n.*Focus on field studies of insects\./s);
  assert.is(detail.ai_lane.instructions_given, true);
  assert.equal(detail.parameters.ai_settings, { model: 'gpt-override', instructions: 'Focus on field studies of insects.', max_output_tokens: 100_000 });
  detail = await aiDive({ ai_settings: { max_output_tokens: 10 } });
  sent = model.requests.at(-1)!;
  assert.is(sent.body.max_tokens, 64, 'never below the settings minimum');
  assert.is(sent.body.model, 'gpt-asked');
});

test('ai_settings refuses unknown keys with 422 naming the allowed ones, never quoting the value, and stores nothing', async () => {
  const count = () => t.ctx.db.prepare('SELECT count(*) FROM executions').pluck().get() as number;
  const before = count();
  const secret = 'sk-typed-into-ai-settings-987654321';
  const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', ai_enabled: true, ai_settings: { api_key: secret, model: 'm' } } });
  assert.is(r.status, 422);
  assert.not.ok(r.text.includes(secret), r.text);
  const issue = r.json().detail.find((i: any) => i.loc.join('.') === 'body.ai_settings.api_key');
  assert.ok(issue, r.text);
  assert.match(issue.msg, /model, max_output_tokens, instructions/);
  assert.is(count(), before);
  const long = await t.request('POST', '/api/search/sweep', { body: { repositories: ['crossref'], query: 'ecology', ai_settings: { instructions: 'x'.repeat(2001) } } });
  assert.is(long.status, 422);
  const routine = await t.request('POST', '/api/routines', {
    body: { name: 'r', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'q' }, ai_settings: { token: secret } },
  });
  assert.is(routine.status, 422);
  assert.not.ok(routine.text.includes(secret));
  const nested = await t.request('POST', '/api/routines', {
    body: { name: 'r', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'q', ai_settings: { password: secret } } },
  });
  assert.is(nested.status, 422);
  assert.match(nested.text, /parameters.*ai_settings.*password|"parameters","ai_settings","password"/);
  const config = await t.request('POST', '/api/configurations', { body: { name: 'c', config_type: 'dive', parameters: { repository: 'crossref', query: 'q', ai_settings: { secret } } } });
  assert.is(config.status, 422);
  assert.not.ok(config.text.includes(secret));
});

test('not used, with the reason and what to do: summaries off, provider none, no key', async () => {
  await ready();
  const before = model.requests.length;
  await settings({ summaries_enabled: false });
  let lane = (await aiDive()).ai_lane;
  assert.equal([lane.requested, lane.used, lane.reason_code], [true, false, 'summaries_off']);
  assert.match(lane.reason, /`svc settings set ai summaries_enabled true`/);
  await settings({ summaries_enabled: true, provider: 'none' });
  lane = (await aiDive()).ai_lane;
  assert.is(lane.reason_code, 'provider_none');
  assert.match(lane.reason, /`svc settings set ai provider <id>`/);
  await settings({ provider: 'openai' });
  assert.ok((await t.request('DELETE', '/api/credentials/openai_api_key')).status < 300);
  const detail = await aiDive();
  lane = detail.ai_lane;
  assert.is(lane.reason_code, 'missing_credential');
  assert.match(lane.reason, /`svc credentials set openai_api_key`/);
  assert.is(model.requests.length, before, 'the model was never asked');
  const report = (await t.request('GET', `/api/executions/${detail.id}/report`)).json().text as string;
  assert.match(report, /AI summary: none — .*svc credentials set openai_api_key/);
});

test('a refused key (401) is recorded without the key; the run stays completed', async () => {
  await ready();
  model.mode = 'unauthorized';
  const detail = await aiDive();
  assert.is(detail.status, 'completed');
  assert.is(detail.error, null);
  const lane = detail.ai_lane;
  assert.equal([lane.used, lane.reason_code], [false, 'upstream_refused']);
  assert.match(lane.reason, /OpenAI refused the key/);
  assert.match(lane.reason, /`svc credentials set openai_api_key`/);
  const everything = JSON.stringify(detail) + (await t.request('GET', `/api/executions/${detail.id}/report`)).text + (await t.request('GET', `/api/executions/${detail.id}/log`)).text;
  assert.not.ok(everything.includes(KEY), 'the key is never echoed');
  model.mode = 'ok';
});

test('a provider URL with a user name and password (an SVC_AI_<ID>_URL override) is never recorded with them, even a password holding an @', async () => {
  const other = await startTestServer({
    env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AI_OPENAI_URL: 'http://me:pa@ss-Xyzzy@127.0.0.1:9/v1' },
    context: { tuning: { sourceRateScale: 0, executionHeartbeatMs: 50, aiSummaryTimeoutMs: 1500 } },
  });
  try {
    await other.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'openai', summaries_enabled: true } } });
    await other.request('PUT', '/api/credentials/openai_api_key', { body: { value: KEY } });
    const id = (await other.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true } })).json().id;
    const detail = await waitFor(async () => {
      const d = (await other.request('GET', `/api/executions/${id}`)).json();
      return d.ai_lane.state === 'not_used' ? d : undefined;
    }, 10_000, 'the lane');
    assert.is(detail.ai_lane.reason_code, 'upstream_failed', JSON.stringify(detail.ai_lane));
    const everything = JSON.stringify(detail) + (await other.request('GET', `/api/executions/${id}/report`)).text + (await other.request('GET', `/api/executions/${id}/log`)).text + other.logLines.join('\n');
    assert.not.ok(/pa@ss|Xyzzy|me:/.test(everything), detail.ai_lane.reason);
    assert.match(detail.ai_lane.reason, /\[redacted\]@127\.0\.0\.1/);
  } finally {
    await other.close();
  }
});

test('a model that does not finish in time: timeout recorded, the run settled before it and unchanged', async () => {
  await ready();
  model.mode = 'hang';
  const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true } });
  const id = r.json().id as number;
  const settled = await finished(t, id);
  assert.is(settled.status, 'completed', 'settled while the summary is still being written');
  assert.ok(['pending', 'writing'].includes(settled.ai_lane.state), settled.ai_lane.state);
  const detail = await waitFor(async () => {
    const d = (await t.request('GET', `/api/executions/${id}`)).json();
    return d.ai_lane.state === 'not_used' ? d : undefined;
  }, 10_000, 'the timeout');
  assert.is(detail.status, 'completed');
  assert.is(detail.finished_at_utc, settled.finished_at_utc);
  assert.equal([detail.ai_lane.used, detail.ai_lane.reason_code], [false, 'timeout']);
  assert.match(detail.ai_lane.reason, /did not finish within 2 s/);
  model.mode = 'ok';
});

test('a run deleted while its summary is written: the request to the model stops and the step ends quietly (no failed step in the log)', async () => {
  await ready();
  model.mode = 'hang';
  const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true } });
  const id = r.json().id as number;
  await waitFor(async () => (await t.request('GET', `/api/executions/${id}`)).json().ai_lane?.state === 'writing', 10_000, 'writing');
  const logged = t.logLines.length;
  const removed = await t.request('DELETE', `/api/executions/${id}`);
  assert.is(removed.status, 200, removed.text);
  const deletedAt = Date.now();
  await executionManager(t.ctx).wait(id);
  assert.ok(Date.now() - deletedAt < 1000, 'the model request stopped with the run (the summary timeout is 1.5 s)');
  const after = t.logLines.slice(logged).join('\n');
  assert.not.match(after, /after-run step ai summary failed|FOREIGN KEY/, after);
  assert.is((await t.request('GET', `/api/executions/${id}`)).status, 404);
  model.mode = 'ok';
});

test('a run deleted by another process while its summary is written: the request to the model stops within a poll, not at its timeout', async () => {
  await ready();
  model.mode = 'hang';
  const tuning = t.ctx.tuning;
  const saved = { ...tuning };
  // A timeout far beyond the wait below: only seeing the delete can end the request in time.
  Object.assign(tuning, { aiSummaryTimeoutMs: 30_000, aiSummaryGonePollMs: 100 });
  const other = createContext({ env: t.dirs.env, log: silentLogger });
  try {
    const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true } });
    const id = r.json().id as number;
    await waitFor(async () => (await t.request('GET', `/api/executions/${id}`)).json().ai_lane?.state === 'writing', 10_000, 'writing');
    const logged = t.logLines.length;
    // Another process (its own connection and execution manager) deletes the run.
    assert.equal(executionManager(other).remove(id), { id, deleted: true });
    const deletedAt = Date.now();
    await executionManager(t.ctx).wait(id);
    assert.ok(Date.now() - deletedAt < 3000, `the model request stopped once the delete was seen (${Date.now() - deletedAt} ms; the summary timeout is 30 s)`);
    const after = t.logLines.slice(logged).join('\n');
    assert.not.match(after, /after-run step ai summary failed|FOREIGN KEY/, after);
    assert.is((await t.request('GET', `/api/executions/${id}`)).status, 404);
  } finally {
    Object.assign(tuning, saved);
    await other.close();
    model.mode = 'ok';
  }
});

test('a summary is stored as plain text: terminal escapes and bidirectional overrides the model wrote are dropped', async () => {
  await ready();
  model.mode = 'controls';
  const detail = await aiDive();
  assert.is(detail.ai_lane.summary, 'Themes: [2J]0;ownedchemical ecology.\nNotable papers: [1] and [2].');
  const show = await runCliInProcess(['executions', 'show', String(detail.id)], { env: t.dirs.env });
  assert.not.match(show.stdout, /[\u0000-\u0008\u000b-\u001f\u202e]/, 'nothing a terminal acts on reaches it');
  model.mode = 'ok';
});

test('limits: the prompt never grows past its bound whatever the documents hold, and a long answer is cut and marked', async () => {
  const long = (c: string, n: number) => c.repeat(n);
  const docs = Array.from({ length: 50 }, (_, i) => ({
    number: i + 1,
    title: `Title ${i} ${long('t', 900)}`,
    authors: Array.from({ length: 40 }, (_, j) => ({ name: `Author ${j} ${long('a', 60)}` })),
    year: 2020,
    abstract: long('b', 5000),
    found_by: ['crossref'],
    is_new: true,
  }));
  const spec = { query: long('q', 2000), keywords: Array.from({ length: 50 }, () => long('k', 200)), repositories: ['crossref'] };
  const prompt = summaryPrompt(spec, { results: 50, fresh: 50 }, docs, long('i', 2000));
  assert.ok(prompt.user.length <= PROMPT_CHAR_LIMIT + 1, `${prompt.user.length}`);
  assert.ok(prompt.considered > 0 && prompt.considered < 50, `${prompt.considered}`);
  assert.is((prompt.user.match(/^\[\d+\] /gm) ?? []).length, prompt.considered, 'the count says how many were sent');
  assert.not.ok(prompt.user.includes(long('b', ABSTRACT_CHAR_LIMIT + 1)), 'an abstract is clipped');
  assert.not.ok(prompt.user.includes(long('t', 400)), 'a title is clipped');
  assert.match(prompt.user, /et al\./);
  assert.match(prompt.user, /researcher's request[^\n]*\ni{2000}$/, 'the researcher\'s request is kept, last');

  await ready();
  model.mode = 'long';
  const lane = (await aiDive()).ai_lane;
  assert.equal([lane.used, lane.summary_truncated], [true, true]);
  assert.ok(lane.summary.length <= SUMMARY_TEXT_LIMIT && lane.summary.endsWith('…'), `${lane.summary.length}`);
  model.mode = 'ok';
});

test('an unknown ai_settings key is quoted only when its name reads as a name, never when it looks like a token', async () => {
  const refused = async (key: string) => {
    const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', ai_enabled: true, ai_settings: { [key]: 1 } } });
    assert.is(r.status, 422, r.text);
    return r;
  };
  const typo = await refused('temprature');
  const named = typo.json().detail.find((i: any) => i.loc.join('.') === 'body.ai_settings.temprature');
  assert.ok(named, typo.text);
  assert.match(named.msg, /^Unknown ai_settings key "temprature"; ai_settings takes model, max_output_tokens, instructions/);
  for (const key of ['sk-proj-AbCdEf0123456789', 'ghp_abcdefghijklmnopqrstu', 'xoxb-1234-abcd', 'aB3dE5gH7jK9mN1pQ3sT5vW7', 'my key is hunter2', 'x'.repeat(65)]) {
    const r = await refused(key);
    assert.not.ok(r.text.includes(key), r.text);
    const issue = r.json().detail.find((i: any) => i.loc.join('.') === 'body.ai_settings');
    assert.ok(issue, r.text);
    assert.match(issue.msg, /^ai_settings has an unknown key \(its name is not quoted: it may be a secret\); ai_settings takes model/);
  }
  // A long name made of words is still a name.
  assert.ok((await refused('summary_focus_instructions')).json().detail.some((i: any) => i.msg.includes('"summary_focus_instructions"')));
  // The same rule for what a run says it ignored from a stored value.
  assert.equal(storedAiSettings({ temprature: 1, 'sk-live-0123456789abcdef': 'x', 'rk_live_a1b2c3d4e5f6g7h8i9j0k1': 'y', instructions: 'Keep.' }).ignored, ['temprature', 'an unknown key']);
});

test('ai_settings.max_output_tokens and model out of range are refused (422) naming the key', async () => {
  for (const [settings, key] of [[{ max_output_tokens: 0 }, 'max_output_tokens'], [{ max_output_tokens: 1_000_001 }, 'max_output_tokens'], [{ max_output_tokens: 1.5 }, 'max_output_tokens'], [{ instructions: '   ' }, 'instructions'], [{ model: 'gpt\u0007' }, 'model']] as const) {
    const r = await t.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', ai_enabled: true, ai_settings: settings } });
    assert.is(r.status, 422, `${JSON.stringify(settings)}: ${r.text}`);
    assert.ok(r.json().detail.some((i: any) => i.loc.join('.') === `body.ai_settings.${key}`), r.text);
  }
});

test('an empty answer and a run without documents are recorded as such', async () => {
  await ready();
  model.mode = 'empty';
  let lane = (await aiDive()).ai_lane;
  assert.equal([lane.used, lane.reason_code], [false, 'empty_answer']);
  model.mode = 'ok';
  const before = model.requests.length;
  // No documents: a second server whose crossref answers nothing.
  const other = await startTestServer({ env: { SVC_SOURCE_CROSSREF_URL: empty.url, SVC_AI_OPENAI_URL: model.url }, context: { tuning: { sourceRateScale: 0, executionHeartbeatMs: 50 } } });
  try {
    await other.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'openai', summaries_enabled: true } } });
    await other.request('PUT', '/api/credentials/openai_api_key', { body: { value: KEY } });
    const id = (await other.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'adfaaf', ai_enabled: true } })).json().id;
    const detail = await waitFor(async () => {
      const d = (await other.request('GET', `/api/executions/${id}`)).json();
      return d.ai_lane.state === 'not_used' ? d : undefined;
    }, 10_000, 'the lane');
    assert.is(detail.result_count, 0);
    assert.is(detail.ai_lane.reason_code, 'no_documents');
    assert.is(model.requests.length, before);
  } finally {
    await other.close();
  }
});

test('a routine whose stored ai_settings holds keys from before the rule runs: they are ignored, never sent', async () => {
  await ready();
  const r = await t.request('POST', '/api/routines', { body: { name: 'legacy', schedule_cron: '0 6 * * *', parameters: { repositories: ['crossref'], query: 'ecology', max_results: 2 }, ai_enabled: true, is_active: false } });
  const routine = r.json().id as number;
  t.ctx.db.prepare('UPDATE routines SET ai_settings_json = ? WHERE id = ?').run(JSON.stringify({ api_key: 'sk-legacy-stored-secret-1', 'sk-legacy-secret-as-a-key-0123456789': 1, instructions: 'Mind the legacy focus.' }), routine);
  const run = await t.request('POST', `/api/routines/${routine}/run`);
  assert.is(run.status, 202, run.text);
  const id = run.json().execution_id as number;
  const detail = await waitFor(async () => {
    const d = (await t.request('GET', `/api/executions/${id}`)).json();
    return d.ai_lane.state === 'written' || d.ai_lane.state === 'not_used' ? d : undefined;
  }, 10_000, 'the lane');
  assert.is(detail.ai_lane.used, true, JSON.stringify(detail.ai_lane));
  assert.equal(detail.ai_lane.ignored_ai_settings, ['api_key', 'an unknown key'], 'a key name that looks like a secret is not quoted');
  assert.not.ok(JSON.stringify(detail).includes('sk-legacy-secret-as-a-key'));
  const sent = model.requests.at(-1)!;
  assert.not.ok(sent.raw.includes('sk-legacy-stored-secret-1'));
  assert.match(sent.raw, /Mind the legacy focus\./);
  assert.not.ok(JSON.stringify(detail).includes('sk-legacy-stored-secret-1'), 'the read shows only the keys svc uses');
  const stored = t.ctx.db.prepare('SELECT parameters_json FROM executions WHERE id = ?').pluck().get(id) as string;
  assert.not.ok(stored.includes('sk-legacy-stored-secret-1'), 'nor does the run store it');
});

test('a lane its process left behind: an interrupted run says so, and a settled one never picked up is not "being written" forever', async () => {
  const spec = { type: 'dive' as const, repositories: ['crossref'], query: 'q', keywords: [], dateFrom: null, dateTo: null, maxResults: 2, aiEnabled: true, aiSettings: null, requestId: null, savedConfigurationId: null, routineId: null, author: null };
  const owner = { pid: 999_999, runtimeId: 'gone', role: 'cli' };
  const interrupted = insertExecution(t.ctx.db, spec, owner, '2020-01-01T00:00:00.000Z', null, pendingLane('openai', null));
  assert.is(markInterrupted(t.ctx.db, interrupted, 'owner_dead', '2020-01-01T00:01:00.000Z'), true);
  let lane = (await t.request('GET', `/api/executions/${interrupted}`)).json().ai_lane;
  assert.equal([lane.used, lane.state, lane.reason_code], [false, 'not_used', 'run_interrupted']);
  assert.is(markInterrupted(t.ctx.db, interrupted, 'owner_dead', '2020-01-01T00:02:00.000Z'), false, 'a settled run is not interrupted again');
  const orphan = insertExecution(t.ctx.db, spec, owner, '2020-01-01T00:00:00.000Z', null, pendingLane('openai', null));
  t.ctx.db.prepare(`UPDATE executions SET status = 'completed', finished_at_utc = '2020-01-01T00:01:00.000Z', result_count = 2 WHERE id = ?`).run(orphan);
  lane = (await t.request('GET', `/api/executions/${orphan}`)).json().ai_lane;
  assert.equal([lane.used, lane.reason_code], [false, 'not_written']);
  assert.match((await t.request('GET', `/api/executions/${orphan}/report`)).json().text, /AI summary: none — svc stopped before the summary was written/);
});

test('svc shutting down while a summary is written: the lane says shutdown, the completed run is not marked interrupted', async () => {
  await ready();
  model.mode = 'hang';
  const other = await startTestServer({ env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AI_OPENAI_URL: model.url }, context: { tuning: { sourceRateScale: 0, executionHeartbeatMs: 50, aiSummaryTimeoutMs: 60_000 } } });
  try {
    await other.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'openai', summaries_enabled: true } } });
    await other.request('PUT', '/api/credentials/openai_api_key', { body: { value: KEY } });
    const id = (await other.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true } })).json().id;
    await waitFor(async () => (await other.request('GET', `/api/executions/${id}`)).json().ai_lane.state === 'writing', 10_000, 'writing');
    const started = Date.now();
    await executionManager(other.ctx).close();
    assert.ok(Date.now() - started < 5000, 'shutdown does not wait for the model');
    const row = other.ctx.db.prepare('SELECT status, ai_lane_json FROM executions WHERE id = ?').get(id) as { status: string; ai_lane_json: string };
    assert.is(row.status, 'completed');
    assert.is(JSON.parse(row.ai_lane_json).reason_code, 'shutdown');
    const kinds = other.ctx.db.prepare('SELECT kind FROM execution_events WHERE execution_id = ?').pluck().all(id);
    assert.not.ok(kinds.includes('execution_interrupted'), 'no interruption logged for a settled run');
  } finally {
    model.mode = 'ok';
    await other.close();
  }
});

test('ai.provider agent_code: the agent CLI is run without tools or MCP servers, the prompt on stdin', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-summary-agent-'));
  const agent = path.join(dir, 'agent.mjs');
  fs.writeFileSync(
    agent,
    `#!${process.execPath}
import fs from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  fs.writeFileSync(${JSON.stringify(path.join(dir, 'seen.json'))}, JSON.stringify({ args: process.argv.slice(2), input }));
  const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
  out({ type: 'system', subtype: 'init', session_id: 's', tools: [], mcp_servers: [], model: 'claude-cli-served' });
  out({ type: 'assistant', message: { content: [{ type: 'text', text: 'Themes: ecology [1].' }] } });
  out({ type: 'result', subtype: 'success', is_error: false, result: 'Themes: ecology [1].', usage: { input_tokens: 50, output_tokens: 5 } });
});
`,
    { mode: 0o755 },
  );
  const other = await startTestServer({ env: { SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AGENT_CLI: agent }, context: { tuning: { sourceRateScale: 0, executionHeartbeatMs: 50 } } });
  try {
    await other.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'agent_code', summaries_enabled: true } } });
    const id = (await other.request('POST', '/api/search/dive', { body: { repository: 'crossref', query: 'ecology', max_results: 2, ai_enabled: true } })).json().id;
    const detail = await waitFor(async () => {
      const d = (await other.request('GET', `/api/executions/${id}`)).json();
      return d.ai_lane.state === 'written' || d.ai_lane.state === 'not_used' ? d : undefined;
    }, 10_000, 'the lane');
    assert.equal([detail.ai_lane.used, detail.ai_lane.provider, detail.ai_lane.model, detail.ai_lane.summary], [true, 'agent_code', 'claude-cli-served', 'Themes: ecology [1].'], JSON.stringify(detail.ai_lane));
    const seen = JSON.parse(fs.readFileSync(path.join(dir, 'seen.json'), 'utf8'));
    assert.match(seen.input, /Communicating Ecology/);
    const arg = (name: string) => seen.args[seen.args.indexOf(name) + 1];
    assert.is(arg('--tools'), '', 'no tools');
    assert.ok(seen.args.includes('--strict-mcp-config'));
    assert.not.ok(seen.args.join(' ').includes('Communicating'), 'the prompt is not in argv');
  } finally {
    await other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('svc dive --ai --ai-instructions: the summary in the foreground summary, svc executions show (text and --json) and the report', async () => {
  const dirs = tempDirs();
  try {
    const env = { ...dirs.env, SVC_SOURCE_CROSSREF_URL: crossref.url, SVC_AI_OPENAI_URL: model.url };
    for (const [key, value] of [['provider', 'openai'], ['summaries_enabled', 'true'], ['model', 'gpt-cli']]) {
      const r = await runCliInProcess(['settings', 'set', 'ai', key!, value!], { env });
      assert.is(r.code, 0, r.stderr);
    }
    assert.is((await runCliInProcess(['credentials', 'set', 'openai_api_key'], { env, stdin: KEY })).code, 0);
    model.mode = 'ok';
    const r = await runCliInProcess(['dive', 'crossref', 'ecology', '--max', '2', '--ai', '--ai-instructions', 'Only the field work, please.'], { env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /AI summary by openai \/ served-summary-model \(model-written, not checked against the papers; 2 of 2 documents considered\):\n  Themes: /);
    const sent = model.requests.at(-1)!;
    assert.is(sent.body.model, 'gpt-cli');
    assert.match(sent.raw, /Only the field work, please\./);
    const show = await runCliInProcess(['executions', 'show', '1'], { env });
    assert.match(show.stdout, /  Possibly off-topic: none\./);
    const json = JSON.parse((await runCliInProcess(['--json', 'executions', 'show', '1'], { env })).stdout);
    assert.equal([json.ai_lane.used, json.ai_lane.summary, json.parameters.ai_settings], [true, SUMMARY, { instructions: 'Only the field work, please.' }]);
    const report = await runCliInProcess(['executions', 'report', '1'], { env });
    assert.match(report.stdout, /AI summary \(openai \/ served-summary-model; model-written, not checked against the papers/);
    const refused = await runCliInProcess(['dive', 'crossref', 'ecology', '--ai-instructions', 'x'.repeat(2001)], { env });
    assert.is(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--ai-instructions/);
  } finally {
    dirs.cleanup();
  }
});

test.run();
