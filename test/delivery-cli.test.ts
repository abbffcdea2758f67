import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { deliveryTuning } from '../src/delivery/tuning.js';
import { fixture } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { startStub } from './_stub.js';
import { addTarget, deliveriesWhen, deliveryServer, newRoutine, runRoutine, startSmtp, startWebhook, type DeliveryEnv, type WebhookPeer } from './_delivery.js';

let env: DeliveryEnv;
let hook: WebhookPeer;
let cliEnv: Record<string, string>;

test.before(async () => {
  env = await deliveryServer();
  // The server's worker waits a minute between looks: the CLI makes the attempts in these tests.
  deliveryTuning(env.t.ctx).pollMs = 60_000;
  hook = await startWebhook();
  cliEnv = env.t.dirs.env;
});
test.after(async () => {
  await env.close();
  await hook.close();
});

const cli = (args: string[]) => runCliInProcess(args, { env: cliEnv });

test('svc routine target add | list | edit | secret | remove, with --json and usage errors', async () => {
  const routine = await newRoutine(env.t, { name: 'cli targets' });
  const dir = fs.mkdtempSync(path.join(env.t.dirs.root, 'cli-'));
  let r = await cli(['--json', 'routine', 'target', 'add', String(routine), '--channel', 'folder', '--target', dir, '--mode', 'review']);
  assert.is(r.code, 0, r.stderr);
  const folder = JSON.parse(r.stdout);
  assert.equal([folder.channel, folder.mode, folder.enabled, folder.target], ['folder', 'review', true, dir]);
  r = await runCliInProcess(['--json', 'routine', 'target', 'add', String(routine), '--channel', 'webhook', '--target', '-'], { env: cliEnv, stdin: hook.url + '\n' });
  const webhook = JSON.parse(r.stdout);
  assert.equal([webhook.signed, webhook.target], [true, hook.url]);
  r = await cli(['--json', 'routine', 'target', 'list', String(routine)]);
  assert.equal(JSON.parse(r.stdout).targets.map((t: any) => t.id), [folder.id, webhook.id]);
  r = await cli(['routine', 'target', 'list', String(routine)]);
  assert.match(r.stdout, /CHANNEL/);
  r = await cli(['--json', 'routine', 'target', 'edit', String(routine), String(folder.id), '--disable', '--mode', 'automatic']);
  assert.equal([JSON.parse(r.stdout).enabled, JSON.parse(r.stdout).mode], [false, 'automatic']);
  r = await cli(['routine', 'target', 'secret', String(routine), String(webhook.id)]);
  assert.is(r.stdout.trim(), env.t.ctx.db.prepare('SELECT secret FROM delivery_targets WHERE id = ?').pluck().get(webhook.id));
  assert.is((await cli(['routine', 'target', 'secret', String(routine), String(folder.id)])).code, 2);
  // usage and refusals
  assert.is((await cli(['routine', 'target', 'add', String(routine), '--channel', 'pigeon'])).code, 2);
  assert.is((await cli(['routine', 'target', 'add', String(routine), '--channel', 'folder', '--target', 'relative'])).code, 2);
  // The command line names the path typed, as --target; the HTTP answer keeps the spec's placeholder and input null.
  const missing = path.join(dir, 'not', 'there');
  r = await cli(['routine', 'target', 'add', String(routine), '--channel', 'folder', '--target', missing]);
  assert.is(r.code, 2);
  assert.is(r.stderr.trim(), `svc: --target: "${missing}" does not exist; create the directory first`);
  r = await cli(['routine', 'target', 'edit', String(routine), String(folder.id), '--target', missing]);
  assert.is(r.stderr.trim(), `svc: --target: "${missing}" does not exist; create the directory first`);
  const http = await env.t.request('POST', `/api/routines/${routine}/delivery-targets`, { body: { channel: 'folder', target: missing } });
  assert.is(http.status, 422);
  assert.equal([http.json().detail[0].msg, http.json().detail[0].input], ['<target> does not exist; create the directory first', null]);
  assert.not.ok(http.text.includes(missing));
  assert.is((await cli(['routine', 'target', 'edit', String(routine), String(folder.id), '--enable', '--disable'])).code, 2);
  assert.is((await cli(['routine', 'target', 'list', '99999'])).code, 3);
  r = await cli(['--json', 'routine', 'target', 'add', String(routine), '--channel', 'email', '--target', 'bad-zq']);
  assert.is(r.code, 2);
  assert.not.ok(r.stdout.includes('bad-zq') || r.stderr.includes('bad-zq'));
  assert.is((await cli(['routine', 'target', 'remove', String(routine), String(folder.id)])).code, 2, 'needs --yes off a terminal');
  r = await cli(['--json', 'routine', 'target', 'remove', String(routine), String(folder.id), '--yes']);
  assert.equal([r.code, JSON.parse(r.stdout).deleted], [0, true]);
  assert.is((await cli(['routine', 'target', 'remove', String(routine), String(folder.id), '--yes'])).code, 3);
});

