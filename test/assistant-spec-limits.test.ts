/**
 * The limits of document 3's assistant routes that had no test at one side of
 * their bound: browse limit, q length and the 64-bit id edges; export text at
 * exactly 8 MiB per format; the required fields of the permission and model
 * list bodies. Each: the edge accepted, one past refused with 422 naming the
 * field (413 for export).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as repo from '../src/assistant/repo.js';
import { EXPORT_LIMIT_BYTES } from '../src/assistant/export.js';
import { startTestServer, type TestServer } from './_setup.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer({ env: { SVC_AGENT_CLI: '/nonexistent/agent' } });
});
test.after(() => t.close());

const CLI = { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: null, effort: null };

function refusedAt(r: { status: number; json(): any; text: string }, loc: (string | number)[], what: string) {
  assert.is(r.status, 422, `${what}: ${r.text}`);
  const detail = r.json().detail;
  assert.ok(Array.isArray(detail), `${what}: validation shape`);
  assert.ok(detail.some((d: any) => JSON.stringify(d.loc) === JSON.stringify(loc)), `${what}: loc ${JSON.stringify(loc)} in ${JSON.stringify(detail.map((d: any) => d.loc))}`);
}

test('browse: limit 1 and 100 accepted, 0 and 101 refused at query.limit; q of 200 characters accepted, 201 refused at query.q', async () => {
  for (let i = 0; i < 3; i++) repo.insertSession(t.ctx.db, { title: `row ${i}`, runtime: null, model: null, at: '2020-01-01T00:00:00.000Z' });
  const browse = (q: string) => t.request('GET', `/api/assistant/sessions/browse?${q}`);
  const one = (await browse('limit=1')).json();
  assert.equal([one.sessions.length, one.has_more], [1, true]);
  assert.is((await browse('limit=100')).json().sessions.length, 3);
  assert.is((await browse('')).json().sessions.length, 3, 'default 50 covers three rows');
  refusedAt(await browse('limit=0'), ['query', 'limit'], 'limit 0');
  refusedAt(await browse('limit=101'), ['query', 'limit'], 'limit 101');
  const q200 = await browse(`q=${'a'.repeat(200)}`);
  assert.is(q200.status, 200, q200.text);
  assert.equal(q200.json().sessions, []);
  refusedAt(await browse(`q=${'a'.repeat(201)}`), ['query', 'q'], 'q 201');
});

test('browse ids: before_id 1 and through_id 0 and 2^63-1 accepted; before_id 0 and through_id 2^63 refused naming the field', async () => {
  const browse = (q: string) => t.request('GET', `/api/assistant/sessions/browse?${q}`);
  const below1 = (await browse('before_id=1')).json();
  assert.equal([below1.sessions, below1.has_more, below1.next_before_id], [[], false, null]);
  assert.is((await browse('through_id=0')).json().through_id, 0);
  const top = await browse('through_id=9223372036854775807');
  assert.is(top.status, 200, top.text);
  refusedAt(await browse('before_id=0'), ['query', 'before_id'], 'before_id 0');
  refusedAt(await browse('through_id=9223372036854775808'), ['query', 'through_id'], 'through_id 2^63');
  refusedAt(await browse('through_id=-1'), ['query', 'through_id'], 'through_id -1');
});

test('export text of exactly 8 MiB is answered whole in each format; one byte more is 413 export_too_large', async () => {
  for (const format of ['json', 'markdown'] as const) {
    const id = (await t.request('POST', '/api/assistant/sessions', { body: { choices: CLI, title: `big ${format}` } })).json().session.id;
    const messageId = repo.insertMessage(t.ctx.db, { session_id: id, role: 'user', content: 'x', at: '2030-01-01T00:00:00.000Z' });
    const setContent = (n: number) => t.ctx.db.prepare('UPDATE assistant_messages SET content = ? WHERE id = ?').run('x'.repeat(n), messageId);
    const exported = () => t.request('GET', `/api/assistant/sessions/${id}/export?format=${format}`);
    const base = Buffer.byteLength((await exported()).json().text, 'utf8');
    setContent(1 + EXPORT_LIMIT_BYTES - base);
    const edge = await exported();
    assert.is(edge.status, 200, `${format}: ${edge.text.slice(0, 200)}`);
    assert.is(Buffer.byteLength(edge.json().text, 'utf8'), EXPORT_LIMIT_BYTES, `${format}: exactly the limit`);
    setContent(2 + EXPORT_LIMIT_BYTES - base);
    const over = await exported();
    assert.equal([over.status, over.json().detail.reason], [413, 'export_too_large'], format);
  }
  assert.is(EXPORT_LIMIT_BYTES, 8 * 1024 * 1024);
});

test('permission open: session_id and tool_name required, session_id an integer; answer: allow required; model list: provider required', async () => {
  const open = (body: unknown) => t.request('POST', '/api/assistant/permissions', { body });
  refusedAt(await open({ tool_name: 'Bash' }), ['body', 'session_id'], 'no session_id');
  refusedAt(await open({ session_id: '1', tool_name: 'Bash' }), ['body', 'session_id'], 'session_id a string');
  refusedAt(await open({ session_id: 1 }), ['body', 'tool_name'], 'no tool_name');
  refusedAt(await open({ session_id: 1, tool_name: 'Bash', input: [] }), ['body', 'input'], 'input not an object');
  refusedAt(await t.request('POST', '/api/assistant/permissions/abc', { body: {} }), ['body', 'allow'], 'no allow');
  refusedAt(await t.request('POST', '/api/ai/models', { body: {} }), ['body', 'provider'], 'no provider');
  refusedAt(await t.request('POST', '/api/ai/models', { body: { provider: 'openai', base_url: 5 } }), ['body', 'base_url'], 'base_url not a string');
});

test('legacy list: default 50; equal updated timestamps order by id descending', async () => {
  const at = '2040-01-01T00:00:00.000Z';
  const a = repo.insertSession(t.ctx.db, { title: 'tie a', runtime: null, model: null, at });
  const b = repo.insertSession(t.ctx.db, { title: 'tie b', runtime: null, model: null, at });
  const rows = (await t.request('GET', '/api/assistant/sessions')).json().sessions;
  assert.equal(rows.slice(0, 2).map((r: any) => r.id), [b, a]);
  assert.ok(rows.length <= 50);
});

test('session creation: title null accepted; the message body refuses extra fields at the body', async () => {
  const created = await t.request('POST', '/api/assistant/sessions', { body: { choices: CLI, title: null } });
  assert.is(created.status, 201, created.text);
  assert.is(created.json().session.display_title, 'New conversation');
  const send = await t.request('POST', `/api/assistant/sessions/${created.json().session.id}/messages`, { body: { text: 'hi', model: 'other' } });
  assert.is(send.status, 422, send.text);
});

test('the default model setting follows the model rule: blank or with a Unicode control is refused 422 and not stored; empty still means none', async () => {
  const put = (assistant_model: unknown) => t.request('PUT', '/api/settings/assistant', { body: { settings: { assistant_model } } });
  const stored = async () => (await t.request('GET', '/api/settings/assistant')).json().settings.assistant_model;
  assert.is((await put('opus')).status, 200);
  for (const bad of ['   ', 'a\u0007b', 'tab\there', 'zero\u200bwidth', 'line\u2028sep']) {
    refusedAt(await put(bad), ['body', 'settings', 'assistant_model'], JSON.stringify(bad));
    assert.is(await stored(), 'opus', `${JSON.stringify(bad)} is not stored`);
  }
  // So a new conversation never captures a default that no send could use.
  assert.is((await t.request('GET', '/api/assistant/status')).json().composer_choices.default_error, null);
  assert.is((await put('')).status, 200);
  assert.is((await put(null)).status, 200);
  assert.is((await put('m'.repeat(512))).status, 200);
  await put(null);
});

test.run();
