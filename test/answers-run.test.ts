import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { LIB_HEADERS } from './_library.js';
import { recoverInterrupted } from '../src/answers/history.js';
import { answersOf } from '../src/answers/service.js';
import { refusal } from './_library.js';
import { waitFor } from './_setup.js';
import { sel, startAnswerServer, type AnswerServer } from './_answers.js';
import { startFakeModel, writeFakeAgent, type Behaviour, type FakeServer } from './_fake-model.js';

let s: AnswerServer;
let openai: FakeServer;
let anthropic: FakeServer;
let gemini: FakeServer;
let agentDir: string;

test.before(async () => {
  s = await startAnswerServer({ answers: { limits: { attachMs: 5_000, deadlineMs: 4_000, livePreviews: 50, previewResidentBytes: 10_000_000 } } });
  openai = await startFakeModel('openai');
  anthropic = await startFakeModel('anthropic');
  gemini = await startFakeModel('gemini');
  s.t.ctx.config.ai.urls.gemini = gemini.url;
  s.t.ctx.credentials.set('gemini_api_key', 'AIza-gemini-secret-9012');
  s.t.ctx.config.ai.urls.openai = openai.url;
  s.t.ctx.config.ai.urls.anthropic = anthropic.url;
  s.t.ctx.credentials.set('openai_api_key', 'sk-openai-secret-1234');
  s.t.ctx.credentials.set('anthropic_api_key', 'sk-ant-secret-5678');
  agentDir = fs.mkdtempSync(`${s.t.dirs.root}/agent-`);
  s.t.ctx.config.ai.agentCli = writeFakeAgent(agentDir);
});
test.after(async () => {
  await openai.close();
  await anthropic.close();
  await gemini.close();
  await s.close();
});

const choices = {
  openai: (model = 'gpt-test') => ({ version: 1, runtime: 'api_key', provider: 'openai', model, effort: null }),
  anthropic: () => ({ version: 1, runtime: 'api_key', provider: 'anthropic', model: 'claude-x', effort: null }),
  gemini: () => ({ version: 1, runtime: 'api_key', provider: 'gemini', model: 'gemini-x', effort: null }),
  cli: (mode: string) => ({ version: 1, runtime: 'agent_cli', provider: 'agent_code', model: mode, effort: 'low' }),
};

async function send(overrides: Record<string, unknown> = {}) {
  const p = await s.preview(overrides);
  assert.is(p.status, 201, p.text);
  const preview = p.json();
  const consent = { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId, preview_id: preview.preview_id, request_sha256: preview.request_sha256, confirmed: true };
  const r = await s.call('POST', s.A('/answers'), consent);
  return { r, preview, consent };
}

async function watch(answerId: string) {
  const r = await s.call('GET', `${s.A(`/answers/${answerId}/events`)}?${s.V}&expected_runtime_id=${s.runtimeId}`);
  assert.is(r.status, 200, r.text);
  const frames = r.text.split('\n\n').filter((b) => b.includes('data: ')).map((b) => JSON.parse(b.split('\n').find((l) => l.startsWith('data: '))!.slice(6)));
  return frames;
}

async function run(c: Record<string, unknown>, behaviour: Behaviour, fake?: FakeServer) {
  if (fake) fake.behaviour = behaviour;
  const { r } = await send({ choices: c });
  assert.is(r.status, 201, r.text);
  const answer = r.json().answer;
  const frames = await watch(answer.answer_id);
  const saved = (await s.call('GET', `${s.A(`/answers/${answer.answer_id}`)}?${s.V}`)).json().answer;
  return { answer, frames, saved };
}

