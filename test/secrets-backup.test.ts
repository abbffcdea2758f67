/**
 * Security audit: a backup bundle (local, and the one a cloud backup uploads)
 * never holds a secret. Credentials live outside the database; the one secret
 * the database keeps, a webhook destination's signing secret, is left out of
 * the bundle's copy, and a restore gives each webhook destination a new one.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { restart } from './_admin.js';
import { addTarget, newRoutine } from './_delivery.js';
import { startTestServer, type TestServer } from './_setup.js';

const CREDENTIAL = 'sk-bundle-AUDIT-5c1e2d3f4a';
let t: TestServer;
let routineId: number;
let targetId: number;
let webhookSecret: string;
let bundle: string;

test.before(async () => {
  t = await startTestServer();
  t.ctx.credentials.set('openai_api_key', CREDENTIAL);
  routineId = await newRoutine(t);
  targetId = (await addTarget(t, routineId, { channel: 'webhook', target: 'https://hooks.example.org/svc' })).id;
  await addTarget(t, routineId, { channel: 'email', target: 'me@example.org' });
  webhookSecret = (t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE id = ?').get(targetId) as { secret: string }).secret;
});
test.after(() => t.close());

test('a backup bundle holds no webhook secret and no credential, yet keeps the destination', async () => {
  assert.match(webhookSecret, /^[0-9a-f]{64}$/);
  const r = await t.request('POST', '/api/backup', { body: {} });
  assert.is(r.status, 201, r.text);
  bundle = r.json().path;
  const bytes = fs.readFileSync(bundle);
  assert.is(bytes.indexOf(webhookSecret), -1, 'the webhook secret is in the bundle');
  assert.is(bytes.indexOf(webhookSecret.slice(0, 24)), -1, 'part of the webhook secret is in the bundle');
  assert.is(bytes.indexOf(CREDENTIAL), -1, 'a credential is in the bundle');
  assert.ok(bytes.indexOf('https://hooks.example.org/svc') !== -1, 'the destination itself is kept');
  // The live database keeps its secret: only the bundle's copy is scrubbed.
  const live = t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE id = ?').get(targetId) as { secret: string };
  assert.is(live.secret, webhookSecret);
  const verify = (await t.request('POST', '/api/backup/verify', { body: { path: bundle } })).json();
  assert.ok(verify.restore_would_not.some((s: string) => /webhook/.test(s)), 'verify says webhook secrets are not restored');
});

test('a restore gives every webhook destination a fresh secret (the old one never travelled)', async () => {
  const staged = await t.request('POST', '/api/restore', { body: { path: bundle, confirm: 'restore', vault_parent: '' } });
  assert.is(staged.status, 202, staged.text);
  const again = await restart(t);
  try {
    const rows = again.ctx.db.prepare('SELECT id, channel, secret FROM delivery_targets ORDER BY id').all() as { id: number; channel: string; secret: string | null }[];
    const webhook = rows.find((r) => r.id === targetId)!;
    assert.match(String(webhook.secret), /^[0-9a-f]{64}$/, 'the restored webhook destination signs again');
    assert.is.not(webhook.secret, webhookSecret);
    assert.ok(rows.filter((r) => r.channel !== 'webhook').every((r) => r.secret === null), 'other channels have no secret');
    const list = await again.request('GET', `/api/routines/${routineId}/delivery-targets`);
    assert.ok(list.json().targets.find((x: any) => x.id === targetId).signed);
    assert.not.ok(list.text.includes(String(webhook.secret)));
  } finally {
    await again.server.close();
  }
});

test.run();
