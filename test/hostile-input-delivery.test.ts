/**
 * Hostile-input suite, delivery (see hostile-input.test.ts for the whole list): webhook
 * destinations that are not HTTP (file:, ftp:, gopher:, data:, javascript:, ws:, dict:) are
 * refused when written, and fail when a database already holds one (fetch speaks only HTTP); a receiver
 * that redirects (301, 302, 307, 308, to another host or to a file: URL beside svc) is not
 * followed; CR/LF with Bcc:/To: headers in a routine name, its query, a destination address,
 * the settings' addresses and the test-mail recipient never become headers or recipients of
 * the mail a real SMTP server on loopback receives. The canary beside svc's folders is
 * checked after each attack.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addTarget, deliveriesWhen, deliveryServer, newRoutine, runRoutine, startSmtp, startWebhook, type DeliveryEnv, type SmtpPeer, type WebhookPeer } from './_delivery.js';
import { plantCanary, type Canary } from './_hostile.js';

const ADDRESS = 'reader-hostile@example.org';
const INJECTED = 'evil-hostile@example.org';

let env: DeliveryEnv;
let smtp: SmtpPeer;
let hook: WebhookPeer;
let canary: Canary;
/** A second receiver on another host name: a followed redirect would reach it. */
let elsewhere: { url: string; hits: string[]; close(): Promise<void> };

test.before(async () => {
  env = await deliveryServer();
  smtp = await startSmtp();
  hook = await startWebhook();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200).end('followed');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  elsewhere = { url: `http://localhost:${(server.address() as AddressInfo).port}`, hits, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
  const r = await env.t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host: '127.0.0.1', smtp_port: smtp.port, from_address: 'svc@example.org', to_address: 'default-hostile@example.org' } } });
  assert.is(r.status, 200, r.text);
  canary = plantCanary(env.t.dirs.root);
});
test.after(async () => {
  await env.close();
  await smtp.close();
  await hook.close();
  await elsewhere.close();
});
test.after.each(() => canary.check());

const NON_HTTP = [
  'file:///etc/passwd',
  'ftp://files.example.org/drop',
  'gopher://127.0.0.1:70/_HELO',
  'data:text/plain,hello',
  'javascript:alert(1)',
  'ws://127.0.0.1:9/socket',
  'dict://127.0.0.1:11211/stat',
];

test('non-HTTP webhook destinations are refused on create and on update (422 at body.target, the URL never echoed)', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'schemes' });
  const good = await addTarget(t, routine, { channel: 'webhook', target: hook.url });
  for (const target of [...NON_HTTP, `file://${canary.dir}/thesis.tex`]) {
    const created = await t.request('POST', `/api/routines/${routine}/delivery-targets`, { body: { channel: 'webhook', target } });
    assert.is(created.status, 422, target);
    assert.equal(created.json().detail[0].loc, ['body', 'target']);
    assert.not.ok(created.text.includes(target), `the destination is not echoed: ${created.text}`);
    const updated = await t.request('PUT', `/api/routines/${routine}/delivery-targets/${good.id}`, { body: { target } });
    assert.is(updated.status, 422, target);
  }
  const targets = (await t.request('GET', `/api/routines/${routine}/delivery-targets`)).json().targets;
  assert.equal(targets.map((x: any) => x.target), [hook.url], 'only the HTTP destination exists, unchanged');
});

test('a file: destination already in the database (a restored or older one) fails; nothing of the file reaches svc\'s records', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'planted scheme' });
  const target = await addTarget(t, routine, { channel: 'webhook', target: hook.url });
  t.ctx.db.prepare('UPDATE delivery_targets SET target = ? WHERE id = ?').run(`file://${canary.dir}/thesis.tex`, target.id);
  const received = hook.received.length;
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'failed', 'the file: delivery to fail');
  assert.match(d.last_error, /^Webhook request failed \(\w+\)\.$/);
  const records = (await t.request('GET', `/api/executions/${exec}/deliveries`)).text + (await t.request('GET', `/api/routines/${routine}`)).text;
  assert.not.ok(records.includes(canary.dir) || records.includes('years of work'), 'neither the path nor the file\'s words');
  assert.is(hook.received.length, received);
});

/** The header block of a raw message, unfolded, one header a line. */
const headerLines = (raw: Buffer) => raw.toString('utf8').split(/\r\n\r\n/)[0]!.replace(/\r\n[ \t]+/g, ' ').split('\r\n');

