/**
 * The watchdog reads the delivery records: a webhook destination nothing listens on fails, its
 * deliveries end failed, and the watchdog reports the destination broken with what to do —
 * naming the destination by id and channel, never by its URL.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { deliveryTuning } from '../src/delivery/tuning.js';
import { addTarget, deliveriesWhen, deliveryServer, newRoutine, runRoutine, type DeliveryEnv } from './_delivery.js';

let env: DeliveryEnv;
test.before(async () => {
  env = await deliveryServer();
});
test.after(async () => env.close());

test('a failing destination is a broken deliveries_failing finding; the URL never appears', async () => {
  const { t } = env;
  const url = `http://127.0.0.1:${await freePort()}/hook`;
  const routine = await newRoutine(t, { name: 'hooked' });
  const target = await addTarget(t, routine, { channel: 'webhook', target: url });
  const before = (await t.request('GET', '/api/watchdog')).json();
  assert.not.ok(before.findings.some((f: any) => f.check === 'deliveries_failing'));
  assert.not.ok(before.could_not_judge.some((u: any) => u.check === 'deliveries_failing'), 'deliveries are judged now');
  const exec = await runRoutine(t, routine);
  await deliveriesWhen(t, exec, (d) => d.state === 'failed', 'webhook to a closed port fails');
  const w = (await t.request('GET', '/api/watchdog')).json();
  const f = w.findings.find((x: any) => x.check === 'deliveries_failing');
  assert.ok(f, JSON.stringify(w.findings));
  assert.is(f.label, 'broken');
  assert.is(f.subject.id, target.id);
  const failed = await deliveriesWhen(t, exec, (d) => d.state === 'failed');
  assert.ok(f.what_to_do.includes(`svc deliveries retry ${failed[0].id}`), f.what_to_do);
  assert.ok(f.evidence.failed >= 1);
  const firstFailure = t.ctx.db.prepare(`SELECT min(finished_at_utc) FROM delivery_attempts WHERE delivery_id = ? AND outcome = 'failed'`).pluck().get(failed[0].id);
  assert.is(f.since_utc, firstFailure, 'since its first failed attempt');
  assert.not.ok(JSON.stringify(w).includes(url), 'no destination URL in the answer');
  const muted = await t.request('POST', '/api/watchdog/mute', { body: { key: f.key } });
  assert.is(muted.status, 200);
  assert.is((await t.request('GET', '/api/watchdog')).json().alarm_total, w.alarm_total - 1);
});

test('a delivery still retrying: the finding names it and does not send the reader to retry, which refuses a queued delivery', async () => {
  const { t } = env;
  const tuning = deliveryTuning(t.ctx);
  const saved = tuning.backoffMs;
  tuning.backoffMs = [600_000, 600_000];
  try {
    const routine = await newRoutine(t, { name: 'hooked later' });
    const target = await addTarget(t, routine, { channel: 'webhook', target: `http://127.0.0.1:${await freePort()}/hook` });
    const exec = await runRoutine(t, routine);
    const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'queued' && x.attempts === 1, 'first attempt failed, next one later');
    const w = (await t.request('GET', '/api/watchdog')).json();
    const f = w.findings.find((x: any) => x.check === 'deliveries_failing' && x.subject.id === target.id);
    assert.ok(f, JSON.stringify(w.findings));
    assert.is(f.label, 'unusual');
    assert.not.match(f.what_to_do, /deliveries retry/, 'retry answers 409 for a queued delivery');
    assert.ok(f.what_to_do.includes(`svc deliveries show ${d.id}`), f.what_to_do);
    assert.ok(f.what_to_do.includes(`svc deliveries skip ${d.id} --yes`), f.what_to_do);
    assert.ok(f.what_to_do.includes(`svc routine target edit ${routine} ${target.id}`), f.what_to_do);
    assert.not.match(f.what_to_do, /email settings/, 'a webhook is not fixed in the email settings');
    assert.is((await t.request('POST', `/api/deliveries/${d.id}/retry`)).status, 409, 'the move the old hint named is refused');
  } finally {
    tuning.backoffMs = saved;
  }
});

test('removing a destination skips what still waited for it (awaiting review), so nothing waits forever', async () => {
  const { t } = env;
  const routine = await newRoutine(t, { name: 'removed while waiting' });
  const target = await addTarget(t, routine, { channel: 'webhook', target: `http://127.0.0.1:${await freePort()}/hook`, mode: 'review' });
  const exec = await runRoutine(t, routine);
  const [waiting] = await deliveriesWhen(t, exec, (d) => d.state === 'awaiting_review');
  const removed = await t.request('DELETE', `/api/routines/${routine}/delivery-targets/${target.id}`);
  assert.equal([removed.status, removed.json()], [200, { id: target.id, routine_id: routine, deleted: true, deliveries_skipped: 1 }]);
  const [after] = (await t.request('GET', `/api/executions/${exec}/deliveries`)).json().deliveries;
  assert.equal([after.id, after.state, after.last_error], [waiting.id, 'skipped', 'The destination was removed before this delivery was sent.']);
  assert.is((await t.request('GET', `/api/routines/${routine}`)).json().delivery_summary.awaiting_review, 0, 'no longer counted as awaiting review');
  assert.is((await t.request('POST', `/api/deliveries/${waiting.id}/deliver`)).status, 409, 'a skipped delivery is not released');
});

test('svc routine target remove says how many waiting deliveries it skipped', async () => {
  const { t } = env;
  const routine = await newRoutine(t, { name: 'removed from the CLI' });
  const target = await addTarget(t, routine, { channel: 'webhook', target: `http://127.0.0.1:${await freePort()}/hook`, mode: 'review' });
  await deliveriesWhen(t, await runRoutine(t, routine), (d) => d.state === 'awaiting_review');
  const out = await runCliInProcess(['routine', 'target', 'remove', String(routine), String(target.id), '--yes'], { env: t.dirs.env });
  assert.equal([out.code, out.stdout.trim()], [0, `Destination ${target.id} removed. 1 delivery still waiting for it was skipped.`], out.stderr);
});

test('a delivery whose destination was removed after it failed: the finding says so (not the email settings recipient) and points to skip, not retry', async () => {
  const { t } = env;
  const routine = await newRoutine(t, { name: 'removed later' });
  const target = await addTarget(t, routine, { channel: 'webhook', target: `http://127.0.0.1:${await freePort()}/hook` });
  const exec = await runRoutine(t, routine);
  const [failed] = await deliveriesWhen(t, exec, (d) => d.state === 'failed', 'webhook to a closed port fails');
  const removed = await t.request('DELETE', `/api/routines/${routine}/delivery-targets/${target.id}`);
  assert.equal([removed.status, removed.json().deliveries_skipped], [200, 0], 'a failed delivery is left as it ended');
  const w = (await t.request('GET', '/api/watchdog')).json();
  const f = w.findings.find((x: any) => x.check === 'deliveries_failing' && x.evidence.latest_delivery_id === failed.id);
  assert.ok(f, JSON.stringify(w.findings));
  assert.match(f.title, /to a removed webhook destination failed for good/);
  assert.not.match(f.title + f.what_to_do, /email settings|deliveries retry/);
  assert.ok(f.what_to_do.includes(`svc deliveries skip ${failed.id} --yes`), f.what_to_do);
  const shown = await runCliInProcess(['deliveries', 'show', String(failed.id)], { env: t.dirs.env });
  assert.not.match(shown.stdout, /deliveries retry/, 'retry would fail it again');
});

test.run();
