import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './_setup.js';
import { addTarget, afterRunSettled, deliveriesWhen, deliveryServer, newRoutine, runRoutine, startWebhook, workerPasses, type DeliveryEnv, type WebhookPeer } from './_delivery.js';

let env: DeliveryEnv;
let hook: WebhookPeer;
let root: string;

test.before(async () => {
  env = await deliveryServer();
  hook = await startWebhook();
  root = fs.mkdtempSync(path.join(env.t.dirs.root, 'dest-zq-'));
});
test.after(async () => {
  await env.close();
  await hook.close();
});

const newDir = (name: string) => {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  return dir;
};

test('folder: the bundle is written atomically under a name of its own; a second run adds a file, never overwrites', async () => {
  const t = env.t;
  const dir = newDir('folder');
  const routine = await newRoutine(t, { name: 'folder watch' });
  await addTarget(t, routine, { channel: 'folder', target: dir });
  const first = await runRoutine(t, routine);
  const [d1] = await deliveriesWhen(t, first, (x) => x.state === 'delivered');
  const second = await runRoutine(t, routine);
  const [d2] = await deliveriesWhen(t, second, (x) => x.state === 'delivered');
  const files = fs.readdirSync(dir).sort();
  assert.is(files.length, 2);
  assert.match(files.join(' '), new RegExp(`svc-routine-${routine}-execution-${first}-delivery-${d1.id}-[0-9a-f]{16}\\.json`));
  assert.match(files.join(' '), new RegExp(`svc-routine-${routine}-execution-${second}-delivery-${d2.id}-[0-9a-f]{16}\\.json`));
  const bundle = JSON.parse(fs.readFileSync(path.join(dir, files[0]!), 'utf8'));
  assert.is(bundle.format, 'svc-report-bundle');
  assert.ok(bundle.papers.length > 0);
  assert.is((fs.statSync(path.join(dir, files[0]!)).mode & 0o777), 0o600);
});

test('folder: a destination that can no longer be written into fails with <target> in the error, never the path', async () => {
  const t = env.t;
  const parent = newDir('unwritable');
  const dir = path.join(parent, 'reports');
  fs.mkdirSync(dir);
  const routine = await newRoutine(t, { name: 'unwritable' });
  await addTarget(t, routine, { channel: 'folder', target: dir });
  // The folder's parent is now a regular file: nothing can be created under it (ENOTDIR), not even by root,
  // whom a read-only mode would not stop (CI runs as root).
  fs.rmSync(parent, { recursive: true });
  fs.writeFileSync(parent, 'not a folder\n');
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'failed', 'unwritable failure');
  assert.is(d.last_error, 'Could not write into <target>: it is not a directory (ENOTDIR).');
  assert.is(fs.readFileSync(parent, 'utf8'), 'not a folder\n', 'nothing written in its place');
});