test('OpenAI family: one request without tools or history; validated answer, usage with provenance, frames in order', async () => {
  const { answer, frames, saved } = await run(choices.openai(), 'valid', openai);
  assert.is(answer.state, 'admitted');
  const req = openai.requests.at(-1)!;
  assert.is(req.path, '/v1/chat/completions');
  assert.is(req.body.tools, undefined);
  assert.equal(req.body.messages.map((m: any) => m.role), ['system', 'user']);
  assert.is(req.headers['accept-encoding'], 'identity');
  const user = JSON.parse(req.body.messages[1].content);
  assert.is(user.request_sha256, answer.request_sha256);
  assert.is(frames[0].type, 'snapshot');
  assert.is(frames[0].data.answer_id, answer.answer_id);
  assert.is(frames.at(-1).type, 'terminal');
  const seq = frames.map((f: any) => f.sequence);
  assert.equal(seq, [...seq].sort((a, b) => a - b));
  assert.is(new Set(seq).size, seq.length);
  for (const f of frames) {
    assert.is(f.answer_id, answer.answer_id);
    assert.is(f.runtime_id, s.runtimeId);
    assert.is(f.vault_id, s.vaultId);
    assert.is(f.project_id, s.projectId);
    assert.is(f.request_sha256, answer.request_sha256);
  }
  assert.is(saved.state, 'succeeded', JSON.stringify(saved.error));
  assert.is(saved.output.validated, true);
  assert.is(saved.output.result.sections[0].items[0].citations[0].start, 0);
  assert.equal(saved.usage, { input_tokens: 321, output_tokens: 45, provenance: 'reported', source: 'api_response_usage', billing: 'unknown' });
  assert.equal(saved.reported_model, { model: 'gpt-test-0001', source: 'api_response_model' });
  assert.is(saved.request.choices.model, 'gpt-test');
  assert.is(saved.completion, 'completed');
  const text = JSON.stringify(saved);
  assert.not.ok(text.includes('sk-openai'));
  assert.not.ok(text.includes('route_digest') || text.includes('native_session'));
});

test('Anthropic family: insufficient_evidence is a success', async () => {
  const { saved } = await run(choices.anthropic(), 'insufficient', anthropic);
  assert.is(anthropic.requests.at(-1)!.path, '/v1/messages');
  assert.is(anthropic.requests.at(-1)!.body.tools, undefined);
  assert.is(saved.state, 'succeeded');
  assert.is(saved.output.result.status, 'insufficient_evidence');
  assert.is(saved.usage.input_tokens, 111);
  assert.is(saved.usage.output_tokens, 22);
});

test('Gemini family: one streamGenerateContent request (key in a header, never the URL), no tools, a validated answer', async () => {
  const { saved } = await run(choices.gemini(), 'valid', gemini);
  const req = gemini.requests.at(-1)!;
  assert.is(req.path, '/v1/models/gemini-x:streamGenerateContent?alt=sse');
  assert.is(req.headers['x-goog-api-key'], 'AIza-gemini-secret-9012');
  assert.is(req.body.tools, undefined);
  assert.is(req.body.contents.length, 1, 'one user message, no history');
  assert.ok(req.body.systemInstruction.parts[0].text.length > 0, 'the system asset is sent apart');
  assert.is(saved.state, 'succeeded');
  assert.equal(saved.reported_model, { model: 'gemini-test-001', source: 'alt_api_response_modelVersion' });
  assert.is(saved.usage.input_tokens, 222);
  assert.is(saved.usage.output_tokens, 33);
  assert.not.ok(JSON.stringify(saved).includes('AIza-gemini'));
});

test('an invalid citation fails the answer and keeps the output unvalidated (no repair request)', async () => {
  const before = anthropic.requests.length;
  const { saved } = await run(choices.anthropic(), 'bad_citation', anthropic);
  assert.is(anthropic.requests.length, before + 1);
  assert.is(saved.state, 'failed');
  assert.is(saved.error.reason, 'output_invalid');
  assert.is(saved.output.validated, false);
  assert.is(saved.output.reason, 'citation_quote_not_found');
  assert.ok(saved.output.text.includes('words that are not there'));
});

test('oversize model text fails with output_too_large; a stream without a stop reason fails', async () => {
  const big = await run(choices.openai(), 'oversize', openai);
  assert.is(big.saved.state, 'failed');
  assert.is(big.saved.error.reason, 'output_too_large');
  const nostop = await run(choices.openai(), 'no_stop', openai);
  assert.is(nostop.saved.state, 'failed');
  assert.is(nostop.saved.error.reason, 'no_completion');
});

