import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as repo from '../src/assistant/repo.js';
import { ROOT, runCli, startTestServer, waitFor, type TestServer } from './_setup.js';
import { deleteTurnClaim, getTurnClaim, openStream, parseFrames, putTurnClaim, startFakeProvider, writeFakeAgent, type FakeProvider } from './_assistant.js';

const KEY = 'sk-turns-key-abcdefghijklmnop';
let t: TestServer;
let fake: FakeProvider;
let agentDir: string;
let agent: string;

const CLI = { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: 'sonnet', effort: 'high' };
const OPENAI = { version: 1, runtime: 'api_key', provider: 'openai', model: 'gpt-4o-mini', effort: null };

test.before(async () => {
  fake = await startFakeProvider(KEY);
  const probe = await startTestServer(); // only for a temp dir beside the server's
  agentDir = path.join(probe.dirs.root + '-agent');
  await probe.close();
  agent = writeFakeAgent(agentDir);
  t = await startTestServer({
    env: { SVC_AI_OPENAI_URL: `${fake.url}/openai`, SVC_AI_ANTHROPIC_URL: `${fake.url}/anthropic`, SVC_AI_GEMINI_URL: `${fake.url}/gemini`, SVC_AGENT_CLI: agent, PATH: process.env.PATH! },
  });
  for (const name of ['openai_api_key', 'anthropic_api_key', 'gemini_api_key', 'mistral_api_key']) await t.request('PUT', `/api/credentials/${name}`, { body: { value: KEY } });
});
test.after(async () => {
  await t.close();
  await fake.close();
  fs.rmSync(agentDir, { recursive: true, force: true });
});

