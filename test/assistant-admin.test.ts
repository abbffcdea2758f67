import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDirs, type TempDirs, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startFakeProvider, writeFakeAgent, type FakeProvider } from './_assistant.js';

const KEY = 'sk-admin-key-abcdefghijklmnop';
let t: TestServer;
let fake: FakeProvider;
let cliDirs: TempDirs;
let agent: string;

test.before(async () => {
  fake = await startFakeProvider(KEY);
  t = await startTestServer({ env: { SVC_AI_OPENAI_URL: `${fake.url}/openai`, SVC_AI_ANTHROPIC_URL: `${fake.url}/anthropic`, PATH: '/nonexistent-bin' } });
  cliDirs = tempDirs();
  agent = writeFakeAgent(path.join(cliDirs.root, 'agent'));
});
test.after(async () => {
  await t.close();
  await fake.close();
  cliDirs.cleanup();
});

test('credentials validate: valid, refused and unreachable keys; the key never comes back', async () => {
  const ok = await t.request('POST', '/api/credentials/validate', { body: { provider: 'openai', key: KEY } });
  assert.is(ok.status, 200);
  assert.equal([ok.json().valid, ok.json().status, ok.json().key_source], [true, 'valid', 'request']);
  const bad = await t.request('POST', '/api/credentials/validate', { body: { provider: 'anthropic', key: 'sk-wrong-abcdefghijkl' } });
  assert.equal([bad.json().valid, bad.json().status], [false, 'invalid']);
  assert.not.ok(bad.text.includes('sk-wrong-abcdefghijkl'));
  const down = await t.request('POST', '/api/credentials/validate', { body: { provider: 'openai', key: KEY, base_url: 'http://127.0.0.1:1/v1' } });
  assert.equal([down.json().valid, down.json().status], [false, 'unreachable']);
  // The spec requires key in the body: a stored key is not validated over HTTP (svc credentials validate does that).
  await t.request('PUT', '/api/credentials/openai_api_key', { body: { value: KEY } });
  const stored = await t.request('POST', '/api/credentials/validate', { body: { provider: 'openai' } });
  assert.is(stored.status, 422);
  assert.equal(stored.json().detail[0].loc, ['body', 'key']);
  for (const body of [{}, { provider: 'openai' }, { provider: 'openai', key: '' }, { provider: 'openai', key: null }, { provider: 'nope', key: KEY }, { provider: 'openai', key: 5 }, { provider: 'openai', key: KEY, base_url: 'ftp://x' }]) {
    const res = await t.request('POST', '/api/credentials/validate', { body });
    assert.is(res.status, 422, JSON.stringify(body));
    assert.not.ok(res.text.includes(KEY));
  }
  for (const text of [ok.text, bad.text, down.text, stored.text, t.logLines.join('\n')]) assert.not.ok(text.includes(KEY));
});

test('AI models: ids from the provider, endpoint and header prefix overrides, agent aliases for the CLI', async () => {
  const res = await t.request('POST', '/api/ai/models', { body: { provider: 'openai', key: KEY } });
  assert.equal(res.json(), { provider: 'openai', models: ['model-a', 'model-b'], source: 'provider_api' });
  const custom = await t.request('POST', '/api/ai/models', { body: { provider: 'openai', key: KEY, endpoint: '/custom/models', header_prefix: 'Bearer' } });
  assert.is(custom.status, 200);
  assert.ok(fake.seen.at(-1)!.url.endsWith('/openai/custom/models'));
  const refused = await t.request('POST', '/api/ai/models', { body: { provider: 'openai', key: 'sk-nope-abcdefghijk' } });
  assert.is(refused.status, 502);
  assert.not.ok(refused.text.includes('sk-nope-abcdefghijk'));
  const cli = await t.request('POST', '/api/ai/models', { body: { provider: 'agent_code' } });
  assert.equal(cli.json().models, ['default', 'sonnet', 'opus', 'haiku']);
  assert.is((await t.request('POST', '/api/ai/models', { body: { key: KEY } })).status, 422);
  assert.is((await t.request('POST', '/api/ai/models', { body: { provider: 'openai', key: KEY, header_prefix: 'Bad Prefix' } })).status, 422);
});

