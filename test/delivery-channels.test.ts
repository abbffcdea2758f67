import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, rawRequest } from './_setup.js';
import { addTarget, deliveriesWhen, deliveryServer, newRoutine, runRoutine, startSmtp, startWebhook, type DeliveryEnv, type SmtpPeer, type WebhookPeer } from './_delivery.js';

let env: DeliveryEnv;
let smtp: SmtpPeer;
let hook: WebhookPeer;
let failSmtp = false;
const ADDRESS = 'reader-zq7@example.org';

test.before(async () => {
  env = await deliveryServer();
  smtp = await startSmtp({ reject: () => failSmtp });
  hook = await startWebhook();
  const r = await env.t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host: '127.0.0.1', smtp_port: smtp.port, from_address: 'svc@example.org', to_address: 'default-zq8@example.org' } } });
  assert.is(r.status, 200);
});
test.after(async () => {
  await env.close();
  await smtp.close();
  await hook.close();
});

const secretOf = (targetId: number) => env.t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE id = ?').pluck().get(targetId) as string;

test('email: the digest reaches a real SMTP server; subject, recipient, links, attachment; summary follows', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'mail watch' });
  const target = await addTarget(t, routine, { channel: 'email', target: ADDRESS });
  const before = smtp.messages.length;
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  assert.equal([d.channel, d.target_id, d.attempts, d.last_error, d.routine_id], ['email', target.id, 1, null, routine]);
  assert.is(smtp.messages.length, before + 1);
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(smtp.messages[smtp.messages.length - 1]!.raw);
  assert.match(mail.subject ?? '', /mail watch: \d+ new papers? \(run \d+\)/);
  assert.equal((mail.to as any).value.map((v: any) => v.address), [ADDRESS]);
  assert.match(mail.text ?? '', /https?:\/\/\S+/);
  assert.match(String(mail.html), /<a href="https?:\/\//);
  assert.match(mail.messageId ?? '', new RegExp(`^<svc-delivery-${d.id}-[0-9a-f]{16}@svc\\.localhost>$`));
  assert.is(mail.attachments.length, 1);
  assert.match(mail.attachments[0]!.content.toString('utf8'), /svc report: execution/);
  const summary = (await t.request('GET', `/api/routines/${routine}`)).json().delivery_summary;
  assert.equal([summary.last_state, summary.last_channel, summary.last_attempts, summary.last_error, summary.target_id], ['delivered', 'email', 1, null, target.id]);
  assert.ok(summary.last_delivered_at_utc);
});

test('email: an empty target uses the settings recipient; a refusing server fails with <address>, never the address, retried with backoff', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'mail default' });
  await addTarget(t, routine, { channel: 'email' });
  let exec = await runRoutine(t, routine);
  await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  assert.equal(smtp.messages[smtp.messages.length - 1]!.to, ['default-zq8@example.org']);
  failSmtp = true;
  try {
    exec = await runRoutine(t, routine);
    const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'failed', 'email failure');
    assert.is(d.attempts, 3, 'three attempts: backoff of two delays, then failed');
    assert.match(d.last_error, /<address>/);
    assert.match(d.last_error, /SMTP 550/);
    assert.not.ok(/zq8|example\.org|127\.0\.0\.1/.test(d.last_error));
    const attempts = t.ctx.db.prepare('SELECT outcome, error FROM delivery_attempts WHERE delivery_id = ? ORDER BY seq').all(d.id) as any[];
    assert.equal(attempts.map((a) => a.outcome), ['failed', 'failed', 'failed']);
    // retry restarts the sequence; it fails again while the server refuses
    failSmtp = false;
    const r = await t.request('POST', `/api/deliveries/${d.id}/retry`);
    assert.is(r.status, 202);
    assert.equal([r.json().state, r.json().attempts], ['queued', 0]);
    const [after] = await deliveriesWhen(t, exec, (x) => x.state === 'delivered', 'retried email');
    assert.is(after.attempts, 1);
    assert.is(after.last_error, null);
  } finally {
    failSmtp = false;
  }
});