test('svc deliveries list | show | release | retry | skip; exit 1 when a delivery fails', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'cli deliveries' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url, mode: 'review' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url, mode: 'review' });
  const exec = await runRoutine(t, routine);
  const [a, b] = await deliveriesWhen(t, exec, (x) => x.state === 'awaiting_review');
  let r = await cli(['--json', 'deliveries', 'list', '--routine', String(routine)]);
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).deliveries.map((d: any) => d.id).sort(), [a.id, b.id].sort());
  r = await cli(['--json', 'deliver', 'list', '--exec', String(exec), '--state', 'awaiting_review']);
  assert.is(JSON.parse(r.stdout).deliveries.length, 2);
  assert.is((await cli(['deliveries', 'list', '--routine', '1', '--exec', '1'])).code, 2);
  assert.is((await cli(['deliveries', 'list', '--state', 'lost'])).code, 2);

  hook.status = 500;
  try {
    r = await cli(['--json', 'deliveries', 'release', String(a.id)]);
    assert.is(r.code, 1, 'a failed attempt exits 1');
    const failed = JSON.parse(r.stdout);
    assert.equal([failed.state, failed.attempts, failed.last_error], ['queued', 1, 'Webhook answered HTTP 500.']);
    // The list says when the retry comes.
    const next = failed.next_attempt_at_utc.slice(0, 16).replace('T', ' ');
    assert.match((await cli(['deliveries', 'list', '--exec', String(exec)])).stdout, new RegExp(`${a.id}\\s+queued\\s+webhook.*1/\\d+\\s+${next}\\s+Webhook answered HTTP 500`));
    // show says it in one sentence: the error without its own full stop, then when the next attempt comes.
    assert.is((await cli(['deliveries', 'show', String(a.id)])).stdout.split('\n')[0], `Delivery ${a.id} (webhook) is queued after 1 attempt: Webhook answered HTTP 500; next attempt ${next} UTC.`);
  } finally {
    hook.status = 200;
  }
  // a queued delivery cannot be retried (only a failed one), but it can be skipped
  const early = await cli(['deliveries', 'retry', String(a.id)]);
  assert.is(early.code, 4);
  assert.match(early.stderr, /Delivery \d+ is queued \(its next attempt, 2 of \d+, is due \d{4}-\d\d-\d\d \d\d:\d\d UTC, made by a running svc server or daemon\); only a delivery that is failed can be retried/);
  r = await cli(['--json', 'deliveries', 'release', String(b.id)]);
  assert.is(r.code, 0, r.stderr);
  assert.equal([JSON.parse(r.stdout).state, JSON.parse(r.stdout).attempts], ['delivered', 1]);
  assert.is((await cli(['deliveries', 'release', String(b.id)])).code, 4, 'already delivered');
  r = await cli(['--json', 'deliveries', 'show', String(a.id)]);
  const shown = JSON.parse(r.stdout);
  assert.equal(shown.attempt_log.map((x: any) => x.outcome), ['failed']);
  assert.not.ok(r.stdout.includes(hook.url) || r.stdout.includes('svc-secret-path'));
  // failed → retry: exit 0 once it arrives
  t.ctx.db.prepare("UPDATE deliveries SET state = 'failed' WHERE id = ?").run(a.id);
  r = await cli(['--json', 'deliveries', 'retry', String(a.id)]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.is(JSON.parse(r.stdout).state, 'delivered');
  t.ctx.db.prepare("UPDATE deliveries SET state = 'failed', next_attempt_at_utc = NULL, last_error = 'Webhook answered HTTP 500.' WHERE id = ?").run(b.id);
  assert.is((await cli(['deliveries', 'show', String(b.id)])).stdout.split('\n')[0], `Delivery ${b.id} (webhook) is failed after 1 attempt: Webhook answered HTTP 500. \`svc deliveries retry ${b.id}\` tries again.`);
  assert.is((await cli(['deliveries', 'skip', String(a.id), '--yes'])).code, 4);
  assert.is((await cli(['deliveries', 'show', '99999'])).code, 3);
  r = await cli(['deliveries', 'list', '--exec', String(exec)]);
  assert.match(r.stdout, /delivered/);
  // The column holds the destination id (`svc routine target list`), named as the other commands name it.
  assert.match(r.stdout, /ID\s+STATE\s+CHANNEL\s+ROUTINE\s+RUN\s+DESTINATION\s+ATTEMPTS/);
});