test('the deadline fails a hanging run, keeping the durable prefix', async () => {
  answersOf(s.t.ctx).limits.deadlineMs = 800;
  try {
    const { saved } = await run(choices.openai(), 'hang', openai);
    assert.is(saved.state, 'failed');
    assert.is(saved.error.reason, 'deadline_exceeded');
    assert.ok(saved.partial_text.startsWith('{"version":1'));
  } finally {
    answersOf(s.t.ctx).limits.deadlineMs = 4_000;
  }
});

test('cancel saves cancelled at once (running, watched); only one terminal update wins; a second cancel is refused', async () => {
  openai.behaviour = 'hang';
  const { r } = await send({ choices: choices.openai() });
  const id = r.json().answer.answer_id;
  const state = () => s.t.ctx.db.prepare('SELECT state FROM evidence_answers WHERE answer_id = ?').pluck().get(id);
  assert.is(state(), 'admitted'); // nothing runs before the subscriber attaches
  const watching = watch(id);
  await waitFor(() => state() === 'running' && (s.t.ctx.db.prepare('SELECT partial_text FROM evidence_answers WHERE answer_id = ?').pluck().get(id) as string).length > 0);
  const c = await s.call('POST', s.A(`/answers/${id}/cancel`), { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId });
  assert.is(c.status, 200, c.text);
  assert.is(c.json().answer.state, 'cancelled');
  const frames = await watching;
  assert.is(frames.at(-1).type, 'terminal');
  assert.is(frames.at(-1).data.state, 'cancelled');
  assert.ok(frames.some((f: any) => f.type === 'partial'));
  await waitFor(() => !answersOf(s.t.ctx).live.has(id));
  const saved = (await s.call('GET', `${s.A(`/answers/${id}`)}?${s.V}`)).json().answer;
  assert.is(saved.state, 'cancelled');
  assert.is(saved.error.reason, 'cancel_requested');
  assert.is(saved.cleanup, 'confirmed');
  refusal(await s.call('POST', s.A(`/answers/${id}/cancel`), { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId }), 409, 'answer_not_live');
  refusal(await s.call('POST', s.A(`/answers/${crypto.randomUUID()}/cancel`), { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId }), 404, 'answer_not_found');
});