test('email test route sends with the stored settings; an unconfigured server is refused without naming anything', async () => {
  const t = env.t;
  const r = await t.request('POST', '/api/settings/email/test');
  assert.is(r.status, 200, r.text);
  assert.is(r.json().sent, true);
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(smtp.messages[smtp.messages.length - 1]!.raw);
  assert.is(mail.subject, '[svc] test email');
  failSmtp = true;
  try {
    const bad = await t.request('POST', '/api/settings/email/test', { body: { to: 'other-zq9@example.org' } });
    assert.is(bad.status, 502);
    assert.is(bad.json().detail.reason, 'email_failed');
    assert.not.ok(bad.text.includes('zq9'));
  } finally {
    failSmtp = false;
  }
  // The recipient is one address: a list (or anything that is not an address) is 422, nothing sent, nothing echoed.
  const sent = smtp.messages.length;
  for (const to of ['a-zq10@example.org, b-zq10@example.org', 'a-zq10@example.org;b-zq10@example.org', 'not-an-address-zq10']) {
    const refused = await t.request('POST', '/api/settings/email/test', { body: { to } });
    assert.is(refused.status, 422, to);
    assert.equal(refused.json().detail[0].loc, ['body', 'to']);
    assert.not.ok(refused.text.includes('zq10'), to);
  }
  assert.is(smtp.messages.length, sent, 'no mail went out');
});

test('email with a login: the smtp_password credential is used, and a refused login names neither password nor address', async () => {
  const t = env.t;
  const PASSWORD = 'pw-zq-very-secret';
  const authed = await startSmtp({ auth: { user: 'svc-user', pass: PASSWORD } });
  const original = (await t.request('GET', '/api/settings/email')).json().settings;
  try {
    await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_port: authed.port, smtp_username: 'svc-user' } } });
    let r = await t.request('POST', '/api/settings/email/test');
    assert.equal([r.status, r.json().detail.reason], [409, 'email_not_configured']);
    assert.match(r.json().detail.message, /smtp_password/);
    assert.is((await t.request('PUT', '/api/credentials/smtp_password', { body: { value: PASSWORD } })).status < 300, true);
    r = await t.request('POST', '/api/settings/email/test');
    assert.is(r.status, 200, r.text);
    assert.is(authed.messages.length, 1);
    await t.request('PUT', '/api/credentials/smtp_password', { body: { value: 'wrong-zq-password' } });
    r = await t.request('POST', '/api/settings/email/test');
    assert.is(r.status, 502);
    // The line says what to do: the login name and the stored password, never their values.
    assert.match(r.json().detail.message, /refused the login \(EAUTH, SMTP 535\); check smtp_username and store the password again \(`svc credentials set smtp_password`\)\.$/);
    for (const needle of [PASSWORD, 'wrong-zq-password', 'default-zq8', 'svc-user']) {
      assert.not.ok(r.text.includes(needle), needle);
      assert.not.ok(t.logLines.join('\n').includes(needle), `log: ${needle}`);
    }
  } finally {
    await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_port: original.smtp_port, smtp_username: '' } } });
    await t.request('DELETE', '/api/credentials/smtp_password');
    await authed.close();
  }
});

test('email to a mail server nothing listens on: the error says which settings to check, and setting names survive the scrub', async () => {
  const t = env.t;
  const original = (await t.request('GET', '/api/settings/email')).json().settings;
  try {
    // A login name that is also a word of the hint: the hint must not be scrubbed into <address>.
    await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_port: await freePort(), smtp_username: 'email' } } });
    await t.request('PUT', '/api/credentials/smtp_password', { body: { value: 'pw-zq-closed' } });
    const r = await t.request('POST', '/api/settings/email/test');
    assert.is(r.status, 502, r.text);
    assert.match(r.json().detail.message, /^Email to <address> failed: .*\((ECONNECTION|ESOCKET|ECONNREFUSED)\); check smtp_host, smtp_port and smtp_secure \(`svc settings get email`\)\.$/);
    assert.not.ok(r.text.includes('pw-zq-closed'));
  } finally {
    await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_port: original.smtp_port, smtp_username: '' } } });
    await t.request('DELETE', '/api/credentials/smtp_password');
  }
});