const create = async (choices: unknown, title = 'chat') => (await t.request('POST', '/api/assistant/sessions', { body: { choices, title } })).json().session.id as number;
const send = (id: number, body: unknown) => t.request('POST', `/api/assistant/sessions/${id}/messages`, { body });
const messageCount = (id: number) => repo.messagesOf(t.ctx.db, id).length;
const agentCalls = () => fs.readFileSync(path.join(agentDir, 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

test('API send streams turn_choices first, text, persisted model reports, the reply and done', async () => {
  const id = await create(OPENAI);
  const res = await send(id, { text: 'What is new?' });
  assert.is(res.status, 200);
  assert.match(String(res.headers['content-type']), /text\/event-stream/);
  const frames = parseFrames(res.text);
  assert.is(frames[0]!.event, 'turn_choices');
  const userId = frames[0]!.data.user_message_id;
  assert.equal(frames[0]!.data.requested, OPENAI);
  assert.is(frames[0]!.data.session_id, id);
  const reports = frames.filter((f) => f.event === 'turn_model_report').map((f) => f.data);
  assert.equal(reports.map((r) => [r.sequence, r.model, r.source, r.session_id, r.user_message_id]), [
    [1, 'served-model-1', 'api_response_model', id, userId],
    [2, 'served-model-2', 'api_response_model', id, userId],
  ]);
  assert.is(frames.filter((f) => f.event === 'text').map((f) => f.data.delta).join(''), 'Hello from the fake');
  assert.equal(frames.at(-1), { event: 'done', data: { session_id: id, user_message_id: userId, status: 'completed' } });
  const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  assert.equal(detail.messages.map((m: any) => [m.role, m.content]), [['user', 'What is new?'], ['assistant', 'Hello from the fake']]);
  assert.equal([detail.messages[1].input_tokens, detail.messages[1].output_tokens, detail.messages[1].cost_usd], [11, 7, null]);
  const turn = detail.turn_choices[0];
  assert.equal([turn.user_message_id, turn.assistant_message_id, turn.requested.model], [userId, detail.messages[1].id, 'gpt-4o-mini']);
  assert.equal(turn.reports.map((r: any) => r.model), ['served-model-1', 'served-model-2'], 'no report for the requested echo');
  assert.is(fake.seen.at(-1)!.body.model, 'gpt-4o-mini');
  // A second send carries the saved history.
  await send(id, { text: 'And then?' });
  assert.equal(fake.seen.at(-1)!.body.messages.slice(1).map((m: any) => m.content), ['What is new?', 'Hello from the fake', 'And then?']);
});

test('Anthropic and Gemini turns record their own report sources', async () => {
  for (const [provider, model, source] of [['anthropic', 'claude-served', 'api_response_model'], ['gemini', 'gemini-served-001', 'alt_api_response_modelVersion']]) {
    const id = await create({ ...OPENAI, provider, model: 'asked-model' });
    const frames = parseFrames((await send(id, { text: 'hi' })).text);
    const r = frames.find((f) => f.event === 'turn_model_report')!.data;
    assert.equal([r.model, r.source], [model, source]);
    assert.is(frames.at(-1)!.data.status, 'completed');
  }
});

test('message body refusals: 422 for malformed bodies, 404 for a missing session', async () => {
  const id = await create(OPENAI);
  for (const body of [{}, { text: '' }, { text: 5 }, { text: 'x', extra: 1 }, { text: 'x', legacy_adoption: { confirmed: true } }]) {
    assert.is((await send(id, body)).status, 422, JSON.stringify(body));
  }
  assert.is((await send(999999, { text: 'x' })).status, 404);
  assert.is(messageCount(id), 0);
});

test('a runtime whose prerequisites are missing is refused before any row', async () => {
  const id = await create({ ...OPENAI, provider: 'xai', model: 'grok' });
  const res = await send(id, { text: 'hi' });
  assert.is(res.status, 503);
  assert.is(res.json().detail.reason, 'assistant_unavailable');
  assert.is(messageCount(id), 0);
});

test('409 legacy_adoption_required, runtime_change_requires_new_conversation, already_bound', async () => {
  const legacy = repo.insertSession(t.ctx.db, { title: 'old chat', runtime: 'api_key', model: 'old-model', at: '2020-01-01T00:00:00.000Z' });
  repo.insertMessage(t.ctx.db, { session_id: legacy, role: 'user', content: 'earlier question', at: '2020-01-01T00:00:00.000Z' });
  repo.insertMessage(t.ctx.db, { session_id: legacy, role: 'assistant', content: 'earlier answer', at: '2020-01-01T00:00:01.000Z' });
  const reason = async (id: number, body: unknown) => {
    const res = await send(id, body);
    assert.is(res.status, 409, res.text);
    return res.json().detail.reason;
  };
  assert.is(await reason(legacy, { text: 'hi' }), 'legacy_adoption_required');
  assert.is(await reason(legacy, { text: 'hi', legacy_adoption: null }), 'legacy_adoption_required');
  assert.is(await reason(legacy, { text: 'hi', legacy_adoption: { confirmed: false, choices: OPENAI } }), 'legacy_adoption_required');
  assert.is(await reason(legacy, { text: 'hi', legacy_adoption: { confirmed: true, choices: CLI } }), 'runtime_change_requires_new_conversation');
  const bad = await send(legacy, { text: 'hi', legacy_adoption: { confirmed: true, choices: { ...OPENAI, effort: 'max' } } });
  assert.is(bad.status, 400);
  assert.is(messageCount(legacy), 2, 'no user row admitted by any refusal');
  // Adoption: binding legacy_confirmed, history and legacy model preserved, saved text sent to the provider.
  const ok = await send(legacy, { text: 'new question', legacy_adoption: { confirmed: true, choices: OPENAI } });
  assert.is(ok.status, 200);
  assert.equal(fake.seen.at(-1)!.body.messages.slice(1).map((m: any) => m.content), ['earlier question', 'earlier answer', 'new question']);
  const detail = (await t.request('GET', `/api/assistant/sessions/${legacy}`)).json();
  assert.is(detail.choices.binding_basis, 'legacy_confirmed');
  assert.is(detail.session.model, 'old-model');
  assert.is(detail.messages.length, 4);
  assert.is(await reason(legacy, { text: 'again', legacy_adoption: { confirmed: true, choices: OPENAI } }), 'already_bound');
  const bound = await create(OPENAI);
  assert.is(await reason(bound, { text: 'hi', legacy_adoption: { confirmed: true, choices: OPENAI } }), 'already_bound');
});

test('409 when the configured locator changed since binding; global defaults never retarget', async () => {
  const id = await create({ ...OPENAI, provider: 'mistral', model: 'mistral-small' });
  await t.request('PUT', '/api/settings/assistant', { body: { settings: { assistant_runtime: 'api_key', assistant_model: 'other' } } });
  await t.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'mistral', base_url: 'http://127.0.0.1:5/elsewhere' } } });
  const res = await send(id, { text: 'hi' });
  assert.is(res.status, 409);
  assert.is(res.json().detail.reason, 'locator_changed');
  assert.is(messageCount(id), 0);
  const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  assert.equal([detail.choices.provider, detail.choices.model], ['mistral', 'mistral-small']);
  await t.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'none', base_url: '' } } });
  await t.request('PUT', '/api/settings/assistant', { body: { settings: { assistant_runtime: 'agent_cli', assistant_model: null } } });
});

