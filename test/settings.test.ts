// HTTP in-process (t.inProcess): these tests are about the routes, not the socket.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { API_PROVIDERS } from '../src/providers/provider-catalog.js';
import { GENERIC_GROUPS, SETTINGS, SETTINGS_GROUPS } from '../src/settings/schema.js';
import { startTestServer, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

test('every generic group reads its typed defaults, booleans as JSON booleans', async () => {
  for (const group of GENERIC_GROUPS) {
    const r = await t.inProcess('GET', `/api/settings/${group}`);
    assert.is(r.status, 200, group);
    const { settings } = r.json();
    assert.equal(Object.keys(settings).sort(), Object.keys(SETTINGS[group]).sort());
    for (const [key, def] of Object.entries(SETTINGS[group])) {
      assert.equal(settings[key], def.default, `${group}.${key}`);
      if (def.type === 'boolean') assert.type(settings[key], 'boolean');
    }
  }
});

test('every group\'s read describes its keys (type, default, the schema\'s sentence, choices, range), so a form needs no copy of the schema', async () => {
  for (const group of SETTINGS_GROUPS) {
    const { keys } = (await t.inProcess('GET', `/api/settings/${group}`)).json();
    assert.equal(Object.keys(keys).sort(), Object.keys(SETTINGS[group]).sort(), group);
    for (const [key, def] of Object.entries(SETTINGS[group])) {
      assert.is(keys[key].type, def.type, `${group}.${key}`);
      assert.equal(keys[key].default, def.default, `${group}.${key}`);
      assert.is(keys[key].doc, def.doc, `${group}.${key}`);
      if ('oneOf' in def && def.oneOf) assert.equal(keys[key].one_of, def.oneOf, `${group}.${key}`);
      if (def.type === 'integer') assert.equal([keys[key].min, keys[key].max], [def.min, def.max], `${group}.${key}`);
    }
  }
  const put = (await t.inProcess('PUT', '/api/settings/storage', { body: { settings: { keep_execution_logs_days: 3 } } })).json();
  assert.equal(Object.keys(put.keys).sort(), Object.keys(SETTINGS.storage).sort(), 'a write answers the description too');
  await t.inProcess('PUT', '/api/settings/storage', { body: { settings: { keep_execution_logs_days: 0 } } });
});

test('PUT round-trips values, ignores keys outside the group and names them in the answer, keeps untouched keys', async () => {
  const r = await t.inProcess('PUT', '/api/settings/email', { body: { settings: { smtp_port: 2525, smtp_secure: true, from_address: 'me@example.org', provider: 'x', unknown_key: 1 } } });
  assert.is(r.status, 200);
  assert.equal(r.json().ignored_keys, ['provider', 'unknown_key'], 'a misspelt key is said, not silently lost');
  assert.equal((await t.inProcess('PUT', '/api/settings/email', { body: { settings: { smtp_port: 2525 } } })).json().ignored_keys, []);
  const after = (await t.inProcess('GET', '/api/settings/email')).json().settings;
  assert.is(after.smtp_port, 2525);
  assert.is(after.smtp_secure, true);
  assert.is(after.from_address, 'me@example.org');
  assert.is(after.to_address, '');
  assert.not.ok('unknown_key' in after);
  assert.not.ok('provider' in after);
  const assistant = await t.inProcess('PUT', '/api/settings/assistant', { body: { settings: { assistant_runtime: 'api_key', assistant_model: 'some-model', assistant_effort: null } } });
  assert.equal(assistant.json().settings, { assistant_runtime: 'api_key', assistant_model: 'some-model', assistant_effort: null });
});

test('a wrong type is 422 with the detail shape and changes nothing', async () => {
  const before = (await t.inProcess('GET', '/api/settings/notifications')).json().settings;
  const r = await t.inProcess('PUT', '/api/settings/notifications', { body: { settings: { on_complete: 'true', desktop_enabled: false } } });
  assert.is(r.status, 422);
  const [issue] = r.json().detail;
  assert.equal(issue.loc, ['body', 'settings', 'on_complete']);
  assert.type(issue.msg, 'string');
  assert.is(issue.type, 'bool_type');
  assert.is(issue.input, 'true');
  assert.type(issue.ctx, 'undefined' === typeof issue.ctx ? 'undefined' : 'object');
  assert.equal((await t.inProcess('GET', '/api/settings/notifications')).json().settings, before, 'the valid key in the same body was not stored either');
  const badEnum = await t.inProcess('PUT', '/api/settings/assistant', { body: { settings: { assistant_effort: 'extreme' } } });
  assert.is(badEnum.status, 422);
  assert.equal(badEnum.json().detail[0].ctx.expected, ['low', 'medium', 'high', 'xhigh', 'max']);
});

test('keys every object inherits ("toString", "constructor") are no settings: never stored, never read back', async () => {
  // (valibot's record drops constructor, prototype and __proto__ from the body itself; the CLI below reaches the store with one.)
  const r = await t.inProcess('PUT', '/api/settings/email', { body: { settings: { toString: 'x', hasOwnProperty: 2 } } });
  assert.equal([r.status, r.json().ignored_keys], [200, ['toString', 'hasOwnProperty']]);
  assert.equal(Object.keys(r.json().settings).sort(), Object.keys(SETTINGS.email).sort());
  assert.equal(t.ctx.db.prepare("SELECT key FROM settings WHERE key IN ('toString', 'hasOwnProperty')").all(), []);
  const cli = await runCliInProcess(['settings', 'set', 'email', 'constructor', 'x'], { env: t.dirs.env });
  assert.is(cli.code, 2, cli.stderr);
  assert.match(cli.stderr, /No setting "constructor" in email; keys: smtp_host/);
});

test('ai.provider is one of the providers svc offers, or none; anything else is 422 naming them, and one stored before reads as none', async () => {
  const put = (provider: unknown) => t.inProcess('PUT', '/api/settings/ai', { body: { settings: { provider } } });
  const offered = [...API_PROVIDERS.map((p) => p.id), 'agent_code', 'none'];
  for (const provider of offered) assert.is((await put(provider)).status, 200, provider);
  const before = (await t.inProcess('GET', '/api/settings/ai')).json().settings;
  for (const provider of ['bogus', 'OpenAI', '', 'agent_codex', null, 3]) {
    const r = await put(provider);
    assert.is(r.status, 422, JSON.stringify(provider));
    const [item, ...more] = r.json().detail;
    assert.equal(more, []);
    assert.equal(item.loc, ['body', 'settings', 'provider']);
    assert.ok(['loc', 'msg', 'type', 'input', 'ctx'].every((k) => k in item), JSON.stringify(item));
    if (typeof provider === 'string') {
      assert.equal([item.type, item.input], ['enum', provider]);
      assert.equal([...item.ctx.expected].sort(), [...offered].sort());
      assert.match(item.msg, /one of: none, openai, .*agent_code/);
    }
  }
  assert.equal((await t.inProcess('GET', '/api/settings/ai')).json().settings, before, 'nothing stored');
  assert.equal((await t.inProcess('GET', '/api/settings/ai')).json().keys.provider.one_of, ['none', ...API_PROVIDERS.map((p) => p.id), 'agent_code'], 'the form gets the choices');
  t.ctx.db.prepare("UPDATE settings SET value_json = '\"bogus\"' WHERE group_name = 'ai' AND key = 'provider'").run();
  assert.is((await t.inProcess('GET', '/api/settings/ai')).json().settings.provider, 'none');
  const cli = await runCliInProcess(['settings', 'set', 'ai', 'provider', 'bogus'], { env: t.dirs.env });
  assert.is(cli.code, 2);
  assert.is(cli.stderr.trim().split('\n').length, 1, 'one line');
  assert.match(cli.stderr, /ai\.provider: Input should be one of: none, openai/);
  assert.is((await runCliInProcess(['settings', 'set', 'ai', 'provider', 'anthropic'], { env: t.dirs.env })).code, 0);
  await put('none');
});

test('the embeddings and execution PUTs refuse a key outside the group with an extra_forbidden item naming the keys, and store nothing', async () => {
  const embeddings = (await t.inProcess('GET', '/api/settings/embeddings')).json().settings;
  const e = await t.inProcess('PUT', '/api/settings/embeddings', { body: { settings: { batch_size: 8, batch_sise: 16, api_key: 'sk-secret-x1' } } });
  assert.is(e.status, 422);
  const items = e.json().detail;
  assert.equal(items.map((i: any) => [i.loc, i.type, i.input]), [
    [['body', 'settings', 'batch_sise'], 'extra_forbidden', null],
    [['body', 'settings', 'api_key'], 'extra_forbidden', null],
  ]);
  assert.match(items[0].msg, /embeddings has no setting "batch_sise"; its keys are provider, model, base_url, batch_size, embed_after_runs/);
  assert.equal(items[0].ctx.expected, Object.keys(SETTINGS.embeddings));
  assert.not.match(JSON.stringify(e.json()), /sk-secret-x1/, 'the value of a misplaced key is never echoed');
  assert.equal((await t.inProcess('GET', '/api/settings/embeddings')).json().settings, embeddings, 'the valid key was not stored either');

  const { keys: _k, ...execution } = (await t.inProcess('GET', '/api/settings/execution')).json();
  const x = await t.inProcess('PUT', '/api/settings/execution', { body: { max_concurrent_executions: 4, routine_fire_queue_limit: 5, max_concurent_executions: 6 } });
  assert.is(x.status, 422);
  assert.equal(x.json().detail.map((i: any) => [i.loc, i.type]), [[['body', 'max_concurent_executions'], 'extra_forbidden']]);
  const { keys: _k2, ...after } = (await t.inProcess('GET', '/api/settings/execution')).json();
  assert.equal(after, execution);
});

test('the generic body requires a settings object', async () => {
  for (const body of [{}, { settings: 'x' }, { settings: [1] }, []]) {
    const r = await t.inProcess('PUT', '/api/settings/ai', { body });
    assert.is(r.status, 422, JSON.stringify(body));
    const issue = r.json().detail[0];
    assert.ok(['loc', 'msg', 'type', 'input', 'ctx'].every((k) => k in issue), JSON.stringify(issue));
  }
  const malformed = await t.inProcess('PUT', '/api/settings/ai', { body: '{"settings": {' });
  assert.is(malformed.status, 422);
  assert.is(malformed.json().detail[0].type, 'json_invalid');
  const duplicate = await t.inProcess('PUT', '/api/settings/ai', { body: '{"settings": {"model": "a", "model": "b"}}' });
  assert.is(duplicate.status, 422);
  assert.is(duplicate.json().detail[0].type, 'json_duplicate_key');
  const notJson = await t.inProcess('PUT', '/api/settings/ai', { body: 'settings=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.is(notJson.status, 415);
});

test('execution settings: both fields required integers within bounds', async () => {
  const { keys: _described, ...defaults } = (await t.inProcess('GET', '/api/settings/execution')).json();
  assert.equal(defaults, { max_concurrent_executions: 3, routine_fire_queue_limit: 20 });
  const ok = await t.inProcess('PUT', '/api/settings/execution', { body: { max_concurrent_executions: 5, routine_fire_queue_limit: 0 } });
  const { keys: _keysAfter, ...stored } = ok.json();
  assert.equal(stored, { max_concurrent_executions: 5, routine_fire_queue_limit: 0 });
  const cases: [unknown, string][] = [
    [{ max_concurrent_executions: 5 }, 'routine_fire_queue_limit'],
    [{ routine_fire_queue_limit: 5 }, 'max_concurrent_executions'],
    [{ max_concurrent_executions: 2.5, routine_fire_queue_limit: 1 }, 'max_concurrent_executions'],
    [{ max_concurrent_executions: '4', routine_fire_queue_limit: 1 }, 'max_concurrent_executions'],
    [{ max_concurrent_executions: true, routine_fire_queue_limit: 1 }, 'max_concurrent_executions'],
    [{ max_concurrent_executions: 0, routine_fire_queue_limit: 1 }, 'max_concurrent_executions'],
    [{ max_concurrent_executions: 33, routine_fire_queue_limit: 1 }, 'max_concurrent_executions'],
    [{ max_concurrent_executions: 3, routine_fire_queue_limit: -1 }, 'routine_fire_queue_limit'],
    [{ max_concurrent_executions: 3, routine_fire_queue_limit: 1001 }, 'routine_fire_queue_limit'],
  ];
  for (const [body, key] of cases) {
    const r = await t.inProcess('PUT', '/api/settings/execution', { body });
    assert.is(r.status, 422, JSON.stringify(body));
    assert.equal(r.json().detail[0].loc, ['body', key], JSON.stringify(body));
  }
  const { keys: _keys, ...values } = (await t.inProcess('GET', '/api/settings/execution')).json();
  assert.equal(values, { max_concurrent_executions: 5, routine_fire_queue_limit: 0 });
});

test('CLI: settings set converts to the type; get reads back; bad words are usage errors', async () => {
  const env = t.dirs.env;
  const set = await runCliInProcess(['settings', 'set', 'email', 'smtp_port', '465'], { env });
  assert.is(set.code, 0, set.stderr);
  const get = await runCliInProcess(['--json', 'settings', 'get', 'email', 'smtp_port'], { env });
  assert.equal(JSON.parse(get.stdout), { group: 'email', key: 'smtp_port', value: 465 });
  assert.is((await runCliInProcess(['settings', 'set', 'notifications', 'on_complete', 'TRUE'], { env })).code, 0);
  assert.is((await t.inProcess('GET', '/api/settings/notifications')).json().settings.on_complete, true, 'CLI and HTTP share one store');
  const badType = await runCliInProcess(['settings', 'set', 'email', 'smtp_port', 'many'], { env });
  assert.is(badType.code, 2);
  assert.is(badType.stderr.trim().split('\n').length, 1, 'one line');
  assert.is((await runCliInProcess(['settings', 'set', 'email', 'nope', '1'], { env })).code, 2);
  // A password asked for as a setting: where it goes instead, never the value back.
  const secret = await runCliInProcess(['settings', 'set', 'email', 'smtp_password', 'hunter2-x9'], { env });
  assert.is(secret.code, 2);
  assert.match(secret.stderr, /smtp_password is a credential: store it with `svc credentials set smtp_password`/);
  assert.not.match(secret.stderr, /hunter2-x9/);
  assert.match((await runCliInProcess(['settings', 'set', 'cloud', 'password', 'x'], { env })).stderr, /`svc credentials set cloud_password`/);
  assert.match((await runCliInProcess(['settings', 'set', 'ai', 'api_key', 'x'], { env })).stderr, /Secrets are credentials, never settings/);
  assert.is((await runCliInProcess(['settings', 'get', 'nogroup'], { env })).code, 2);
  const badEmail = await runCliInProcess(['settings', 'set', 'email', 'contact_email', 'me at example'], { env });
  assert.is(badEmail.code, 2);
  assert.match(badEmail.stderr, /contact_email: Input should be an email address/);
  assert.is((await t.inProcess('PUT', '/api/settings/email', { body: { settings: { contact_email: 'me@' } } })).status, 422, 'the same rule at the HTTP door');
  assert.is((await runCliInProcess(['settings', 'set', 'email', 'contact_email', 'me@example.org'], { env })).code, 0);
  assert.is((await runCliInProcess(['settings', 'set', 'email', 'contact_email', ''], { env })).code, 0, 'empty clears it');
  // The reports folder is absolute: relative on the command line means under the current directory, over HTTP it is refused,
  // and one stored relative before reads as the default (each process would have resolved it somewhere else).
  const rel = JSON.parse((await runCliInProcess(['--json', 'settings', 'set', 'storage', 'reports_dir', 'rel-reports'], { env })).stdout);
  assert.ok(path.isAbsolute(rel.value) && rel.value.endsWith(`${path.sep}rel-reports`), rel.value);
  const relHttp = await t.inProcess('PUT', '/api/settings/storage', { body: { settings: { reports_dir: 'rel-reports' } } });
  assert.equal([relHttp.status, relHttp.json().detail[0].type], [422, 'path_not_absolute']);
  t.ctx.db.prepare("UPDATE settings SET value_json = '\"old-relative\"' WHERE group_name = 'storage' AND key = 'reports_dir'").run();
  assert.is((await t.inProcess('GET', '/api/settings/storage')).json().settings.reports_dir, '');
  assert.is((await runCliInProcess(['settings', 'set', 'storage', 'reports_dir', ''], { env })).code, 0);
  const all = JSON.parse((await runCliInProcess(['--json', 'settings', 'get'], { env })).stdout);
  assert.ok(all.execution && all.assistant);
});

test.run();