test('a subscriber that disconnects cancels the run', async () => {
  openai.behaviour = 'hang';
  const { r } = await send({ choices: choices.openai() });
  const id = r.json().answer.answer_id;
  const state = () => s.t.ctx.db.prepare('SELECT state FROM evidence_answers WHERE answer_id = ?').pluck().get(id);
  await new Promise<void>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: s.t.port, path: `${s.A(`/answers/${id}/events`)}?${s.V}&expected_runtime_id=${s.runtimeId}`, headers: { ...LIB_HEADERS, host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}` } },
      (res) => {
        assert.is(res.statusCode, 200);
        res.once('data', async () => {
          await waitFor(() => state() === 'running');
          req.destroy();
          resolve();
        });
      },
    );
    req.on('error', () => {});
    setTimeout(() => reject(new Error('no frame')), 5000).unref();
  });
  await waitFor(() => state() === 'cancelled');
  const saved = (await s.call('GET', `${s.A(`/answers/${id}`)}?${s.V}`)).json().answer;
  assert.is(saved.error.reason, 'subscriber_disconnected');
});

test('an admitted answer can be cancelled before anyone watches', async () => {
  openai.behaviour = 'valid';
  const { r } = await send({ choices: choices.openai() });
  const id = r.json().answer.answer_id;
  const c = await s.call('POST', s.A(`/answers/${id}/cancel`), { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId });
  assert.is(c.json().answer.state, 'cancelled');
  refusal(await s.call('GET', `${s.A(`/answers/${id}/events`)}?${s.V}&expected_runtime_id=${s.runtimeId}`), 409, 'answer_not_live');
});

test('an answer nobody watches within the attach window is cancelled', async () => {
  answersOf(s.t.ctx).limits.attachMs = 300;
  try {
    openai.behaviour = 'hang';
    const { r } = await send({ choices: choices.openai() });
    const id = r.json().answer.answer_id;
    await waitFor(() => !answersOf(s.t.ctx).live.has(id));
    const saved = (await s.call('GET', `${s.A(`/answers/${id}`)}?${s.V}`)).json().answer;
    assert.is(saved.state, 'cancelled');
    assert.is(saved.error.reason, 'attach_timeout');
    refusal(await s.call('GET', `${s.A(`/answers/${id}/events`)}?${s.V}&expected_runtime_id=${s.runtimeId}`), 409, 'attach_expired');
  } finally {
    answersOf(s.t.ctx).limits.attachMs = 5_000;
  }
});

test('agent CLI lane: fresh UUID, empty working dir, no tools or MCP, prompt on stdin; succeeded with reported usage', async () => {
  const { saved } = await run(choices.cli('valid'), 'valid');
  assert.is(saved.state, 'succeeded', JSON.stringify(saved.error));
  const seen = JSON.parse(fs.readFileSync(`${agentDir}/argv.json`, 'utf8'));
  const at = (flag: string) => seen.args[seen.args.indexOf(flag) + 1];
  assert.match(at('--session-id'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is(at('--tools'), '');
  assert.ok(seen.args.includes('--strict-mcp-config'));
  assert.not.ok(seen.args.includes('--resume'));
  assert.equal(seen.cwdEntries, []);
  assert.not.ok(seen.env.some((k: string) => k.startsWith('SVC_')));
  assert.is(fs.existsSync(seen.cwd), false); // removed afterwards
  assert.equal(saved.usage, { input_tokens: 77, output_tokens: 9, provenance: 'reported', source: 'agent_result_usage', billing: 'unknown' });
  assert.equal(saved.reported_model, { model: 'claude-cli-test', source: 'agent_system_init_model' });
});

test('agent CLI lane: a character cut between two writes of the CLI arrives whole', async () => {
  const { saved } = await run(choices.cli('split_utf8'), 'valid');
  assert.is(saved.state, 'succeeded', JSON.stringify(saved.error));
  assert.ok(JSON.stringify(saved.output).includes('The source says so — ü ✓.'), JSON.stringify(saved.output));
});

test('agent CLI lane: a startup without the fresh UUID, or a line over the cap, fails', async () => {
  const bad = await run(choices.cli('bad_init'), 'valid');
  assert.is(bad.saved.state, 'failed');
  assert.is(bad.saved.error.reason, 'startup_mismatch');
  const huge = await run(choices.cli('huge_line'), 'valid');
  assert.is(huge.saved.state, 'failed');
  assert.is(huge.saved.error.reason, 'line_limit');
  const invalid = await run(choices.cli('bad_citation'), 'valid');
  assert.is(invalid.saved.state, 'failed');
  assert.is(invalid.saved.output.validated, false);
});

test('consent: replay returns the same answer; wrong hash, missing confirmation, unknown preview and runtime refuse', async () => {
  openai.behaviour = 'valid';
  const { r, consent } = await send({ choices: choices.openai() });
  assert.is(r.status, 201);
  const id = r.json().answer.answer_id;
  await watch(id);
  const again = await s.call('POST', s.A('/answers'), consent);
  assert.is(again.status, 200, again.text);
  assert.is(again.json().replayed, true);
  assert.is(again.json().answer.answer_id, id);
  refusal(await s.call('POST', s.A('/answers'), { ...consent, request_sha256: 'a'.repeat(64) }), 409, 'request_hash_mismatch');
  refusal(await s.call('POST', s.A('/answers'), { ...consent, confirmed: false }), 422, 'not_confirmed');
  refusal(await s.call('POST', s.A('/answers'), { ...consent, preview_id: crypto.randomUUID() }), 404, 'preview_not_found');
  refusal(await s.call('POST', s.A('/answers'), { ...consent, expected_runtime_id: crypto.randomUUID() }), 409, 'runtime_mismatch');
  // The selected facts changed after the preview: a new note makes the project revision move.
  const p2 = (await s.preview({ choices: choices.openai() })).json();
  await s.note(s.files.text!, 'changes the revision');
  refusal(await s.call('POST', s.A('/answers'), { ...consent, preview_id: p2.preview_id, request_sha256: p2.request_sha256 }), 409, 'revision_conflict');
  // No key: the connection is unavailable and nothing is admitted.
  s.t.ctx.credentials.remove('openai_api_key');
  const p3 = (await s.preview({ choices: choices.openai() })).json();
  refusal(await s.call('POST', s.A('/answers'), { ...consent, preview_id: p3.preview_id, request_sha256: p3.request_sha256 }), 409, 'connection_unavailable');
  s.t.ctx.credentials.set('openai_api_key', 'sk-openai-secret-1234');
  // The connection now goes elsewhere (another endpoint): the consent was to the old route.
  const p4 = (await s.preview({ choices: choices.openai() })).json();
  const endpoint = s.t.ctx.config.ai.urls.openai;
  s.t.ctx.config.ai.urls.openai = 'http://127.0.0.1:9/elsewhere';
  refusal(await s.call('POST', s.A('/answers'), { ...consent, preview_id: p4.preview_id, request_sha256: p4.request_sha256 }), 409, 'route_changed');
  s.t.ctx.config.ai.urls.openai = endpoint;
});

test('history is ascending under a fixed ceiling, 50 at most; the answer limit refuses without deleting', async () => {
  const h = await s.call('GET', `${s.A('/answers')}?${s.V}&limit=2`);
  assert.is(h.status, 200, h.text);
  const page = h.json();
  assert.is(page.answers.length, 2);
  assert.is(page.has_more, true);
  // The selection limits travel with the history, so a chooser counts against the service's own numbers.
  assert.equal(page.selection_limits, {
    memberships_min: 1, memberships_max: 5, distinct_pages: 12, segments: 24, notes: 8, note_codepoints: 2000, notes_bytes: 8192,
    source_bytes: 49152, source_codepoints: 24000, instruction_codepoints: 4000, instruction_bytes: 16384,
  });
  const next = (await s.call('GET', `${s.A('/answers')}?${s.V}&limit=50&after_id=${page.next_after_id}&through_id=${page.through_id}`)).json();
  assert.is(next.total, page.total);
  assert.is(next.answers.length, page.total - 2);
  refusal(await s.call('GET', `${s.A('/answers')}?${s.V}&limit=51`), 422, 'out_of_range');
  refusal(await s.call('GET', `${s.A('/answers')}?${s.V}&bogus=1`), 422, 'unknown_query_key');
  answersOf(s.t.ctx).limits.answersPerProject = page.total;
  try {
    const { r } = await send({ choices: choices.openai() });
    refusal(r, 413, 'answer_limit');
    assert.is((await s.call('GET', `${s.A('/answers')}?${s.V}`)).json().total, page.total);
  } finally {
    answersOf(s.t.ctx).limits.answersPerProject = 1000;
  }
});

test('a restart marks running answers interrupted, keeping the durable prefix', async () => {
  const row = s.t.ctx.db.prepare("SELECT answer_id FROM evidence_answers WHERE state = 'succeeded' LIMIT 1").pluck().get() as string;
  s.t.ctx.db.prepare("UPDATE evidence_answers SET state = 'running', partial_text = 'prefix so far', finished_at_utc = NULL WHERE answer_id = ?").run(row);
  assert.equal(recoverInterrupted(s.t.ctx), [row]);
  const saved = (await s.call('GET', `${s.A(`/answers/${row}`)}?${s.V}`)).json().answer;
  assert.is(saved.state, 'interrupted');
  assert.is(saved.partial_text, 'prefix so far');
  assert.is(saved.completion, 'unknown');
  assert.is(saved.cleanup, 'unknown');
  assert.equal(recoverInterrupted(s.t.ctx), []);
});

test('events: one subscriber only; an unknown answer is 404', async () => {
  refusal(await s.call('GET', `${s.A(`/answers/${crypto.randomUUID()}/events`)}?${s.V}&expected_runtime_id=${s.runtimeId}`), 404, 'answer_not_found');
  refusal(await s.call('GET', `${s.A(`/answers/${crypto.randomUUID()}/events`)}?${s.V}`), 422, 'missing_query_key');
});

test.run();