test('webhook: signed envelope verified by the receiver; the signed bundle link opens without the token; tampered or expired links are 403', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'hook watch' });
  const target = await addTarget(t, routine, { channel: 'webhook', target: hook.url });
  const secret = secretOf(target.id);
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  const got = hook.received[hook.received.length - 1]!;
  const ts = got.headers['x-svc-timestamp'] as string;
  const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex');
  assert.is(got.headers['x-svc-signature'], expected);
  assert.is(got.headers['x-svc-delivery'], String(d.id));
  const envelope = JSON.parse(got.body);
  assert.equal([envelope.type, envelope.delivery_id, envelope.routine.id, envelope.execution.id], ['svc.delivery', d.id, routine, exec]);
  assert.type(envelope.counts.results, 'number');
  assert.ok(Array.isArray(envelope.new_papers));
  const link = new URL(envelope.bundle.url);
  assert.is(link.port, String(t.port));
  const open = (p: string, headers: Record<string, string> = {}) => rawRequest(t.port, { path: p, headers: { host: `127.0.0.1:${t.port}`, ...headers } });
  const ok = await open(link.pathname + link.search);
  assert.is(ok.status, 200, ok.text);
  assert.equal([ok.json().format, ok.json().delivery_id, ok.json().execution.id], ['svc-report-bundle', d.id, exec]);
  assert.match(ok.json().report_text, /svc report/);
  const sig = link.searchParams.get('signature')!;
  const exp = link.searchParams.get('expires')!;
  const flipped = sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  const refused = [
    `${link.pathname}`,
    `${link.pathname}?expires=${exp}`,
    `${link.pathname}?expires=${exp}&signature=${flipped}`,
    `${link.pathname}?expires=${Number(exp) + 60}&signature=${sig}`,
    `/api/deliveries/${d.id + 1000}/bundle?expires=${exp}&signature=${sig}`,
  ];
  for (const p of refused) {
    const r = await open(p);
    assert.is(r.status, 403, p);
    assert.is(r.json().detail.reason, 'signature_invalid');
  }
  // expired: a link signed more than 24 hours ago
  const { signDeliveryLink } = await import('../src/runtime/signing.js');
  const old = signDeliveryLink(secret, d.id, Math.floor(Date.now() / 1000) - 24 * 3600 - 5);
  assert.is((await open(`${link.pathname}?expires=${old.expires}&signature=${old.signature}`)).status, 403);
  // the token is no substitute, and no 401 is ever asked for
  const withToken = await open(link.pathname, { authorization: `Bearer ${t.token}` });
  assert.equal([withToken.status, withToken.json().detail.reason], [403, 'signature_invalid']);
  // the secret never appears in what the API answers
  for (const p of [`/api/routines/${routine}`, `/api/routines/${routine}/delivery-targets`, `/api/executions/${exec}/deliveries`, `/api/routines/${routine}/deliveries`]) {
    assert.not.ok((await t.request('GET', p)).text.includes(secret), p);
  }
});

test('webhook: a failing receiver gives the HTTP status only; a redirect is not followed; a hang times out with the exception class', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'hook failures' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url });
  try {
    for (const [status, pattern] of [[500, /^Webhook answered HTTP 500\.$/], ['redirect', /HTTP 302 \(redirects are not followed\)/], ['hang', /^Webhook request failed \((TimeoutError|AbortError)\)\.$/]] as const) {
      hook.status = status;
      const n = hook.received.length;
      const exec = await runRoutine(t, routine);
      const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'failed', `webhook ${status}`);
      assert.match(d.last_error, pattern);
      assert.not.ok(d.last_error.includes('127.0.0.1') || d.last_error.includes('svc-secret-path'));
      if (status === 'redirect') assert.is(hook.received.length, n + 3, 'no request followed the redirect');
    }
  } finally {
    hook.status = 200;
  }
});

test('a bundle link of a delivery that was not a webhook is 403 signature_invalid', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'folder only' });
  const dir = fs.mkdtempSync(path.join(t.dirs.root, 'out-'));
  await addTarget(t, routine, { channel: 'folder', target: dir });
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'delivered');
  const { signDeliveryLink } = await import('../src/runtime/signing.js');
  const link = signDeliveryLink('any-secret', d.id, Math.floor(Date.now() / 1000));
  const r = await rawRequest(t.port, { path: `/api/deliveries/${d.id}/bundle?expires=${link.expires}&signature=${link.signature}`, headers: { host: `127.0.0.1:${t.port}` } });
  assert.equal([r.status, r.json().detail.reason], [403, 'signature_invalid']);
});

test.run();