test('feed: a valid Atom file per destination, parsed by rss-parser, newest entry first', async () => {
  const t = env.t;
  const dir = newDir('feed');
  const routine = await newRoutine(t, { name: 'feed watch' });
  const target = await addTarget(t, routine, { channel: 'feed', target: dir });
  const ids: number[] = [];
  for (let i = 0; i < 2; i++) {
    const exec = await runRoutine(t, routine);
    ids.push((await deliveriesWhen(t, exec, (x) => x.state === 'delivered'))[0].id);
  }
  assert.equal(fs.readdirSync(dir), [`svc-feed-${target.id}.atom`]);
  const { default: Parser } = await import('rss-parser');
  const feed = await new Parser().parseString(fs.readFileSync(path.join(dir, `svc-feed-${target.id}.atom`), 'utf8'));
  assert.is(feed.title, 'svc: feed watch');
  assert.equal(feed.items.map((i) => i.id?.replace(/:[0-9a-f]{16}$/, '')), [`urn:svc:delivery:${ids[1]}`, `urn:svc:delivery:${ids[0]}`]);
  assert.match(feed.items[0]!.title ?? '', /feed watch: \d+ new papers? \(run \d+\)/);
  // the corpus already holds these papers (earlier tests): the digest says so rather than listing nothing
  assert.match(feed.items[0]!.content ?? '', /Query: &quot;ecology&quot;|Query: "ecology"/);
  assert.match(feed.items[0]!.content ?? '', /<a href="https?:|No new papers this run/);
});

test('feed: a second attempt of a delivery already in the feed adds no duplicate; the length is bounded', async () => {
  const { sendFeed, FEED_MAX_ENTRIES } = await import('../src/delivery/channels/feed.js');
  const { buildBundle } = await import('../src/delivery/bundle.js');
  const t = env.t;
  const dir = newDir('feed-bound');
  const routine = await newRoutine(t, { name: 'bounded' });
  const target = await addTarget(t, routine, { channel: 'feed', target: dir });
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  const row = t.ctx.db.prepare('SELECT * FROM deliveries WHERE id = ?').get(d.id) as any;
  const targetRow = t.ctx.db.prepare('SELECT * FROM delivery_targets WHERE id = ?').get(target.id) as any;
  const bundle = buildBundle(t.ctx, row);
  await sendFeed({ ctx: t.ctx, delivery: row, target: targetRow, bundle, extra: [] });
  const file = path.join(dir, `svc-feed-${target.id}.atom`);
  assert.is((fs.readFileSync(file, 'utf8').match(/<entry>/g) ?? []).length, 1);
  for (let i = 1; i <= FEED_MAX_ENTRIES + 5; i++) await sendFeed({ ctx: t.ctx, delivery: { ...row, id: 100_000 + i }, target: targetRow, bundle, extra: [] });
  const text = fs.readFileSync(file, 'utf8');
  assert.is((text.match(/<entry>/g) ?? []).length, FEED_MAX_ENTRIES);
  assert.ok(text.indexOf(`urn:svc:delivery:${100_000 + FEED_MAX_ENTRIES + 5}:`) < text.indexOf(`urn:svc:delivery:${100_000 + 10}:`), 'newest first');
  assert.equal(fs.readdirSync(dir), [`svc-feed-${target.id}.atom`], 'no temporary file left');
});

test('review mode never sends on its own; deliver releases it (the only promotion); skip skips; wrong-state moves are 409', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'reviewed' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url, mode: 'review' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url, mode: 'review' });
  const n = hook.received.length;
  const exec = await runRoutine(t, routine);
  const [a, b] = await deliveriesWhen(t, exec, (x) => x.state === 'awaiting_review');
  await afterRunSettled(t, exec);
  await workerPasses(t, 2);
  assert.is(hook.received.length, n, 'nothing sent while awaiting review');
  let summary = (await t.request('GET', `/api/routines/${routine}`)).json().delivery_summary;
  assert.equal([summary.awaiting_review, summary.last_state], [2, 'awaiting_review']);
  // retry is not a way out of review
  assert.is((await t.request('POST', `/api/deliveries/${a.id}/retry`)).status, 409);
  const released = await t.request('POST', `/api/deliveries/${a.id}/deliver`);
  assert.equal([released.status, released.json().state], [202, 'queued']);
  await waitFor(async () => (await t.request('GET', `/api/executions/${exec}/deliveries`)).json().deliveries.find((x: any) => x.id === a.id).state === 'delivered', 5000, 'released delivery');
  assert.is(hook.received.length, n + 1);
  const skipped = await t.request('POST', `/api/deliveries/${b.id}/skip`);
  assert.equal([skipped.status, skipped.json().state], [200, 'skipped']);
  for (const [id, verb] of [[a.id, 'deliver'], [a.id, 'skip'], [a.id, 'retry'], [b.id, 'deliver'], [b.id, 'skip']] as const) {
    const r = await t.request('POST', `/api/deliveries/${id}/${verb}`);
    assert.is(r.status, 409, `${verb} ${id}`);
    assert.is(r.json().detail.reason, 'delivery_state_conflict');
  }
  assert.is((await t.request('POST', '/api/deliveries/999999/deliver')).status, 404);
  assert.is((await t.request('POST', '/api/deliveries/0/skip')).status, 422);
  summary = (await t.request('GET', `/api/routines/${routine}`)).json().delivery_summary;
  assert.is(summary.awaiting_review, 0);
  const page = (await t.request('GET', `/api/routines/${routine}/deliveries?state=skipped`)).json();
  assert.equal([page.total, page.deliveries[0].id], [1, b.id]);
  assert.is((await t.request('GET', `/api/routines/${routine}/deliveries?state=lost`)).status, 422);
  assert.is((await t.request('GET', `/api/routines/${routine}/deliveries?limit=0`)).status, 422);
  assert.is((await t.request('GET', '/api/routines/99999/deliveries')).status, 404);
  assert.is((await t.request('GET', '/api/executions/99999/deliveries')).status, 404);
});

