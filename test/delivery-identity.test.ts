/**
 * A delivery that reuses an old id (delivery ids are row ids: an erase of
 * executions or a restore of an older backup hands them out again) is still a
 * new delivery: a folder gets a new file, a feed a new entry, a mail a new
 * Message-ID and a webhook receiver a new delivery key. Before, the folder and
 * feed channels took the old report's file or entry for their own and marked
 * the new report delivered without writing it.
 * Also: a feed stays well-formed XML when a paper title carries characters XML
 * forbids.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { addTarget, deliveriesWhen, deliveryServer, newRoutine, runRoutine, startSmtp, startWebhook, type DeliveryEnv, type SmtpPeer, type WebhookPeer } from './_delivery.js';

let env: DeliveryEnv;
let smtp: SmtpPeer;
let hook: WebhookPeer;

test.before(async () => {
  env = await deliveryServer();
  smtp = await startSmtp();
  hook = await startWebhook();
  const r = await env.t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host: '127.0.0.1', smtp_port: smtp.port, from_address: 'svc@example.org' } } });
  assert.is(r.status, 200);
});
test.after(async () => {
  await env.close();
  await smtp.close();
  await hook.close();
});

const feedIds = (text: string) => [...text.matchAll(/<id>(urn:svc:delivery:[^<]+)<\/id>/g)].map((m) => m[1]);

test('a new delivery that reuses an old id (after erase-executions) is written, mailed and posted as new, never taken for the old one', async () => {
  const t = env.t;
  const folder = fs.mkdtempSync(path.join(t.dirs.root, 'reuse-folder-'));
  const feedDir = fs.mkdtempSync(path.join(t.dirs.root, 'reuse-feed-'));
  const routine = await newRoutine(t, { name: 'reuse watch' });
  const feedTarget = await addTarget(t, routine, { channel: 'feed', target: feedDir });
  await addTarget(t, routine, { channel: 'folder', target: folder });
  await addTarget(t, routine, { channel: 'email', target: 'reader-reuse@example.org' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url });

  const first = await runRoutine(t, routine);
  const before = await deliveriesWhen(t, first, (x) => x.state === 'delivered', 'first deliveries');
  const erase = await t.request('POST', '/api/admin/erase-executions', { body: { confirm: 'erase-executions' } });
  assert.is(erase.status, 200, erase.text);
  const second = await runRoutine(t, routine);
  const after = await deliveriesWhen(t, second, (x) => x.state === 'delivered', 'second deliveries');
  // The premise: the ids really are handed out again.
  assert.equal(after.map((d) => d.id), before.map((d) => d.id), 'delivery ids reused');
  assert.is(second, first, 'execution id reused');

  const files = fs.readdirSync(folder).sort();
  assert.is(files.length, 2, `a second report file, not the first one taken for it: ${files.join(', ')}`);
  const startedAt = (await t.request('GET', `/api/executions/${second}`)).json().started_at_utc;
  assert.ok(files.some((f) => JSON.parse(fs.readFileSync(path.join(folder, f), 'utf8')).execution.started_at_utc === startedAt), 'the new run is in the folder');

  const feed = fs.readFileSync(path.join(feedDir, `svc-feed-${feedTarget.id}.atom`), 'utf8');
  const ids = feedIds(feed);
  assert.is(ids.length, 2, `two feed entries: ${ids.join(', ')}`);
  assert.is(new Set(ids).size, 2, 'with distinct ids (a reader keeps entries by id)');

  const { simpleParser } = await import('mailparser');
  const mails = await Promise.all(smtp.messages.slice(-2).map((m) => simpleParser(m.raw)));
  assert.is(mails.length, 2);
  assert.is.not(mails[0]!.messageId, mails[1]!.messageId, 'distinct Message-IDs (a mail client drops a repeated one)');

  const posts = hook.received.slice(-2);
  assert.is(posts.length, 2);
  assert.is(posts[0]!.headers['x-svc-delivery'], posts[1]!.headers['x-svc-delivery']);
  const keys = posts.map((p) => p.headers['x-svc-delivery-key']);
  assert.match(String(keys[0]), /^[0-9a-f]{16}$/);
  assert.is.not(keys[0], keys[1], 'distinct delivery keys');
  assert.equal(posts.map((p) => JSON.parse(p.body).delivery_key), keys);
});

test('a second attempt of one delivery keeps its key: the folder and feed write it once, the mail repeats its Message-ID', async () => {
  const t = env.t;
  const { sendFolder } = await import('../src/delivery/channels/folder.js');
  const { sendFeed } = await import('../src/delivery/channels/feed.js');
  const { buildBundle } = await import('../src/delivery/bundle.js');
  const folder = fs.mkdtempSync(path.join(t.dirs.root, 'again-folder-'));
  const feedDir = fs.mkdtempSync(path.join(t.dirs.root, 'again-feed-'));
  const routine = await newRoutine(t, { name: 'again watch' });
  const folderTarget = await addTarget(t, routine, { channel: 'folder', target: folder });
  const feedTarget = await addTarget(t, routine, { channel: 'feed', target: feedDir });
  const exec = await runRoutine(t, routine);
  const list = await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  const row = (id: number) => t.ctx.db.prepare('SELECT * FROM deliveries WHERE id = ?').get(id) as any;
  const targetRow = (id: number) => t.ctx.db.prepare('SELECT * FROM delivery_targets WHERE id = ?').get(id) as any;
  for (const d of list) {
    const r = row(d.id);
    const target = targetRow(d.target_id);
    await (d.channel === 'folder' ? sendFolder : sendFeed)({ ctx: t.ctx, delivery: r, target, bundle: buildBundle(t.ctx, r), extra: [] });
  }
  assert.is(fs.readdirSync(folder).length, 1);
  assert.is(feedIds(fs.readFileSync(path.join(feedDir, `svc-feed-${feedTarget.id}.atom`), 'utf8')).length, 1);
  assert.ok(folderTarget.id);
});

test('feed: a rewrite keeps the permissions given to the feed file (a new feed is owner-only)', async () => {
  const t = env.t;
  const dir = fs.mkdtempSync(path.join(t.dirs.root, 'mode-feed-'));
  const routine = await newRoutine(t, { name: 'served feed' });
  const target = await addTarget(t, routine, { channel: 'feed', target: dir });
  const file = path.join(dir, `svc-feed-${target.id}.atom`);
  await deliveriesWhen(t, await runRoutine(t, routine), (x) => x.state === 'delivered');
  assert.is(fs.statSync(file).mode & 0o777, 0o600);
  fs.chmodSync(file, 0o644); // made readable for a local web server or another account's feed reader
  await deliveriesWhen(t, await runRoutine(t, routine), (x) => x.state === 'delivered');
  assert.is(feedIds(fs.readFileSync(file, 'utf8')).length, 2);
  assert.is(fs.statSync(file).mode & 0o777, 0o644, 'the rewrite kept the mode');
});

test('feed: a title carrying characters XML forbids still gives a well-formed feed (they are dropped)', async () => {
  const t = env.t;
  const { sendFeed } = await import('../src/delivery/channels/feed.js');
  const { buildBundle } = await import('../src/delivery/bundle.js');
  const dir = fs.mkdtempSync(path.join(t.dirs.root, 'xml-feed-'));
  const routine = await newRoutine(t, { name: 'xml\u0007 watch' });
  const target = await addTarget(t, routine, { channel: 'feed', target: dir });
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  const r = t.ctx.db.prepare('SELECT * FROM deliveries WHERE id = ?').get(d.id) as any;
  const bundle = buildBundle(t.ctx, r);
  const odd = { ...bundle.papers[0]!, title: 'Soil\u0001 carbon\u000b fluxes \ud800and\u0002 more', url: 'https://example.org/p?a=1&b=2', is_new: true };
  const file = path.join(dir, `svc-feed-${target.id}.atom`);
  fs.rmSync(file);
  await sendFeed({ ctx: t.ctx, delivery: { ...r, id: r.id + 50_000 }, target: t.ctx.db.prepare('SELECT * FROM delivery_targets WHERE id = ?').get(target.id) as any, bundle: { ...bundle, new_papers: [odd] }, extra: [] });
  const text = fs.readFileSync(file, 'utf8');
  // XML 1.0 Char: tab, newline, carriage return, U+0020 and up, no surrogates of their own, not U+FFFE/FFFF.
  assert.not.match(text, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ufffd]/, 'no character XML forbids (nor a replaced lone surrogate)');
  assert.match(text, /Soil carbon fluxes and more/);
  const { default: Parser } = await import('rss-parser');
  const feed = await new Parser().parseString(text);
  assert.is(feed.items.length, 1);
  assert.is(feed.title, 'svc: xml watch');
});

test.run();