test('a foreground svc routine run delivers in its own process (no server needed)', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'foreground' });
  const dir = fs.mkdtempSync(path.join(t.dirs.root, 'fg-'));
  await addTarget(t, routine, { channel: 'folder', target: dir });
  const r = await runCliInProcess(['--json', 'routine', 'run', String(routine)], { env: { ...cliEnv, SVC_SOURCE_CROSSREF_URL: env.crossref.url } });
  assert.is(r.code, 0, r.stderr);
  const rows = t.ctx.db.prepare('SELECT state, attempts FROM deliveries WHERE routine_id = ?').all(routine) as any[];
  assert.equal(rows, [{ state: 'delivered', attempts: 1 }]);
  assert.is(fs.readdirSync(dir).length, 1);
});

test('svc routine run says where the report went (each delivery, its destination and outcome); routine show lists the destinations', async () => {
  const t = env.t;
  const runEnv = { ...cliEnv, SVC_SOURCE_CROSSREF_URL: env.crossref.url };
  const routine = await newRoutine(t, { name: 'says where' });
  const dir = fs.mkdtempSync(path.join(t.dirs.root, 'fg-says-'));
  const folder = await addTarget(t, routine, { channel: 'folder', target: dir });
  const review = await addTarget(t, routine, { channel: 'webhook', target: hook.url, mode: 'review' });
  let r = await runCliInProcess(['routine', 'run', String(routine)], { env: runEnv });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`^Execution \\d+: routine ${routine} "says where" \\(query "ecology"\\)$`, 'm'), `the run is named by its routine too: ${r.stderr}`);
  assert.match(r.stdout, new RegExp(`Deliveries:\\n  delivery \\d+  folder to destination ${folder.id}: delivered \\d{4}-`));
  assert.match(r.stdout, new RegExp(`  delivery (\\d+)  webhook to destination ${review.id}: awaiting review: sent only after \`svc deliveries release \\d+\``));
  r = await runCliInProcess(['--json', 'routine', 'run', String(routine)], { env: runEnv });
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.deliveries.map((d: any) => [d.target_id, d.state]), [[folder.id, 'delivered'], [review.id, 'awaiting_review']]);
  // show names where the delivery went: the folder, to its owner on their own terminal.
  assert.is((await cli(['deliveries', 'show', String(doc.deliveries[0].id)])).stdout.split('\n')[1], `Routine ${routine}, run ${doc.id}, destination ${folder.id} (folder ${dir}), mode automatic.`);

  r = await cli(['routine', 'show', String(routine)]);
  assert.match(r.stdout, new RegExp(`delivers to\\n    ${folder.id}  folder  ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  automatic\\n    ${review.id}  webhook  `));
  assert.equal(JSON.parse((await cli(['--json', 'routine', 'show', String(routine)])).stdout).delivery_targets.map((x: any) => x.id), [folder.id, review.id]);
  // show also says what became of the last run's report, and what waits for review from earlier runs.
  assert.match(r.stdout, new RegExp(`  report of run ${doc.id}\\n    delivery \\d+  folder to destination ${folder.id}: delivered .*\\n    delivery (\\d+)  webhook to destination ${review.id}: awaiting review: sent only after \`svc deliveries release \\d+\``));
  assert.match(r.stdout, new RegExp(`  awaiting review  2 deliveries in all \\(\`svc deliveries list --routine ${routine} --state awaiting_review\`\\)`));

  const bare = await newRoutine(t, { name: 'goes nowhere' });
  r = await runCliInProcess(['routine', 'run', String(bare)], { env: runEnv });
  assert.match(r.stdout, new RegExp(`Deliveries: none \\(routine ${bare} has no delivery destination; add one with \`svc routine target add ${bare}\`\\)`));
  assert.match((await cli(['routine', 'show', String(bare)])).stdout, /delivers to\n    none/);
});