test('CR/LF and Bcc:/To: headers in a routine name and its query never become headers or recipients of the delivered mail', async () => {
  const t = env.t;
  const name = `Reef watch\r\nBcc: ${INJECTED}\r\nTo: ${INJECTED}\nX-Injected: yes\r\n\r\nforged body`;
  const routine = await newRoutine(t, { name, parameters: { repositories: ['crossref'], query: `ecology\r\nBcc: ${INJECTED}`, max_results: 2, window_days: 7 } });
  await addTarget(t, routine, { channel: 'email', target: ADDRESS });
  const before = smtp.messages.length;
  const exec = await runRoutine(t, routine);
  await deliveriesWhen(t, exec, (x) => x.state === 'delivered', 'the mail to be delivered');
  assert.is(smtp.messages.length, before + 1, 'one message');
  const message = smtp.messages[smtp.messages.length - 1]!;
  assert.equal(message.to, [ADDRESS], 'the envelope has the one recipient');
  const lines = headerLines(message.raw);
  const names = lines.map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
  assert.not.ok(names.includes('bcc') || names.includes('x-injected'), `no injected header: ${names.join(', ')}`);
  assert.is(names.filter((n) => n === 'to').length, 1);
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(message.raw);
  assert.equal((mail.to as any).value.map((v: any) => v.address), [ADDRESS]);
  assert.is(mail.bcc, undefined);
  assert.match(mail.subject ?? '', /^\[svc\] Reef watch\s+Bcc: evil-hostile@example\.org\s+To: /, 'the name stays inside the subject, on one line');
  assert.not.ok((mail.subject ?? '').includes('\n'));
});

test('CR/LF in a destination address, the email settings and the test-mail recipient is refused (422); nothing is sent', async () => {
  const t = env.t;
  const before = smtp.messages.length;
  const routine = await newRoutine(t, { name: 'address injection' });
  for (const target of [`${ADDRESS}\r\nBcc: ${INJECTED}`, `${ADDRESS}\nBcc: ${INJECTED}`, `${ADDRESS}, ${INJECTED}`]) {
    const r = await t.request('POST', `/api/routines/${routine}/delivery-targets`, { body: { channel: 'email', target } });
    assert.is(r.status, 422, JSON.stringify(target));
    assert.not.ok(r.text.includes(INJECTED), 'the address is not echoed');
  }
  for (const key of ['to_address', 'from_address']) {
    const r = await t.request('PUT', '/api/settings/email', { body: { settings: { [key]: `${ADDRESS}\r\nBcc: ${INJECTED}` } } });
    assert.is(r.status, 422, `${key}: ${r.text}`);
  }
  const settings = (await t.request('GET', '/api/settings/email')).json();
  assert.not.ok(JSON.stringify(settings).includes(INJECTED), 'the settings are unchanged');
  const mail = await t.request('POST', '/api/settings/email/test', { body: { to: `${ADDRESS}\r\nBcc: ${INJECTED}` } });
  assert.is(mail.status, 422, mail.text);
  assert.is(smtp.messages.length, before, 'nothing was sent');
});

test('a receiver that redirects (301, 302, 307, 308; to another host or to a file: URL) is not followed; the delivery fails saying so', async () => {
  const t = env.t;
  const answer = { status: 301, location: '' };
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    req.resume().on('end', () => res.writeHead(answer.status, { location: answer.location }).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const routine = await newRoutine(t, { name: 'redirects' });
    await addTarget(t, routine, { channel: 'webhook', target: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
    const locations = [`${elsewhere.url}/caught`, `file://${canary.dir}/thesis.tex`];
    for (const [i, status] of [301, 302, 307, 308].entries()) {
      Object.assign(answer, { status, location: locations[i % 2]! });
      const before = hits.length;
      const exec = await runRoutine(t, routine);
      const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'failed', `the ${status} delivery to fail`);
      assert.is(d.last_error, `Webhook answered HTTP ${status} (redirects are not followed).`);
      assert.equal(hits.slice(before), Array(d.attempts).fill('POST /hook'), 'each attempt reached the receiver once, nothing more');
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
  assert.equal(elsewhere.hits, [], 'no request followed a redirect to the other host');
});

test.run();
