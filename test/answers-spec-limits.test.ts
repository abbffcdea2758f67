/**
 * The selected-answer rules of spec 2 that had no test: events and cancel
 * act only for the exact runtime (expected_runtime_id required, another one
 * 409 runtime_mismatch) and the exact owner (an answer run by another
 * runtime is 409 not_owner, nothing changes); a cancelled run still cleaning
 * up blocks admission (409 cleanup_pending).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import { refusal } from './_library.js';
import { startAnswerServer, type AnswerServer } from './_answers.js';
import { answersOf } from '../src/answers/service.js';
import { startFakeModel, type FakeServer } from './_fake-model.js';

let s: AnswerServer;
let openai: FakeServer;

test.before(async () => {
  s = await startAnswerServer({ answers: { limits: { attachMs: 30_000 } } });
  openai = await startFakeModel('openai');
  openai.behaviour = 'valid';
  s.t.ctx.config.ai.urls.openai = openai.url;
  s.t.ctx.credentials.set('openai_api_key', 'sk-openai-secret-1234');
});
test.after(async () => {
  await openai.close();
  await s.close();
});

async function admit(): Promise<string> {
  const p = await s.preview();
  assert.is(p.status, 201, p.text);
  const { preview_id, request_sha256 } = p.json();
  const r = await s.call('POST', s.A('/answers'), { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId, preview_id, request_sha256, confirmed: true });
  assert.is(r.status, 201, r.text);
  return r.json().answer.answer_id;
}

const events = (id: string, runtime?: string) => s.call('GET', `${s.A(`/answers/${id}/events`)}?${s.V}${runtime ? `&expected_runtime_id=${runtime}` : ''}`);
const cancel = (id: string, fields: Record<string, unknown>) => s.call('POST', s.A(`/answers/${id}/cancel`), { expected_vault_id: s.vaultId, ...fields });
const state = async (id: string) => (await s.call('GET', `${s.A(`/answers/${id}`)}?${s.V}`)).json().answer.state as string;

test('events and cancel: expected runtime required; another runtime is 409 runtime_mismatch and changes nothing', async () => {
  const id = await admit();
  const other = crypto.randomUUID();
  refusal(await events(id), 422, 'missing_query_key');
  refusal(await events(id, other), 409, 'runtime_mismatch');
  refusal(await cancel(id, {}), 422, 'missing_field');
  refusal(await cancel(id, { expected_runtime_id: other }), 409, 'runtime_mismatch');
  assert.is(await state(id), 'admitted');
  const done = await cancel(id, { expected_runtime_id: s.runtimeId });
  assert.is(done.status, 200, done.text);
  assert.is(done.json().answer.state, 'cancelled');
});

test('an answer owned by another runtime cannot be watched or cancelled here: 409 not_owner', async () => {
  const id = await admit();
  const db = s.t.ctx.db;
  db.prepare('UPDATE evidence_answers SET owner_runtime_id = ? WHERE answer_id = ?').run(crypto.randomUUID(), id);
  try {
    refusal(await events(id, s.runtimeId), 409, 'not_owner');
    refusal(await cancel(id, { expected_runtime_id: s.runtimeId }), 409, 'not_owner');
    assert.is(await state(id), 'admitted');
  } finally {
    db.prepare('UPDATE evidence_answers SET owner_runtime_id = ? WHERE answer_id = ?').run(s.runtimeId, id);
  }
  assert.is((await cancel(id, { expected_runtime_id: s.runtimeId })).json().answer.state, 'cancelled');
});

test('while a cancelled run is still cleaning up, admission is refused 409 cleanup_pending (nothing inserted)', async () => {
  const p = await s.preview();
  assert.is(p.status, 201, p.text);
  const { preview_id, request_sha256 } = p.json();
  const consent = { expected_vault_id: s.vaultId, expected_runtime_id: s.runtimeId, preview_id, request_sha256, confirmed: true };
  const total = async () => (await s.call('GET', `${s.A('/answers')}?${s.V}`)).json().total as number;
  const before = await total();
  const cleaning = answersOf(s.t.ctx).cleaning;
  cleaning.add('a-cancelled-run');
  try {
    refusal(await s.call('POST', s.A('/answers'), consent), 409, 'cleanup_pending');
    assert.is(await total(), before);
  } finally {
    cleaning.delete('a-cancelled-run');
  }
  const admitted = await s.call('POST', s.A('/answers'), consent);
  assert.is(admitted.status, 201, admitted.text);
  assert.is((await cancel(admitted.json().answer.answer_id, { expected_runtime_id: s.runtimeId })).status, 200);
});

test.run();