test('a routine deleted while svc routine run runs it: the run still ends with its summary, and says its report went nowhere', async () => {
  const t = env.t;
  const slow = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), delayMs: 1500, times: Infinity }]);
  // The CLI's run has asked the (slow) source: its execution row is there, still running.
  const runStarted = async (routineId: number) => {
    const asked = () => t.ctx.db.prepare(`SELECT 1 FROM executions WHERE routine_id = ? AND status = 'running'`).get(routineId) !== undefined && slow.requests.length > 0;
    for (let i = 0; i < 200 && !asked(); i++) await new Promise((r) => setTimeout(r, 25));
    slow.requests.length = 0;
  };
  try {
    const routine = await newRoutine(t, { name: 'deleted mid-run' });
    await addTarget(t, routine, { channel: 'folder', target: fs.mkdtempSync(path.join(t.dirs.root, 'fg-gone-')) });
    const running = runCliInProcess(['--json', 'routine', 'run', String(routine)], { env: { ...cliEnv, SVC_SOURCE_CROSSREF_URL: slow.url } });
    await runStarted(routine);
    assert.is((await t.request('DELETE', `/api/routines/${routine}`)).status, 200);
    const r = await running;
    assert.is(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal([doc.status, doc.deliveries], ['completed', []]);
    const routine2 = await newRoutine(t, { name: 'deleted mid-run, text' });
    const text = runCliInProcess(['routine', 'run', String(routine2)], { env: { ...cliEnv, SVC_SOURCE_CROSSREF_URL: slow.url } });
    await runStarted(routine2);
    assert.is((await t.request('DELETE', `/api/routines/${routine2}`)).status, 200);
    const shown = await text;
    assert.is(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, new RegExp(`^Execution \\d+ completed: .*\\nDeliveries: none \\(routine ${routine2} was deleted during the run; its report goes nowhere\\)\\.\\n?$`, 's'));
  } finally {
    await slow.close();
  }
});

test('a foreground svc routine run whose delivery fails exits 1 and names the delivery (its JSON stays one document)', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'foreground failing' });
  const dir = fs.mkdtempSync(path.join(t.dirs.root, 'fg-fail-'));
  await addTarget(t, routine, { channel: 'folder', target: dir });
  fs.rmSync(dir, { recursive: true });
  const r = await runCliInProcess(['--json', 'routine', 'run', String(routine)], { env: { ...cliEnv, SVC_SOURCE_CROSSREF_URL: env.crossref.url } });
  assert.is(r.code, 1, r.stderr);
  assert.is(JSON.parse(r.stdout).status, 'completed', 'the run itself completed');
  assert.match(r.stderr, /Delivery \d+ \(folder\) failed/);
  assert.not.match(r.stderr, new RegExp(dir), 'the directory is not named');
  const text = await runCliInProcess(['routine', 'run', String(routine)], { env: { ...cliEnv, SVC_SOURCE_CROSSREF_URL: env.crossref.url } });
  assert.match(text.stdout, /Deliveries:\n  delivery \d+  folder to destination \d+: not delivered yet \(1 attempt of \d+\): .*<target>.*; a running svc server or daemon tries again at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  assert.not.match(text.stdout, /\.;/, 'the error loses its full stop inside the line');
  assert.not.match(text.stdout, new RegExp(dir), 'the directory is not named');
});