test('CLI status lists each subscription-lane CLI, found or not', async () => {
  const res = (await t.request('GET', '/api/settings/ai/cli-status')).json();
  assert.equal(res.clis.map((c: any) => [c.provider, c.command, c.found]), [['agent_code', 'claude', false], ['agent_codex', 'codex', false], ['agent_gemini', 'gemini', false]]);
  const bin = path.join(t.dirs.root, 'bin');
  fs.mkdirSync(bin);
  fs.copyFileSync(agent, path.join(bin, 'codex'));
  fs.chmodSync(path.join(bin, 'codex'), 0o755);
  const t2 = await startTestServer({ env: { PATH: bin } });
  try {
    const found = (await t2.request('GET', '/api/settings/ai/cli-status')).json().clis.find((c: any) => c.command === 'codex');
    assert.equal([found.found, found.path], [true, path.join(bin, 'codex')]);
  } finally {
    await t2.close();
  }
});

const cliEnv = () => ({ ...cliDirs.env, SVC_AGENT_CLI: agent, SVC_AI_OPENAI_URL: `${fake.url}/openai`, PATH: process.env.PATH });

test('svc chat: new with its choices (given to new, not to chat), then chat by id, list, show, delete', async () => {
  const created = await runCliInProcess(['chat', 'new', '--runtime', 'agent_cli', '--effort', 'low', '--title', 'via chat', '--json'], { env: cliEnv() });
  assert.is(created.code, 0, created.stderr);
  const session = JSON.parse(created.stdout);
  assert.equal([session.choices.runtime, session.choices.effort], ['agent_cli', 'low']);
  const id = String(session.session.id);
  const chat = await runCliInProcess(['chat', id, '-m', 'hello'], { env: cliEnv() });
  assert.is(chat.code, 0, chat.stderr);
  assert.match(chat.stdout, /agent says: hello/);
  assert.ok(JSON.parse((await runCliInProcess(['chat', 'list', '--json'], { env: cliEnv() })).stdout).sessions.some((s: any) => String(s.id) === id));
  assert.match((await runCliInProcess(['chat', 'show', id], { env: cliEnv() })).stdout, /\[assistant\] agent says: hello/);
  assert.is((await runCliInProcess(['chat', 'delete', id, '--yes'], { env: cliEnv() })).code, 0);
  assert.is((await runCliInProcess(['chat', '999', '-m', 'x'], { env: cliEnv() })).code, 3);
});