test('agent CLI turn: effort, native session resumed, MCP config names port and state dir but never the token', async () => {
  const id = await create(CLI);
  const frames = parseFrames((await send(id, { text: 'hello agent' })).text);
  const report = frames.find((f) => f.event === 'turn_model_report')!.data;
  assert.equal([report.model, report.source], ['agent-reported-model', 'agent_system_init_model']);
  assert.is(frames.filter((f) => f.event === 'text').map((f) => f.data.delta).join(''), 'agent says: hello agent effort=20000');
  let call = agentCalls().at(-1);
  assert.not.ok(call.argv.includes('--resume'));
  assert.ok(call.argv.includes('sonnet'));
  // As the agent read it (the file is removed when the turn ends).
  const config = call.mcpConfig as string;
  assert.is(call.mcpConfigMode, 0o600);
  assert.ok(config.includes(String(t.port)) && config.includes(t.dirs.stateDir));
  assert.not.ok(config.includes(t.token));
  assert.not.ok(JSON.stringify(call.env).includes(t.token), 'the child environment has no token');
  assert.not.ok(JSON.stringify(call.argv).includes(t.token));
  // Print mode cannot ask the person: svc's read tools are allowed up front (named as the config names the server), writes are not.
  const serverName = Object.keys(JSON.parse(config).mcpServers)[0];
  const allowed = String(call.argv[call.argv.indexOf('--allowedTools') + 1]).split(',');
  assert.is(allowed.length, 18);
  assert.ok(allowed.includes(`mcp__${serverName}__search_corpus`) && allowed.includes(`mcp__${serverName}__explain_match`));
  assert.not.ok(allowed.some((name) => /run_sweep|create_routine|update_settings|activate_routine/.test(name)));
  await send(id, { text: 'second' });
  call = agentCalls().at(-1);
  assert.is(call.argv[call.argv.indexOf('--resume') + 1], 'native-abc');
  const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  assert.is(detail.messages[1].cost_usd, 0.0123);
  assert.is(detail.totals.cost_usd, 0.0246);
});

test('a relayed agent error is scrubbed of the token', async () => {
  const id = await create(CLI);
  const frames = parseFrames((await send(id, { text: `FAIL ${t.token}` })).text);
  const error = frames.find((f) => f.event === 'error')!;
  assert.is(error.data.reason, 'upstream_error');
  assert.not.ok(JSON.stringify(frames).includes(t.token));
  assert.is(frames.at(-1)!.data.status, 'failed');
  assert.not.ok(t.logLines.join('\n').includes(t.token));
});

test('409 turn_active while a turn runs; cancel is idempotent and says which happened', async () => {
  const id = await create(CLI);
  const stream = openStream(t.port, t.token, `/api/assistant/sessions/${id}/messages`, { text: 'SLOW please' });
  await waitFor(() => stream.frames.some((f) => f.event === 'text'), 10_000, 'first text');
  const busy = await send(id, { text: 'me too' });
  assert.is(busy.status, 409);
  assert.is(busy.json().detail.reason, 'turn_active');
  assert.is((await t.request('DELETE', `/api/assistant/sessions/${id}`)).status, 409);
  const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  assert.equal([detail.activity_observation.turn_claimed, detail.activity_observation.cli_running], [true, true]);
  const first = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.equal([first.outcome, first.cancelled], ['cancel_requested', true]);
  const second = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.ok(['already_cancelling', 'no_active_turn'].includes(second.outcome));
  await stream.ended;
  assert.equal(stream.frames.at(-1)!.data.status, 'cancelled');
  const after = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.equal([after.outcome, after.cancelled], ['no_active_turn', false]);
  assert.equal(repo.messagesOf(t.ctx.db, id).map((m) => [m.role, m.content]), [['user', 'SLOW please'], ['assistant', 'thinking']]);
  assert.is((await t.request('POST', '/api/assistant/sessions/999999/cancel')).status, 404);
});