test('a disabled destination creates no delivery; email_enabled without an email destination mails the settings recipient', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'disabled', email_enabled: true });
  await addTarget(t, routine, { channel: 'folder', target: newDir('disabled'), enabled: false });
  const exec = await runRoutine(t, routine);
  const list = await deliveriesWhen(t, exec, (x) => x.state === 'failed', 'routine email (no mail server configured)');
  assert.equal(list.map((d) => [d.channel, d.origin, d.target_id]), [['email', 'routine_email', null]]);
  assert.match(list[0].last_error, /email settings have no recipient/, list[0].last_error);
  assert.is(list[0].attempts, 1, 'a configuration gap is not retried by backoff');
});

test('a skip of a queued delivery waiting for its next attempt stops it; the watchdog read lists failing deliveries', async () => {
  const t = env.t;
  const { deliveryTuning } = await import('../src/delivery/tuning.js');
  const { listFailingDeliveries } = await import('../src/delivery/failing.js');
  const tuning = deliveryTuning(t.ctx);
  tuning.backoffMs = [60_000];
  try {
    hook.status = 503;
    const since = new Date(Date.now() - 1000).toISOString();
    const routine = await newRoutine(t, { name: 'backing off' });
    await addTarget(t, routine, { channel: 'webhook', target: hook.url });
    const exec = await runRoutine(t, routine);
    const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'queued' && x.attempts === 1, 'first failure');
    assert.match(d.last_error, /HTTP 503/);
    assert.ok(Date.parse(d.next_attempt_at_utc) > Date.now() + 30_000);
    const failing = listFailingDeliveries(t.ctx, since);
    assert.ok(failing.some((f) => f.id === d.id && f.state === 'retrying' && f.routine_name === 'backing off'));
    const r = await t.request('POST', `/api/deliveries/${d.id}/skip`);
    assert.equal([r.status, r.json().state, r.json().next_attempt_at_utc], [200, 'skipped', null]);
    assert.not.ok(listFailingDeliveries(t.ctx, since).some((f) => f.id === d.id));
  } finally {
    hook.status = 200;
    tuning.backoffMs = [100, 100];
  }
});

test('notifications: notify_on_complete or on_complete notifies a completed run; desktop_enabled false silences it', async () => {
  const t = env.t;
  const seen: any[] = [];
  const off = t.ctx.bus.on('notification', (n) => seen.push(n));
  try {
    const quiet = await newRoutine(t, { name: 'quiet' });
    await afterRunSettled(t, await runRoutine(t, quiet)); // notifications come in the after-run step, after the settled status
    assert.equal(seen.filter((n) => n.routine_id === quiet), [], 'neither the routine nor the settings ask');
    const loud = await newRoutine(t, { name: 'loud', notify_on_complete: true });
    const exec = await runRoutine(t, loud);
    await waitFor(() => seen.some((n) => n.routine_id === loud), 5000, 'notification');
    assert.equal([seen[0].kind, seen[0].execution_id], ['run_completed', exec]);
    assert.is((await t.request('PUT', '/api/settings/notifications', { body: { settings: { desktop_enabled: false } } })).status, 200);
    const before = seen.length;
    await afterRunSettled(t, await runRoutine(t, loud));
    assert.is(seen.length, before);
  } finally {
    off();
    await t.request('PUT', '/api/settings/notifications', { body: { settings: { desktop_enabled: true } } });
  }
});

test('no destination string or secret in any API answer or log line', async () => {
  const t = env.t;
  const secrets = t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE secret IS NOT NULL').pluck().all() as string[];
  const errors = t.ctx.db.prepare("SELECT last_error FROM deliveries WHERE last_error IS NOT NULL UNION ALL SELECT error FROM delivery_attempts WHERE error IS NOT NULL").pluck().all() as string[];
  assert.ok(errors.length >= 3);
  const routines = (await t.request('GET', '/api/routines')).json().routines as any[];
  const answers: string[] = [];
  for (const r of routines) {
    answers.push((await t.request('GET', `/api/routines/${r.id}`)).text, (await t.request('GET', `/api/routines/${r.id}/deliveries`)).text);
  }
  const haystack = [...errors, ...answers, ...t.logLines].join('\n');
  for (const needle of [root, 'dest-zq-', new URL(hook.url).pathname, 'svc-secret-path', ...secrets]) assert.not.ok(haystack.includes(needle), `leaked: ${needle}`);
});

test.run();