test('svc assistant: status, new, chat from stdin, sessions, show, export, delete', async () => {
  const status = await runCliInProcess(['assistant', 'status', '--json'], { env: cliEnv() });
  assert.is(status.code, 0, status.stderr);
  assert.is(JSON.parse(status.stdout).can_run, true);
  const created = await runCliInProcess(['assistant', 'new', '--runtime', 'agent_cli', '--effort', 'max', '--title', 'cli chat', '--json'], { env: cliEnv() });
  assert.is(created.code, 0, created.stderr);
  const id = JSON.parse(created.stdout).session.id;
  const chat = await runCliInProcess(['assistant', 'chat', String(id)], { env: cliEnv(), stdin: 'from stdin\n' });
  assert.is(chat.code, 0, chat.stderr);
  assert.is(chat.stdout.trim(), 'agent says: from stdin effort=63999');
  const json = await runCliInProcess(['assistant', 'chat', String(id), '-m', 'again', '--json'], { env: cliEnv() });
  const outcome = JSON.parse(json.stdout);
  assert.equal([outcome.status, outcome.reports[0].model], ['completed', 'agent-reported-model']);
  const list = JSON.parse((await runCliInProcess(['assistant', 'sessions', '--json'], { env: cliEnv() })).stdout);
  assert.is(list.sessions[0].message_count, 4);
  const show = await runCliInProcess(['assistant', 'show', String(id)], { env: cliEnv() });
  assert.match(show.stdout, /\[assistant\] agent says: again/);
  const file = path.join(cliDirs.root, 'out.md');
  const exp = await runCliInProcess(['assistant', 'export', String(id), '--format', 'markdown', '-o', file], { env: cliEnv() });
  assert.is(exp.code, 0, exp.stderr);
  assert.match(fs.readFileSync(file, 'utf8'), /# Conversation/);
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
  assert.is((await runCliInProcess(['assistant', 'export', String(id), '--format', 'pdf'], { env: cliEnv() })).code, 2);
  assert.is((await runCliInProcess(['assistant', 'delete', String(id)], { env: cliEnv() })).code, 2, 'needs --yes off a terminal');
  assert.is((await runCliInProcess(['assistant', 'delete', String(id), '--yes'], { env: cliEnv() })).code, 0);
  assert.is((await runCliInProcess(['assistant', 'show', String(id)], { env: cliEnv() })).code, 3);
  const failed = await runCliInProcess(['assistant', 'chat', '-m', 'FAIL now', '--json'], { env: cliEnv() });
  assert.is(failed.code, 1);
  assert.is(JSON.parse(failed.stdout).status, 'failed');
  const badChoice = await runCliInProcess(['assistant', 'new', '--runtime', 'api_key', '--provider', 'openai', '--effort', 'low'], { env: cliEnv() });
  assert.is(badChoice.code, 2);
});

test('svc credentials validate NAME uses the stored key and never prints it', async () => {
  const missing = await runCliInProcess(['credentials', 'validate', 'openai_api_key', '--json'], { env: cliEnv() });
  assert.is(missing.code, 2);
  await runCliInProcess(['credentials', 'set', 'openai_api_key'], { env: cliEnv(), stdin: KEY });
  const ok = await runCliInProcess(['credentials', 'validate', 'openai_api_key', '--json'], { env: cliEnv() });
  assert.is(ok.code, 0, ok.stderr);
  assert.is(JSON.parse(ok.stdout).valid, true);
  // The help says the models are listed: they are, in JSON and for a person.
  assert.equal(JSON.parse(ok.stdout).models, ['model-a', 'model-b']);
  const human = await runCliInProcess(['credentials', 'validate', 'openai_api_key'], { env: cliEnv() });
  assert.is(human.code, 0, human.stderr);
  assert.is(human.stdout.trim(), 'openai_api_key: valid (OpenAI accepted the key.)\n2 models the key reaches:\n  model-a\n  model-b');
  assert.match((await runCliInProcess(['credentials', 'validate', '--help'], { env: cliEnv() })).stdout, /print the\s+models it reaches/);
  await runCliInProcess(['credentials', 'set', 'openai_api_key'], { env: cliEnv(), stdin: 'sk-bad-abcdefghijklm' });
  const bad = await runCliInProcess(['credentials', 'validate', 'openai_api_key'], { env: cliEnv() });
  assert.is(bad.code, 1);
  assert.not.match(bad.stdout, /models/, 'a refused key lists no models');
  const badJson = await runCliInProcess(['credentials', 'validate', 'openai_api_key', '--json'], { env: cliEnv() });
  assert.is(JSON.parse(badJson.stdout).models, undefined);
  assert.not.ok((bad.stdout + bad.stderr).includes('sk-bad-abcdefghijklm'));
  assert.is((await runCliInProcess(['credentials', 'validate', 'smtp_password'], { env: cliEnv() })).code, 2);
  // An unknown name is the same usage error as for set and delete (exit 2, credential_unknown), not "not found".
  const unknown = await runCliInProcess(['credentials', 'validate', 'no_such', '--json'], { env: cliEnv() });
  assert.equal([unknown.code, JSON.parse(unknown.stdout).error], [2, 'credential_unknown'], unknown.stdout);
});

test.run();
