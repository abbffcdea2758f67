import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { CREDENTIAL_NAMES } from '../src/credentials/names.js';
import { ROUTES } from '../server/routes/index.js';
import { startTestServer, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';

const SECRET = 'sk-live-9f8e7d6c5b4a39281706';
let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

test('every known name is listed with its status; values are never returned', async () => {
  const before = (await t.request('GET', '/api/credentials')).json().credentials;
  assert.is(before.length, CREDENTIAL_NAMES.length);
  assert.ok(before.every((c: any) => c.status === 'absent' && !('value' in c)));
  const put = await t.request('PUT', '/api/credentials/openalex_api_key', { body: { value: SECRET } });
  assert.is(put.status, 200);
  assert.equal(put.json(), { name: 'openalex_api_key', status: 'present' });
  const after = (await t.request('GET', '/api/credentials')).json().credentials;
  assert.is(after.find((c: any) => c.name === 'openalex_api_key').status, 'present');
});

test('each credential says which provider POST /api/credentials/validate checks it with: AI keys their provider, the others none', async () => {
  const rows = (await t.request('GET', '/api/credentials')).json().credentials;
  const by = Object.fromEntries(rows.map((c: any) => [c.name, c.validate_provider]));
  assert.is(by.openai_api_key, 'openai');
  assert.is(by.anthropic_api_key, 'anthropic');
  assert.is(by.openalex_api_key, null);
  assert.is(by.smtp_password, null);
  assert.ok(rows.every((c: any) => 'validate_provider' in c));
  // The name given is one the route takes: the check is made (here against a closed loopback port), not refused as an unknown provider.
  const check = await t.request('POST', '/api/credentials/validate', { body: { provider: by.mistral_api_key, key: 'typed-key', base_url: 'http://127.0.0.1:9/v1' } });
  assert.is(check.status, 200, check.text);
  assert.equal([check.json().provider, check.json().valid], ['mistral', false]);
});

test('the credentials file is owner-only', () => {
  const file = path.join(t.dirs.stateDir, 'credentials.json');
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
});

test('the stored value appears in no HTTP answer, error or log line', async () => {
  await t.request('PUT', '/api/credentials/ncbi_api_key', { body: { value: SECRET } });
  const bodies: string[] = [];
  for (const r of ROUTES.filter((r) => r.method === 'GET' && !r.path.includes('{'))) {
    const res = await t.request('GET', r.path);
    bodies.push(res.text, JSON.stringify(res.headers));
  }
  // Error paths that see the value: unknown name, extra fields, wrong type next to it, too long.
  bodies.push((await t.request('PUT', '/api/credentials/no_such_key', { body: { value: SECRET } })).text);
  bodies.push((await t.request('PUT', '/api/credentials/ncbi_api_key', { body: { value: [SECRET] } })).text);
  bodies.push((await t.request('PUT', '/api/credentials/ncbi_api_key', { body: { value: SECRET + 'x'.repeat(9000) } })).text);
  bodies.push((await t.request('PUT', '/api/credentials/ncbi_api_key', { body: `{"value": "${SECRET}", "value": "${SECRET}"}` })).text);
  bodies.push((await t.request('PUT', '/api/credentials/ncbi_api_key', { body: `{"value": "${SECRET}"` })).text);
  const all = bodies.join('\n') + '\n' + t.logLines.join('\n');
  assert.not.ok(all.includes(SECRET), 'secret leaked');
  assert.not.ok(all.includes(SECRET.slice(3, 20)), 'part of the secret leaked');
});

test('unknown names are 404; bad bodies 422 without echoing input', async () => {
  const r = await t.request('PUT', '/api/credentials/no_such_key', { body: { value: 'x' } });
  assert.is(r.status, 404);
  assert.is(r.json().detail.reason, 'credential_unknown');
  const bad = await t.request('PUT', '/api/credentials/core_api_key', { body: { value: '' } });
  assert.is(bad.status, 422);
  assert.is(bad.json().detail[0].input, null);
  assert.is((await t.request('DELETE', '/api/credentials/no_such_key')).status, 404);
});

test('DELETE removes the value and is idempotent', async () => {
  await t.request('PUT', '/api/credentials/core_api_key', { body: { value: SECRET } });
  assert.equal((await t.request('DELETE', '/api/credentials/core_api_key')).json(), { name: 'core_api_key', status: 'absent' });
  assert.is((await t.request('DELETE', '/api/credentials/core_api_key')).status, 200);
  assert.not.ok(fs.readFileSync(path.join(t.dirs.stateDir, 'credentials.json'), 'utf8').includes('core_api_key'));
});

test('an unreadable credentials file says unreadable and is not overwritten', async () => {
  const file = path.join(t.dirs.stateDir, 'credentials.json');
  const saved = fs.readFileSync(file);
  fs.writeFileSync(file, '{not json');
  try {
    const rows = (await t.request('GET', '/api/credentials')).json().credentials;
    assert.ok(rows.every((c: any) => c.status === 'unreadable'));
    const put = await t.request('PUT', '/api/credentials/ads_api_key', { body: { value: 'abc' } });
    assert.is(put.status, 500);
    assert.is(put.json().detail.reason, 'credentials_unreadable');
    assert.is(fs.readFileSync(file, 'utf8'), '{not json', 'left for the person to repair');
    // The refusal names the file to repair.
    const cli = await runCliInProcess(['credentials', 'set', 'ads_api_key'], { env: t.dirs.env, stdin: 'ads-value-never-shown' });
    assert.is(cli.code, 1);
    assert.ok(cli.stderr.includes(`The credentials file ${file} cannot be read`), cli.stderr);
    assert.not.ok(cli.stderr.includes('ads-value-never-shown'));
  } finally {
    fs.writeFileSync(file, saved);
  }
});

test('CLI: set reads the value from stdin (never argv), list shows status only, delete confirms', async () => {
  const env = t.dirs.env;
  const set = await runCliInProcess(['credentials', 'set', 'ieee_api_key'], { env, stdin: SECRET + '\n' });
  assert.is(set.code, 0, set.stderr);
  assert.not.ok(set.stdout.includes(SECRET) || set.stderr.includes(SECRET));
  const list = await runCliInProcess(['credentials', 'list'], { env });
  assert.match(list.stdout, /ieee_api_key\s+present/);
  assert.not.ok(list.stdout.includes(SECRET));
  const json = JSON.parse((await runCliInProcess(['--json', 'credentials', 'list'], { env })).stdout);
  assert.is(json.credentials.find((c: any) => c.name === 'ieee_api_key').status, 'present');
  const noYes = await runCliInProcess(['credentials', 'delete', 'ieee_api_key'], { env });
  assert.is(noYes.code, 2);
  assert.match(noYes.stderr, /--yes/);
  assert.is((await runCliInProcess(['credentials', 'delete', 'ieee_api_key', '--yes'], { env })).code, 0);
  assert.is((await t.request('GET', '/api/credentials')).json().credentials.find((c: any) => c.name === 'ieee_api_key').status, 'absent');
  // Deleting what is not stored says so (no prompt, no --yes needed), instead of "deleted".
  const absent = await runCliInProcess(['credentials', 'delete', 'ieee_api_key'], { env });
  assert.equal([absent.code, absent.stdout.trim()], [0, 'ieee_api_key is not stored; nothing deleted.']);
  assert.is(JSON.parse((await runCliInProcess(['--json', 'credentials', 'delete', 'ieee_api_key'], { env })).stdout).deleted, false);
  const validate = await runCliInProcess(['credentials', 'validate', 'openai_api_key'], { env });
  assert.is(validate.code, 2);
  assert.match(validate.stderr, /no openai_api_key is stored; store it with `svc credentials set openai_api_key`/);
  assert.is((await runCliInProcess(['credentials', 'set', 'nope'], { env, stdin: 'x' })).code, 2, 'an unknown name is a usage error');
  // One mistake, one answer: the reason the HTTP routes give (credential_unknown) and exit 2, whichever subcommand.
  for (const args of [['set', 'nope'], ['delete', 'nope', '--yes'], ['validate', 'nope']]) {
    const r = await runCliInProcess(['--json', 'credentials', ...args], { env, stdin: 'x' });
    assert.equal([r.code, JSON.parse(r.stdout).error], [2, 'credential_unknown'], `${args[0]}: ${r.stdout}`);
  }
  assert.is((await runCliInProcess(['credentials', 'set', 'ads_api_key'], { env, stdin: '' })).code, 2);
});

test.run();
