import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addTarget, deliveriesWhen, deliveryServer, newRoutine, runRoutine, startSmtp, type DeliveryEnv, type SmtpPeer } from './_delivery.js';
import { startSummaryModel, SUMMARY, type SummaryModel } from './_fake-model.js';

const KEY = 'sk-digest-test-key-0123456789';
const ADDRESS = 'reader-ai@example.org';

let env: DeliveryEnv;
let smtp: SmtpPeer;
let model: SummaryModel;

test.before(async () => {
  model = await startSummaryModel(KEY);
  env = await deliveryServer({ SVC_AI_OPENAI_URL: model.url });
  smtp = await startSmtp();
  const t = env.t;
  assert.is((await t.request('PUT', '/api/settings/email', { body: { settings: { smtp_host: '127.0.0.1', smtp_port: smtp.port, from_address: 'svc@example.org' } } })).status, 200);
  assert.is((await t.request('PUT', '/api/settings/ai', { body: { settings: { provider: 'openai', model: 'gpt-asked', summaries_enabled: true } } })).status, 200);
  assert.ok((await t.request('PUT', '/api/credentials/openai_api_key', { body: { value: KEY } })).status < 300);
});
test.after(async () => {
  await env.close();
  await smtp.close();
  await model.close();
});

/** Run the routine, wait for its email, answer the parsed mail. */
async function mailOf(routine: number) {
  const t = env.t;
  await addTarget(t, routine, { channel: 'email', target: ADDRESS });
  const before = smtp.messages.length;
  const exec = await runRoutine(t, routine);
  await deliveriesWhen(t, exec, (d) => d.state === 'delivered');
  assert.is(smtp.messages.length, before + 1);
  const { simpleParser } = await import('mailparser');
  return { exec, mail: await simpleParser(smtp.messages[smtp.messages.length - 1]!.raw) };
}

test('email_ai_summary_enabled: the digest carries the summary written before it, labelled as the model\'s', async () => {
  const routine = await newRoutine(env.t, { name: 'ai digest', ai_enabled: true, email_ai_summary_enabled: true, ai_settings: { instructions: 'Which ones are field studies?' } });
  const { exec, mail } = await mailOf(routine);
  const text = mail.text ?? '';
  assert.match(text, /AI summary by openai \/ served-summary-model \(model-written, not checked against the papers; 2 of 2 documents considered\):/);
  for (const line of SUMMARY.split('\n')) assert.ok(text.includes(line), `digest has "${line}"`);
  assert.match(String(mail.html), /Notable papers: \[1\] and \[2\]\./);
  assert.match(mail.attachments[0]!.content.toString('utf8'), /AI summary \(openai \/ served-summary-model; model-written/);
  assert.match(model.requests.at(-1)!.body.messages[1].content, /Which ones are field studies\?/);
  const lane = (await env.t.request('GET', `/api/executions/${exec}`)).json().ai_lane;
  assert.is(lane.used, true);
});

test('email_ai_summary_enabled off: neither the digest nor its attached report carries the summary', async () => {
  const routine = await newRoutine(env.t, { name: 'ai no digest', ai_enabled: true, email_ai_summary_enabled: false });
  const { exec, mail } = await mailOf(routine);
  assert.is((await env.t.request('GET', `/api/executions/${exec}`)).json().ai_lane.used, true, 'the run made one');
  assert.not.ok((mail.text ?? '').includes('Notable papers'));
  assert.not.match(mail.text ?? '', /AI summary/);
  assert.not.match(mail.attachments[0]!.content.toString('utf8'), /AI summary|Notable papers/);
});

test('the digest says why there is no summary, from the run\'s AI lane', async () => {
  const t = env.t;
  await t.request('PUT', '/api/settings/ai', { body: { settings: { summaries_enabled: false } } });
  try {
    const routine = await newRoutine(t, { name: 'ai off digest', ai_enabled: true, email_ai_summary_enabled: true });
    const { mail } = await mailOf(routine);
    assert.match(mail.text ?? '', /AI summary: none — AI summaries are off in the settings; turn them on with `svc settings set ai summaries_enabled true`\./);
    const plain = await newRoutine(t, { name: 'no ai digest', ai_enabled: false, email_ai_summary_enabled: true });
    assert.match((await mailOf(plain)).mail.text ?? '', /AI summary: none, AI was off for this run\./);
  } finally {
    await t.request('PUT', '/api/settings/ai', { body: { settings: { summaries_enabled: true } } });
  }
});

test.run();
