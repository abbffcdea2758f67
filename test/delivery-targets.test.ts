import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './_setup.js';
import { newRoutine } from './_delivery.js';

let t: TestServer;
let routine: number;
let dir: string;

test.before(async () => {
  t = await startTestServer();
  routine = await newRoutine(t);
  dir = path.join(t.dirs.root, 'outbox');
  fs.mkdirSync(dir);
});
test.after(() => t.close());

const base = () => `/api/routines/${routine}/delivery-targets`;
const post = (body: unknown) => t.request('POST', base(), { body });

test('create applies the defaults (enabled true, mode automatic, target empty) and lists the target', async () => {
  const r = await post({ channel: 'email' });
  assert.is(r.status, 201);
  const created = r.json();
  assert.equal([created.channel, created.enabled, created.mode, created.target, created.routine_id, created.signed], ['email', true, 'automatic', '', routine, false]);
  const list = (await t.request('GET', base())).json();
  assert.equal(list.routine_id, routine);
  assert.ok(list.targets.some((x: any) => x.id === created.id));
  await t.request('DELETE', `${base()}/${created.id}`);
});

test('each channel accepts its kind of destination', async () => {
  const ok = [
    { channel: 'email', target: 'reader@example.org' },
    { channel: 'folder', target: dir },
    { channel: 'feed', target: dir, mode: 'review' },
    { channel: 'webhook', target: 'https://hooks.example.org/svc', enabled: false },
  ];
  for (const body of ok) {
    const r = await post(body);
    assert.is(r.status, 201, JSON.stringify(body));
    await t.request('DELETE', `${base()}/${r.json().id}`);
  }
});

test('bad destinations are 422 with a reason and the destination never echoed', async () => {
  const file = path.join(dir, 'a-file.txt');
  fs.writeFileSync(file, 'x');
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ channel: 'email', target: 'not-an-address-zq' }, 'target', /email address/],
    [{ channel: 'email', target: 'a@b.org, c@d.org' }, 'target', /one email address/],
    [{ channel: 'webhook', target: '' }, 'target', /needs a URL/],
    [{ channel: 'webhook', target: 'ftp://files.example.org/zq' }, 'target', /http or https/],
    [{ channel: 'webhook', target: 'https://user:pw-zq@hooks.example.org/' }, 'target', /user name or password/],
    [{ channel: 'webhook', target: 'not a url zq' }, 'target', /not a valid URL/],
    [{ channel: 'folder', target: 'relative/dir-zq' }, 'target', /absolute/],
    [{ channel: 'folder', target: path.join(dir, 'missing-zq') }, 'target', /does not exist/],
    [{ channel: 'feed', target: file }, 'target', /not a directory/],
    [{ channel: 'folder', target: '' }, 'target', /needs a directory/],
    [{ channel: 'pigeon' }, 'channel', /one of/],
    [{ channel: 'email', mode: 'sometimes' }, 'mode', /one of/],
    [{ channel: 'email', enabled: 'yes' }, 'enabled', /./],
    [{ channel: 'email', colour: 'blue' }, 'colour', /./],
    [{ channel: 'email', target: 'x'.repeat(400) + '@example.org' }, 'target', /longer than 320/],
  ];
  for (const [body, field, msg] of cases) {
    const r = await post(body);
    assert.is(r.status, 422, JSON.stringify(body).slice(0, 80));
    const detail = r.json().detail;
    assert.equal(detail[0].loc, ['body', field]);
    assert.match(detail[0].msg, msg);
    assert.not.ok(/zq|a-file|pw-zq/.test(r.text), `destination echoed: ${r.text}`);
  }
  assert.is((await post(undefined)).status, 422);
});

