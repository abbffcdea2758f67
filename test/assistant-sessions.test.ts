import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as repo from '../src/assistant/repo.js';
import { fence } from '../src/assistant/export.js';
import { deleteSession } from '../src/assistant/sessions.js';
import { claimWhileLocked, getTurnClaim } from './_assistant.js';
import { startTestServer, type TestServer } from './_setup.js';

const KEY = 'sk-sessions-key-abcdefghijklmnop';
let t: TestServer;
test.before(async () => {
  t = await startTestServer({ env: { SVC_AI_OPENAI_URL: 'http://127.0.0.1:9/never', SVC_AGENT_CLI: '/nonexistent/agent' } });
  await t.request('PUT', '/api/credentials/openai_api_key', { body: { value: KEY } });
});
test.after(() => t.close());

const CLI = { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: null, effort: 'high' };
const API = { version: 1, runtime: 'api_key', provider: 'openai', model: 'gpt-4o-mini', effort: null };

test('status: 11 connections, four aliases, five efforts, no locator or credential', async () => {
  const res = await t.request('GET', '/api/assistant/status');
  assert.is(res.status, 200);
  const body = res.json();
  const cc = body.composer_choices;
  assert.is(cc.version, 1);
  assert.is(cc.connections.length, 11);
  assert.is(cc.connections.filter((c: any) => c.runtime === 'agent_cli' && c.implemented).length, 1);
  assert.is(cc.connections.filter((c: any) => c.runtime === 'api_key').length, 8);
  assert.is(cc.connections.filter((c: any) => !c.implemented).length, 2);
  for (const c of cc.connections) {
    for (const k of ['runtime', 'provider', 'label', 'implemented', 'available', 'reason', 'effort_support']) assert.ok(k in c, k);
    if (c.runtime === 'api_key') assert.ok(['openai_chat', 'anthropic_messages', 'gemini_generate_content'].includes(c.request_family));
  }
  assert.is(cc.connections.find((c: any) => c.provider === 'openai').available, true);
  assert.is(cc.connections.find((c: any) => c.provider === 'anthropic').available, false);
  assert.is(cc.agent_aliases.length, 4);
  assert.equal(cc.agent_efforts, ['low', 'medium', 'high', 'xhigh', 'max']);
  // Default runtime agent_cli, whose binary is missing: cannot run, one sentence why.
  assert.is(body.can_run, false);
  assert.match(body.reason, /not found/);
  assert.equal(cc.default_request, { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: null, effort: null });
  assert.not.ok(res.text.includes(KEY));
  assert.not.ok(res.text.includes('127.0.0.1:9'));
  assert.not.ok(res.text.includes('/nonexistent/agent'));
});

test('creation: absent choices capture the defaults with settings_default provenance', async () => {
  await t.request('PUT', '/api/settings/assistant', { body: { settings: { assistant_model: 'opus', assistant_effort: 'low' } } });
  const res = await t.request('POST', '/api/assistant/sessions', { body: { title: 'Defaults' } });
  assert.is(res.status, 201);
  const c = res.json().choices;
  assert.equal([c.runtime, c.provider, c.model, c.effort, c.model_basis, c.effort_basis, c.binding_basis], ['agent_cli', 'agent_code', 'opus', 'low', 'settings_default', 'settings_default', 'new']);
  assert.not.ok('route_digest' in c);
  await t.request('PUT', '/api/settings/assistant', { body: { settings: { assistant_model: null, assistant_effort: null } } });
  const none = await t.request('POST', '/api/assistant/sessions');
  assert.is(none.status, 201);
  assert.equal([none.json().choices.model_basis, none.json().choices.effort_basis], ['runtime_default', 'runtime_default']);
});

test('creation: explicit choices are bound as given; API effort is not_supported', async () => {
  const res = await t.request('POST', '/api/assistant/sessions', { body: { choices: API, title: null } });
  assert.is(res.status, 201);
  const c = res.json().choices;
  assert.equal([c.model, c.model_basis, c.effort_basis], ['gpt-4o-mini', 'explicit', 'not_supported']);
  assert.is(res.json().session.display_title, 'New conversation');
});

test('creation refusals: 400 for invalid choices (null included), 422 for a malformed outer body', async () => {
  const bad: unknown[] = [
    null,
    'agent_cli',
    { ...CLI, extra: 1 },
    { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: null },
    { ...CLI, version: '1' },
    { ...CLI, runtime: 'local' },
    { ...CLI, provider: 'openai' },
    { ...CLI, effort: 'extreme' },
    { ...API, effort: 'low' },
    { ...API, model: null },
    { ...API, model: '   ' },
    { ...API, model: 'x'.repeat(513) },
    { ...API, model: 'gpt\u0007' },
    { ...API, provider: 'agent_codex' },
    { ...API, provider: 'nonesuch' },
  ];
  for (const choices of bad) {
    const res = await t.request('POST', '/api/assistant/sessions', { body: { choices } });
    assert.is(res.status, 400, JSON.stringify(choices));
    assert.is(res.json().detail.reason, 'invalid_choices');
  }
  assert.is((await t.request('POST', '/api/assistant/sessions', { body: { choices: { ...API, model: 'x'.repeat(512) } } })).status, 201);
  for (const body of [{ choices: CLI, extra: true }, { title: 5 }, [], '{"title": "a", "title": "b"}']) {
    const res = await t.request('POST', '/api/assistant/sessions', { body });
    assert.is(res.status, 422, JSON.stringify(body));
  }
});

