/**
 * Security audit: a distinctive secret sent to or stored by the service never
 * comes back in an HTTP answer (error bodies included) or a log line.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CREDENTIAL_NAMES } from '../src/credentials/names.js';
import { parseStrictJson } from '../src/util/json-strict.js';
import { ROUTES } from '../server/routes/index.js';
import { addTarget, newRoutine } from './_delivery.js';
import { startTestServer, type TestServer } from './_setup.js';

// Short on purpose: V8 quotes a short body whole in its JSON.parse message.
const SECRET = 'sk-Zq8sAUDITx41';
let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

const leaks = (text: string) => text.includes(SECRET) || text.includes(SECRET.slice(3, 12));

test('a body that is not JSON is never quoted back: the parser message holds only a position', () => {
  for (const text of [SECRET, `{"value": ${SECRET}}`, `{"value": "${SECRET}" ${SECRET}}`, `{"key": "x", ${SECRET}`]) {
    try {
      parseStrictJson(text);
      assert.unreachable('parsed');
    } catch (err) {
      assert.not.ok(leaks((err as Error).message), (err as Error).message);
    }
  }
});

test('secret-carrying routes: a malformed body gets a 422 that does not quote the secret', async () => {
  const bodies = [SECRET, `{"value": ${SECRET}}`, `{"value": "x" ${SECRET}}`];
  const cases: [string, string][] = [
    ['PUT', '/api/credentials/openai_api_key'],
    ['POST', '/api/credentials/validate'],
    ['POST', '/api/ai/models'],
    ['POST', '/api/cloud/link'],
    ['POST', '/api/search/dive'],
    ['POST', '/api/routines/1/delivery-targets'],
  ];
  for (const [method, path] of cases) {
    for (const body of bodies) {
      const r = await t.request(method, path, { body });
      assert.ok(r.status === 422 || r.status === 404, `${method} ${path}: ${r.status}`);
      assert.not.ok(leaks(r.text), `${method} ${path} quoted the body: ${r.text}`);
    }
  }
  assert.not.ok(leaks(t.logLines.join('\n')), 'a log line quoted the body');
});

test('a URL setting with a user name or password in it is refused without quoting it, and nothing is stored', async () => {
  const cases: [string, Record<string, unknown>][] = [
    ['ai', { provider: 'openai', base_url: `https://me:${SECRET}@proxy.example/v1` }],
    ['embeddings', { provider: 'openai', base_url: `https://me:${SECRET}@proxy.example/v1` }],
    ['cloud', { url: `https://me:${SECRET}@dav.example/remote.php/dav/` }],
    ['cloud', { url: `https://${SECRET}@dav.example/` }],
  ];
  for (const [group, settings] of cases) {
    const r = await t.request('PUT', `/api/settings/${group}`, { body: { settings } });
    assert.is(r.status, 422, `${group}: ${r.text}`);
    assert.ok(r.json().detail.some((d: any) => d.type === 'url_userinfo'), r.text);
    // Where the secret goes instead, for this group (an AI URL's key is not the cloud password).
    assert.is(/cloud_password/.test(r.text), group === 'cloud', `${group}: ${r.text}`);
    assert.not.ok(leaks(r.text), `${group} quoted the URL: ${r.text}`);
    assert.not.ok(leaks((await t.request('GET', `/api/settings/${group}`)).text), `${group} stored it`);
  }
  // Plain URLs are still fine.
  assert.is((await t.request('PUT', '/api/settings/ai', { body: { settings: { base_url: 'http://127.0.0.1:11434/v1' } } })).status, 200);
});

test('the mail server host holds a host name only: one with a user name, password or scheme is refused unquoted, and an old stored one is not answered', async () => {
  for (const smtp_host of [`me:${SECRET}@smtp.example.org`, `smtps://me:${SECRET}@smtp.example.org`, `${SECRET}@smtp.example.org`]) {
    const r = await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host } } });
    assert.is(r.status, 422, r.text);
    assert.ok(r.json().detail.some((d: any) => d.type === 'host' && d.loc.join('.') === 'body.settings.smtp_host'), r.text);
    assert.not.ok(leaks(r.text), `quoted the host: ${r.text}`);
    assert.not.ok(leaks((await t.request('GET', '/api/settings/email')).text), 'stored it');
  }
  for (const smtp_host of ['smtp.example.org', '127.0.0.1', '::1', '[::1]', 'mail_relay']) {
    const r = await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host } } });
    assert.is(r.status, 200, `${smtp_host}: ${r.text}`);
    assert.is(r.json().smtp_host ?? r.json().settings?.smtp_host, smtp_host);
  }
  // Written before it was refused: reads as unset, never answered.
  t.ctx.db.prepare("UPDATE settings SET value_json = ? WHERE group_name = 'email' AND key = 'smtp_host'").run(JSON.stringify(`me:${SECRET}@smtp.example.org`));
  const read = await t.request('GET', '/api/settings/email');
  assert.not.ok(leaks(read.text), read.text);
  assert.is(read.json().smtp_host ?? read.json().settings?.smtp_host, '');
});

test('a host or URL setting that carries a password and also breaks another rule (too long) is refused without quoting it', async () => {
  const cases: [string, Record<string, unknown>][] = [
    ['email', { smtp_host: `me:${SECRET}@${'a'.repeat(260)}.example.org` }],
    ['ai', { base_url: `https://me:${SECRET}@proxy.example/${'v'.repeat(2100)}` }],
  ];
  for (const [group, settings] of cases) {
    const r = await t.request('PUT', `/api/settings/${group}`, { body: { settings } });
    assert.is(r.status, 422, `${group}: ${r.text.slice(0, 300)}`);
    assert.not.ok(leaks(r.text), `${group} quoted the value: ${r.text.slice(0, 300)}`);
  }
});

test('no read answers the token, a stored credential or a webhook secret (every GET, with ids of real rows)', async () => {
  const values = CREDENTIAL_NAMES.map((c, i) => `${c.name.slice(0, 6)}-VALUE-${i}-9d8c7b6a`);
  CREDENTIAL_NAMES.forEach((c, i) => t.ctx.credentials.set(c.name, values[i]!));
  const routineId = await newRoutine(t);
  const target = await addTarget(t, routineId, { channel: 'webhook', target: 'https://hooks.example.org/in' });
  const webhookSecret = (t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE id = ?').get(target.id) as { secret: string }).secret;
  const ids: Record<string, string> = { routine_id: String(routineId), target_id: String(target.id) };
  const bodies: string[] = [];
  for (const r of ROUTES.filter((r) => r.method === 'GET' && !r.path.includes('/library') && !r.path.includes('/evidence') && !r.path.includes('/stream'))) {
    const p = r.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => ids[name] ?? '1');
    const res = await t.request('GET', p);
    bodies.push(`${p} ${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
  }
  const all = bodies.join('\n') + '\n' + t.logLines.join('\n');
  assert.not.ok(all.includes(t.token), 'the token');
  for (const v of values) assert.not.ok(all.includes(v), v);
  assert.not.ok(all.includes(webhookSecret), 'the webhook secret');
});

test.run();