test('one turn at a time across processes: `svc chat N` is refused while the server runs N, and a claim left by a dead process is taken over', async () => {
  const id = await create(CLI);
  const stream = openStream(t.port, t.token, `/api/assistant/sessions/${id}/messages`, { text: 'SLOW please' });
  await waitFor(() => stream.frames.some((f) => f.event === 'text'), 10_000, 'first text');
  const cliEnv = { ...t.dirs.env, SVC_AGENT_CLI: agent, PATH: process.env.PATH };
  const busy = await runCli(['chat', String(id), '-m', 'me too', '--json'], { env: cliEnv });
  assert.is(busy.code, 4, busy.stderr);
  assert.match(busy.stdout + busy.stderr, /already has a running turn/);
  assert.equal(repo.messagesOf(t.ctx.db, id).filter((m) => m.role === 'user').map((m) => m.content), ['SLOW please']);
  await t.request('POST', `/api/assistant/sessions/${id}/cancel`);
  await stream.ended;
  assert.is(getTurnClaim(t.ctx.db, id), undefined, 'released when the turn ends');

  // A CLI chat killed mid-turn leaves its claim behind: a dead pid does not keep the conversation busy.
  const gone = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.on('exit', () => resolve(child.pid!));
  });
  putTurnClaim(t.ctx.db, { session_id: id, pid: gone, runtime_id: 'another-process', claimed_at_ms: Date.now() });
  assert.not.ok((await t.request('GET', `/api/assistant/sessions/${id}`)).json().activity_observation.turn_claimed);
  const next = await runCli(['chat', String(id), '-m', 'after the crash', '--json'], { env: cliEnv });
  assert.is(next.code, 0, next.stderr);
  // Held by a live process (this one, under another runtime id): the server refuses, as for its own turn.
  putTurnClaim(t.ctx.db, { session_id: id, pid: process.pid, runtime_id: 'another-process', claimed_at_ms: Date.now() });
  assert.ok((await t.request('GET', `/api/assistant/sessions/${id}`)).json().activity_observation.turn_claimed);
  const held = await send(id, { text: 'refused' });
  assert.is(held.status, 409);
  assert.is(held.json().detail.reason, 'turn_active');
  assert.is((await t.request('DELETE', `/api/assistant/sessions/${id}`)).status, 409);
  // Written before the machine booted: its pid may be someone else's now.
  putTurnClaim(t.ctx.db, { session_id: id, pid: process.pid, runtime_id: 'another-process', claimed_at_ms: 0 });
  assert.is((await send(id, { text: 'after a reboot' })).status, 200);
});

/** `svc chat …` as a child process whose output the test can watch while it runs. */
function startCli(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), ...args], { cwd: ROOT, env: { NO_COLOR: '1', ...env } as NodeJS.ProcessEnv });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  child.stdin.end();
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out, exited };
}