test('legacy list: default 50, newest update first', async () => {
  const at = '2030-01-01T00:00:00.000Z';
  const id = repo.insertSession(t.ctx.db, { title: 'legacy one', runtime: 'agent_cli', model: 'old', at });
  const res = await t.request('GET', '/api/assistant/sessions');
  const rows = res.json().sessions;
  assert.is(rows[0].id, id);
  assert.is(rows[0].choices, null, 'unknown historical settings');
  for (let i = 0; i < 55; i++) repo.insertSession(t.ctx.db, { title: `bulk ${i}`, runtime: null, model: null, at: '2020-01-01T00:00:00.000Z' });
  assert.is((await t.request('GET', '/api/assistant/sessions')).json().sessions.length, 50);
});

test('browse: frozen ceiling, before_id paging, has_more by one extra row, under inserts', async () => {
  const first = (await t.request('GET', '/api/assistant/sessions/browse?limit=10')).json();
  assert.is(first.sessions.length, 10);
  assert.is(first.has_more, true);
  const ceiling = first.through_id;
  assert.is(first.sessions[0].id, ceiling);
  // New conversations arrive while paging: the frozen ceiling keeps them out.
  repo.insertSession(t.ctx.db, { title: 'late', runtime: null, model: null, at: '2031-01-01T00:00:00.000Z' });
  const seen = new Set<number>(first.sessions.map((s: any) => s.id));
  let before = first.next_before_id;
  for (;;) {
    const page = (await t.request('GET', `/api/assistant/sessions/browse?limit=10&through_id=${ceiling}&before_id=${before}`)).json();
    for (const s of page.sessions) {
      assert.ok(s.id <= ceiling && s.id < before);
      assert.not.ok(seen.has(s.id));
      seen.add(s.id);
    }
    if (!page.has_more) {
      assert.is(page.next_before_id, null);
      break;
    }
    before = page.next_before_id;
  }
  assert.is(seen.size, ceiling);
  const exact = (await t.request('GET', `/api/assistant/sessions/browse?limit=${ceiling}&through_id=${ceiling}`)).json();
  assert.is(exact.has_more, false);
  const empty = (await t.request('GET', '/api/assistant/sessions/browse?through_id=0')).json();
  assert.equal([empty.sessions, empty.has_more], [[], false]);
  for (const q of ['limit=0', 'limit=101', 'before_id=0', 'before_id=-1', 'through_id=-1', 'before_id=9223372036854775808', 'before_id=abc', `q=${'a'.repeat(201)}`]) {
    assert.is((await t.request('GET', `/api/assistant/sessions/browse?${q}`)).status, 422, q);
  }
  assert.is((await t.request('GET', '/api/assistant/sessions/browse?before_id=9223372036854775807')).status, 200);
});

test('browse q: a literal substring of the displayed title; %, _ and \\ are literal; ASCII folds', async () => {
  for (const title of ['100% sure', '100 percent', 'snake_case', 'snakeXcase', 'back\\slash', 'ÉCOLE', 'école']) repo.insertSession(t.ctx.db, { title, runtime: null, model: null, at: '2020-01-01T00:00:00.000Z' });
  const titles = async (q: string) => (await t.request('GET', `/api/assistant/sessions/browse?limit=100&q=${encodeURIComponent(q)}`)).json().sessions.map((s: any) => s.display_title);
  assert.equal(await titles('0%'), ['100% sure']);
  assert.equal(await titles('e_c'), ['snake_case']);
  assert.equal(await titles('k\\s'), ['back\\slash']);
  assert.equal(await titles('SNAKE_'), ['snake_case']);
  assert.equal(await titles('école'), ['école'], 'non-ASCII matches literally');
  assert.ok((await titles('new conv')).length >= 1, 'absent titles match their displayed title');
});

test('detail: snapshot, activity observation, choices and turn choices; 404 and 422 for ids', async () => {
  const created = (await t.request('POST', '/api/assistant/sessions', { body: { choices: API, title: 'Detail' } })).json();
  const id = created.session.id;
  const res = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  assert.equal(res.snapshot.basis, 'persisted_messages_only');
  assert.is(res.snapshot.message_count, 0);
  assert.is(res.snapshot.last_message_id, null);
  assert.equal(res.activity_observation.basis, 'in_memory_observation_not_atomic_with_database');
  assert.is(res.activity_observation.turn_claimed, false);
  assert.is(res.choices_version, 1);
  assert.equal(res.turn_choices, []);
  assert.is((await t.request('GET', '/api/assistant/sessions/999999')).status, 404);
  assert.is((await t.request('GET', '/api/assistant/sessions/abc')).status, 422);
  assert.is((await t.request('DELETE', `/api/assistant/sessions/${id}`)).status, 200);
  assert.is((await t.request('GET', `/api/assistant/sessions/${id}`)).status, 404);
  assert.is((await t.request('DELETE', `/api/assistant/sessions/${id}`)).status, 404);
});