test('update: each field optional and nullable (null leaves it), target re-checked for the channel, channel fixed', async () => {
  const created = (await post({ channel: 'folder', target: dir })).json();
  const url = `${base()}/${created.id}`;
  let r = await t.request('PUT', url, { body: { enabled: false } });
  assert.equal([r.status, r.json().enabled, r.json().mode, r.json().target], [200, false, 'automatic', dir]);
  r = await t.request('PUT', url, { body: { enabled: null, mode: 'review', target: null } });
  assert.equal([r.json().enabled, r.json().mode, r.json().target], [false, 'review', dir]);
  r = await t.request('PUT', url, { body: {} });
  assert.is(r.status, 200);
  r = await t.request('PUT', url, { body: { target: 'https://not-a-dir.example.org' } });
  assert.is(r.status, 422);
  r = await t.request('PUT', url, { body: { channel: 'email' } });
  assert.is(r.status, 422);
  assert.equal(r.json().detail[0].loc, ['body', 'channel']);
  r = await t.request('PUT', url, { body: { mode: 'later' } });
  assert.is(r.status, 422);
  await t.request('DELETE', url);
});

test('unknown routine or target is 404; a target of another routine is not reachable through this one', async () => {
  assert.is((await t.request('GET', '/api/routines/9999/delivery-targets')).status, 404);
  assert.is((await t.request('POST', '/api/routines/9999/delivery-targets', { body: { channel: 'email' } })).status, 404);
  const other = await newRoutine(t, { name: 'other' });
  const foreign = (await t.request('POST', `/api/routines/${other}/delivery-targets`, { body: { channel: 'email' } })).json();
  for (const method of ['PUT', 'DELETE']) {
    const r = await t.request(method, `${base()}/${foreign.id}`, { body: method === 'PUT' ? { enabled: false } : undefined });
    assert.is(r.status, 404, method);
    assert.is(r.json().detail.reason, 'delivery_target_not_found');
  }
  assert.is((await t.request('DELETE', `${base()}/abc`)).status, 422);
  const del = await t.request('DELETE', `/api/routines/${other}/delivery-targets/${foreign.id}`);
  assert.equal(del.json(), { id: foreign.id, routine_id: other, deleted: true, deliveries_skipped: 0 });
  assert.is((await t.request('DELETE', `/api/routines/${other}/delivery-targets/${foreign.id}`)).status, 404);
});

test('a webhook secret is generated per destination and never answered; the summary counts enabled destinations without naming them', async () => {
  const a = (await post({ channel: 'webhook', target: 'https://hooks.example.org/a' })).json();
  const b = (await post({ channel: 'webhook', target: 'https://hooks.example.org/b', enabled: false })).json();
  await post({ channel: 'folder', target: dir });
  await post({ channel: 'email', target: 'reader@example.org' });
  const secrets = t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE id IN (?, ?)').pluck().all(a.id, b.id) as string[];
  assert.is(secrets.length, 2);
  assert.ok(secrets.every((s) => /^[0-9a-f]{64}$/.test(s)));
  assert.is.not(secrets[0], secrets[1]);
  assert.is(a.signed, true);
  const list = await t.request('GET', base());
  const read = await t.request('GET', `/api/routines/${routine}`);
  for (const text of [list.text, read.text, JSON.stringify(a), JSON.stringify(b)]) for (const s of secrets) assert.not.ok(text.includes(s), 'secret leaked');
  const summary = read.json().delivery_summary;
  assert.equal(summary.targets_by_channel, { email: 1, folder: 1, webhook: 1, feed: 0 });
  assert.is(summary.enabled_target_count, 3);
  assert.is(summary.last_state, null);
  assert.not.ok(JSON.stringify(summary).includes('example.org') || JSON.stringify(summary).includes(dir));
});

test('deleting a routine removes its destinations', async () => {
  const r = await newRoutine(t, { name: 'to delete' });
  await t.request('POST', `/api/routines/${r}/delivery-targets`, { body: { channel: 'email' } });
  await t.request('DELETE', `/api/routines/${r}`);
  assert.is(t.ctx.db.prepare('SELECT count(*) FROM delivery_targets WHERE routine_id = ?').pluck().get(r), 0);
});

test.run();