test('the cancel route stops a turn that `svc chat N` runs in another process, as a local cancel does', async () => {
  const id = await create(CLI);
  const cli = startCli(['chat', String(id), '-m', 'SLOW from the terminal'], { ...t.dirs.env, SVC_AGENT_CLI: agent, PATH: process.env.PATH });
  try {
    await waitFor(() => cli.out.stdout.includes('thinking'), 15_000, 'the terminal turn to start');
    assert.ok((await t.request('GET', `/api/assistant/sessions/${id}`)).json().activity_observation.turn_claimed);
    const first = await t.request('POST', `/api/assistant/sessions/${id}/cancel`);
    assert.is(first.status, 200);
    assert.equal([first.json().outcome, first.json().cancelled, first.json().owner, first.json().stale_claim], ['cancel_requested', true, 'other_process', null]);
    const second = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
    assert.ok(['already_cancelling', 'no_active_turn'].includes(second.outcome), second.outcome);
    const code = await Promise.race([cli.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
    assert.is(code, 130, `exit ${code}: ${cli.out.stderr}`);
    assert.match(cli.out.stderr, /cancelled from another process/);
  } finally {
    cli.child.kill('SIGKILL');
  }
  // What a local cancel leaves: the user message and the partial reply, linked to its turn; the claim released.
  assert.equal(repo.messagesOf(t.ctx.db, id).map((m) => [m.role, m.content]), [['user', 'SLOW from the terminal'], ['assistant', 'thinking']]);
  const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  assert.is(detail.turn_choices[0].assistant_message_id, detail.messages[1].id);
  assert.not.ok(detail.activity_observation.turn_claimed);
  assert.is(getTurnClaim(t.ctx.db, id), undefined);
  const after = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.equal([after.outcome, after.cancelled, after.owner], ['no_active_turn', false, null]);
  assert.is((await send(id, { text: 'next' })).status, 200);
});

test('`svc chat cancel N` in a terminal stops the turn the server runs for the desktop, as the cancel route does', async () => {
  const id = await create(CLI);
  const stream = openStream(t.port, t.token, `/api/assistant/sessions/${id}/messages`, { text: 'SLOW from the desktop' });
  await waitFor(() => stream.frames.some((f) => f.event === 'text'), 10_000, 'first text');
  const cliEnv = { ...t.dirs.env, SVC_AGENT_CLI: agent, PATH: process.env.PATH };
  const cancel = await runCli(['chat', 'cancel', String(id), '--json'], { env: cliEnv });
  assert.is(cancel.code, 0, cancel.stderr);
  const answer = JSON.parse(cancel.stdout);
  assert.equal([answer.session_id, answer.outcome, answer.cancelled, answer.owner, answer.stale_claim], [id, 'cancel_requested', true, 'other_process', null]);
  await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the server turn did not stop')), 10_000))]);
  assert.equal(stream.frames.at(-1)!.data.status, 'cancelled');
  assert.equal(repo.messagesOf(t.ctx.db, id).map((m) => [m.role, m.content]), [['user', 'SLOW from the desktop'], ['assistant', 'thinking']]);
  assert.is(stream.frames.filter((f) => f.event === 'message').length, 1, 'the partial reply is announced as a local cancel does');
  const again = await runCli(['assistant', 'cancel', String(id)], { env: cliEnv });
  assert.is(again.code, 0, again.stderr);
  assert.is(again.stdout.trim(), `Conversation ${id} has no running turn.`);
  assert.is((await runCli(['chat', 'cancel', '999999'], { env: cliEnv })).code, 3);
});

test('a cancel of a claim left by a process that no longer runs says so, and asks nobody', async () => {
  const id = await create(CLI);
  const gone = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.on('exit', () => resolve(child.pid!));
  });
  const at = Date.now();
  putTurnClaim(t.ctx.db, { session_id: id, pid: gone, runtime_id: 'dead-process', claimed_at_ms: at });
  const dead = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.equal([dead.outcome, dead.cancelled, dead.owner], ['no_active_turn', false, null]);
  assert.equal(dead.stale_claim, { pid: gone, claimed_at_utc: new Date(at).toISOString(), reason: 'process_gone' });
  assert.match(dead.message, new RegExp(`process ${gone}, which no longer runs`));
  assert.is(getTurnClaim(t.ctx.db, id)!.cancel_requested, 0, 'nothing stamped for nobody');
  // A live pid from before the machine started is someone else's now.
  putTurnClaim(t.ctx.db, { session_id: id, pid: process.pid, runtime_id: 'dead-process', claimed_at_ms: 0 });
  const old = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.equal([old.outcome, old.stale_claim.reason], ['no_active_turn', 'before_boot']);
  // Held by a live process: the request is stamped once, and a second ask says it is already stopping.
  putTurnClaim(t.ctx.db, { session_id: id, pid: process.pid, runtime_id: 'live-process', claimed_at_ms: Date.now() });
  assert.equal((await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json().outcome, 'cancel_requested');
  assert.is(getTurnClaim(t.ctx.db, id)!.cancel_requested, 1, 'stamped');
  assert.equal((await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json().outcome, 'already_cancelling');
  assert.equal(getTurnClaim(t.ctx.db, id), { pid: process.pid, runtime_id: 'live-process', cancel_requested: 1 }, 'the same claim, still stamped');
  deleteTurnClaim(t.ctx.db, id, 'live-process');
});

test('a reader disconnect keeps the claim until the worker finishes, and asks it to stop', async () => {
  const id = await create(CLI);
  const stream = openStream(t.port, t.token, `/api/assistant/sessions/${id}/messages`, { text: 'SLOW again' });
  await waitFor(() => stream.frames.some((f) => f.event === 'text'), 10_000, 'first text');
  stream.destroy();
  // The worker stops (the agent is killed), then the claim is released.
  await waitFor(async () => !(await t.request('GET', `/api/assistant/sessions/${id}`)).json().activity_observation.turn_claimed, 10_000, 'claim released');
  assert.ok(repo.messagesOf(t.ctx.db, id).some((m) => m.role === 'assistant' && m.content === 'thinking'));
  const next = await send(id, { text: 'hello after' });
  assert.is(next.status, 200);
});

test('permissions: the request is held open until allow or deny', async () => {
  const id = await create(CLI);
  const held = openStream(t.port, t.token, '/api/assistant/permissions', { session_id: id, tool_name: 'Bash', tool_use_id: 'tu_1', input: { command: 'ls' } });
  assert.is(await held.status, 200);
  let answered = false;
  held.ended.then(() => (answered = true));
  const { permissionBroker } = await import('../src/assistant/permissions.js');
  // The server has parked the request: its answer has begun (the leading space that flushes the headers) and the broker holds it.
  await waitFor(() => held.text().startsWith(' ') && permissionBroker(t.ctx).pending(id).length > 0, 5000, 'the request held');
  assert.is(answered, false, 'still held');
  assert.match(held.text(), /^ +$/, 'nothing but keep-alive spaces: no answer yet');
  const pending = permissionBroker(t.ctx).pending(id);
  assert.is(pending.length, 1);
  const requestId = pending[0]!.request_id;
  assert.is((await t.request('POST', `/api/assistant/permissions/${requestId}`, { body: { allow: 'yes' } })).status, 422);
  const answer = await t.request('POST', `/api/assistant/permissions/${requestId}`, { body: { allow: false, reason: 'not now' } });
  assert.is(answer.status, 200);
  await held.ended;
  const result = JSON.parse(held.text());
  assert.equal([result.request_id, result.allow, result.reason, result.tool_use_id], [requestId, false, 'not now', 'tu_1']);
  assert.is((await t.request('POST', `/api/assistant/permissions/${requestId}`, { body: { allow: true } })).status, 409);
  assert.is((await t.request('POST', '/api/assistant/permissions/no-such-id', { body: { allow: true } })).status, 404);
  assert.is((await t.request('POST', '/api/assistant/permissions', { body: { session_id: 999999, tool_name: 'Bash' } })).status, 404);
  assert.is((await t.request('POST', '/api/assistant/permissions', { body: { tool_name: 'Bash' } })).status, 422);
});

test('permissions during a running turn are relayed on its stream (request, then answer), and one still pending when the turn ends is denied', async () => {
  const id = await create(CLI);
  const turn = openStream(t.port, t.token, `/api/assistant/sessions/${id}/messages`, { text: 'SLOW permission' });
  await waitFor(() => turn.frames.some((f) => f.event === 'text'), 10_000, 'first text');
  const first = openStream(t.port, t.token, '/api/assistant/permissions', { session_id: id, tool_name: 'mcp__svc__run_sweep', tool_use_id: 'tu_9', input: { query: 'x' } });
  const asked = await waitFor(() => turn.frames.find((f) => f.event === 'permission_request'), 5000, 'permission_request frame');
  assert.equal([asked.data.session_id, asked.data.tool_name, asked.data.tool_use_id, asked.data.input], [id, 'mcp__svc__run_sweep', 'tu_9', { query: 'x' }]);
  assert.type(asked.data.user_message_id, 'number');
  await t.request('POST', `/api/assistant/permissions/${asked.data.request_id}`, { body: { allow: true, reason: null } });
  const told = await waitFor(() => turn.frames.find((f) => f.event === 'permission_answered'), 5000, 'permission_answered frame');
  assert.equal([told.data.request_id, told.data.allow], [asked.data.request_id, true]);
  await first.ended;
  assert.is(JSON.parse(first.text()).allow, true);
  const second = openStream(t.port, t.token, '/api/assistant/permissions', { session_id: id, tool_name: 'Bash', tool_use_id: null, input: {} });
  await waitFor(() => turn.frames.filter((f) => f.event === 'permission_request').length === 2, 5000, 'second request');
  await t.request('POST', `/api/assistant/sessions/${id}/cancel`);
  await second.ended;
  assert.equal([JSON.parse(second.text()).allow, JSON.parse(second.text()).reason], [false, 'The turn ended before an answer.']);
  await turn.ended;
});

test('a plugged-in tool box: each call and its answer are recorded, then the model answers', async () => {
  const { provideAssistantTools } = await import('../src/assistant/runner.js');
  const calls: unknown[] = [];
  provideAssistantTools(t.ctx, {
    specs: [{ name: 'search_corpus', description: 'Search the corpus', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }],
    run: async (call) => {
      calls.push(call.input);
      return { output: { documents: [{ id: 1, title: 'Ecology now' }], leaked: t.token }, isError: false };
    },
  });
  try {
    const id = await create({ ...OPENAI, provider: 'anthropic', model: 'asked' });
    const frames = parseFrames((await send(id, { text: 'find ecology' })).text);
    assert.equal(calls, [{ query: 'ecology' }]);
    assert.equal(frames.filter((f) => f.event.startsWith('tool_')).map((f) => f.event), ['tool_call', 'tool_result']);
    assert.not.ok(JSON.stringify(frames).includes(t.token), 'tool results are scrubbed of the token');
    const second = fake.seen.at(-1)!.body;
    assert.is(second.messages.at(-1).content[0].type, 'tool_result');
    const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
    assert.equal(detail.messages.map((m: any) => m.role), ['user', 'assistant', 'tool', 'assistant']);
    assert.equal(detail.messages[1].tool_calls.data, [{ id: 'toolu_1', name: 'search_corpus', input: { query: 'ecology' } }]);
    assert.is(detail.messages[2].tool_results.data[0].output.documents[0].title, 'Ecology now');
    assert.is(detail.turn_choices[0].assistant_message_id, detail.messages[3].id);
  } finally {
    provideAssistantTools(t.ctx, undefined);
  }
});

test("a reply and its turn's link are stored together: a refused link leaves no reply the turn does not name", async () => {
  const id = await create(OPENAI);
  t.ctx.db.exec("CREATE TEMP TRIGGER refuse_reply_link BEFORE UPDATE OF assistant_message_id ON assistant_turn_choices BEGIN SELECT RAISE(ABORT, 'link refused'); END");
  let frames;
  try {
    frames = parseFrames((await send(id, { text: 'Anything?' })).text);
  } finally {
    t.ctx.db.exec('DROP TRIGGER temp.refuse_reply_link');
  }
  assert.not.ok(frames.some((f) => f.event === 'message'), 'no reply announced');
  assert.equal(repo.messagesOf(t.ctx.db, id).map((m) => m.role), ['user'], 'no stored reply without its turn');
  assert.equal(repo.turnsOf(t.ctx.db, id).map((turn) => turn.assistant_message_id), [null]);
});

test("a message and its session's updated time are stored together", async () => {
  const id = await create(OPENAI);
  t.ctx.db.exec("CREATE TEMP TRIGGER refuse_session_touch BEFORE UPDATE OF updated_at_utc ON assistant_sessions BEGIN SELECT RAISE(ABORT, 'touch refused'); END");
  try {
    assert.throws(() => repo.insertMessage(t.ctx.db, { session_id: id, role: 'user', content: 'hello', at: t.ctx.nowIso() }), /touch refused/);
  } finally {
    t.ctx.db.exec('DROP TRIGGER temp.refuse_session_touch');
  }
  assert.is(messageCount(id), 0, 'no message the session does not show as its latest change');
});

test('tool calls and their answers are stored together: a refused answer leaves no unanswered call in the history', async () => {
  const { provideAssistantTools } = await import('../src/assistant/runner.js');
  provideAssistantTools(t.ctx, {
    specs: [{ name: 'search_corpus', description: 'Search the corpus', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }],
    run: async () => ({ output: { documents: [] }, isError: false }),
  });
  t.ctx.db.exec("CREATE TEMP TRIGGER refuse_tool_answer BEFORE INSERT ON assistant_messages WHEN NEW.role = 'tool' BEGIN SELECT RAISE(ABORT, 'answer refused'); END");
  try {
    const id = await create({ ...OPENAI, provider: 'anthropic', model: 'asked' });
    const frames = parseFrames((await send(id, { text: 'find ecology' })).text);
    assert.equal(frames.at(-1)!.data.status, 'failed');
    assert.equal(repo.messagesOf(t.ctx.db, id).map((m) => m.role), ['user'], 'no saved tool call without its saved answer');
  } finally {
    t.ctx.db.exec('DROP TRIGGER temp.refuse_tool_answer');
    provideAssistantTools(t.ctx, undefined);
  }
});

test.run();