test('delete checks for a running turn and deletes in one transaction: a turn claimed meanwhile by another process keeps its claim', async () => {
  const id = (await t.request('POST', '/api/assistant/sessions', { body: { choices: API, title: 'raced' } })).json().session.id;
  const other = claimWhileLocked(t.ctx.db.name, id, 300);
  try {
    await other.locked;
    // The other process holds the write lock and claims the turn before it lets go.
    let refused: any;
    try {
      deleteSession(t.ctx, id);
    } catch (err) {
      refused = err;
    }
    await other.committed;
    assert.is(refused?.reason, 'turn_active', `refused, not ${refused ?? 'deleted'}`);
    assert.ok(repo.getSession(t.ctx.db, id), 'the conversation stays');
    assert.equal(getTurnClaim(t.ctx.db, id), { pid: process.pid, runtime_id: 'another-process', cancel_requested: 0 }, 'its claim stays');
  } finally {
    await other.done();
  }
  t.ctx.db.prepare('DELETE FROM job_claims WHERE job = ?').run(`assistant_turn:${id}`);
  assert.is((await t.request('DELETE', `/api/assistant/sessions/${id}`)).status, 200);
});

test('malformed stored choices browse as {unreadable: true}', async () => {
  const id = (await t.request('POST', '/api/assistant/sessions', { body: { choices: CLI, title: 'garbled' } })).json().session.id;
  t.ctx.db.prepare("UPDATE assistant_session_choices SET runtime = 'quantum' WHERE session_id = ?").run(id);
  const row = (await t.request('GET', '/api/assistant/sessions/browse?q=garbled')).json().sessions[0];
  assert.equal(row.choices, { unreadable: true });
});

test('fences are longer than any backtick run', () => {
  assert.is(fence('plain'), '```\nplain\n```');
  assert.is(fence('a ```` b ` c'), '`````\na ```` b ` c\n`````');
});

test('export: JSON and Markdown envelopes, exact text, tool fields, no route digest', async () => {
  const id = (await t.request('POST', '/api/assistant/sessions', { body: { choices: CLI, title: 'Has ``` fences' } })).json().session.id;
  const at = '2030-02-02T00:00:00.000Z';
  const tricky = 'code:\n`````\nrm -rf /\n`````\nend';
  const m1 = repo.insertMessage(t.ctx.db, { session_id: id, role: 'user', content: tricky, at });
  repo.insertMessage(t.ctx.db, { session_id: id, role: 'assistant', content: 'ok', at, tool_calls_json: '[{"id":"1"}]', tool_results_json: '{not json', cost_usd: 0.5 });
  const json = await t.request('GET', `/api/assistant/sessions/${id}/export?format=json`);
  assert.is(json.status, 200);
  const env = json.json();
  assert.equal([env.session_id, env.format, env.filename, env.content_type], [id, 'json', `svc-chat-${id}.json`, 'application/json']);
  const doc = JSON.parse(env.text);
  assert.is(doc.version, 1);
  assert.equal(Object.keys(doc.session).sort(), ['created_at_utc', 'id', 'model', 'runtime', 'title', 'updated_at_utc']);
  assert.is(doc.messages[0].content, tricky);
  assert.is(doc.messages[0].id, m1);
  assert.equal(doc.messages[0].tool_calls, { data: null, unreadable: false });
  assert.equal(doc.messages[1].tool_calls, { data: [{ id: '1' }], unreadable: false });
  assert.equal(doc.messages[1].tool_results, { data: null, unreadable: true, raw: '{not json' });
  assert.is(doc.messages[0].cost_usd, null);
  assert.is(doc.completion_status, 'unknown');
  assert.is(doc.choices_version, 1);
  assert.not.ok(env.text.includes('digest'));
  const md = (await t.request('GET', `/api/assistant/sessions/${id}/export?format=markdown`)).json();
  assert.equal([md.filename, md.content_type], [`svc-chat-${id}.md`, 'text/markdown']);
  assert.ok(md.text.includes('``````\n' + tricky + '\n``````'), 'fence of six around a run of five');
  assert.ok(md.text.includes('````\nHas ``` fences\n````'));
  assert.is((await t.request('GET', `/api/assistant/sessions/${id}/export?format=pdf`)).status, 422);
  assert.is((await t.request('GET', '/api/assistant/sessions/999999/export')).status, 404);
});

test('export over 8 MiB is refused with 413, never truncated', async () => {
  const id = (await t.request('POST', '/api/assistant/sessions', { body: { choices: CLI } })).json().session.id;
  repo.insertMessage(t.ctx.db, { session_id: id, role: 'user', content: 'x'.repeat(8 * 1024 * 1024), at: '2030-01-01T00:00:00.000Z' });
  for (const format of ['json', 'markdown']) {
    const res = await t.request('GET', `/api/assistant/sessions/${id}/export?format=${format}`);
    assert.is(res.status, 413);
    assert.is(res.json().detail.reason, 'export_too_large');
  }
});

test.run();