test('adding an email destination says at once what the email settings lack; routine show says it under the destination', async () => {
  const routine = await newRoutine(env.t, { name: 'mail me' });
  const r = await cli(['routine', 'target', 'add', String(routine), '--channel', 'email']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /Note: email cannot be sent yet: the email settings lack a mail server \(`svc settings set email smtp_host HOST`\), a sender .*, a recipient \(this destination names none/);
  const named = await cli(['routine', 'target', 'add', String(routine), '--channel', 'email', '--target', 'reader@example.org']);
  assert.not.match(named.stderr, /a recipient/, 'a destination with its own address needs no recipient setting');
  assert.match((await cli(['routine', 'show', String(routine)])).stdout, /email  \(email settings recipient\)  automatic\n      \(email cannot be sent yet: /);
  const folder = await cli(['routine', 'target', 'add', String(routine), '--channel', 'folder', '--target', fs.mkdtempSync(path.join(env.t.dirs.root, 'quiet-'))]);
  assert.is(folder.stderr, '', 'nothing to say for a folder');
});

test('svc deliveries skip and email-test', async () => {
  const t = env.t;
  const routine = await newRoutine(t, { name: 'cli skip' });
  await addTarget(t, routine, { channel: 'webhook', target: hook.url, mode: 'review' });
  const exec = await runRoutine(t, routine);
  const [d] = await deliveriesWhen(t, exec, (x) => x.state === 'awaiting_review');
  const unconfirmed = await cli(['deliveries', 'skip', String(d.id)]);
  assert.is(unconfirmed.code, 2);
  assert.match(unconfirmed.stderr, new RegExp(`Skip delivery ${d.id} \\(webhook, run ${exec}\\)\\?`), 'the question names what is skipped');
  const missing = await cli(['deliveries', 'skip', '999999']);
  assert.equal([missing.code, missing.stderr.trim()], [3, 'svc: No delivery 999999; `svc deliveries list` lists them.'], 'a wrong id is not found, not a question to confirm');
  const r = await cli(['--json', 'deliveries', 'skip', String(d.id), '--yes']);
  assert.equal([r.code, JSON.parse(r.stdout).state], [0, 'skipped']);
  const mail = await cli(['--json', 'deliveries', 'email-test']);
  assert.is(mail.code, 4, 'no mail server configured: a conflict with the settings, said as such');
  assert.match(JSON.parse(mail.stdout).message, /email settings/);
});

test('a test email says to whom it went: the settings recipient, or --to', async () => {
  const smtp = await startSmtp();
  try {
    const put = await env.t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host: '127.0.0.1', smtp_port: smtp.port, from_address: 'svc@example.org', to_address: 'reader-k4@example.org' } } });
    assert.is(put.status, 200, put.text);
    let r = await cli(['settings', 'email', 'test']);
    assert.equal([r.code, r.stdout.trim()], [0, 'Test email sent to reader-k4@example.org (the email settings recipient).'], r.stderr);
    r = await cli(['settings', 'email', 'test', '--to', 'other-k4@example.org']);
    assert.equal([r.code, r.stdout.trim()], [0, 'Test email sent to other-k4@example.org.'], r.stderr);
    assert.equal(smtp.messages.map((m) => m.to), [['reader-k4@example.org'], ['other-k4@example.org']]);
  } finally {
    await env.t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host: '', to_address: '', from_address: '' } } });
    await smtp.close();
  }
});

test.run();
