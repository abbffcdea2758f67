import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startAnswerServer, type AnswerServer } from './_answers.js';

let s: AnswerServer;
const UUID = '11111111-2222-4333-8444-555555555555';
test.before(async () => {
  s = await startAnswerServer();
});
test.after(() => s.close());

const path = (q: string) => s.A(`/answers/${UUID}/export${q}`);

test('format is required and must be zip or html (422); unknown query keys refused', async () => {
  for (const q of [`?expected_vault_id=${s.vaultId}`, `?expected_vault_id=${s.vaultId}&format=pdf`, `?expected_vault_id=${s.vaultId}&format=ZIP`, `?expected_vault_id=${s.vaultId}&format=zip&x=1`, `?expected_vault_id=${s.vaultId}&format=zip&format=html`]) {
    const r = await s.call('GET', path(q));
    assert.is(r.status, 422, `${q}: ${r.text}`);
    assert.is(r.headers['cache-control'], 'no-store');
  }
});

test('a missing answer is 404; the Library guard is 403', async () => {
  const r = await s.call('GET', path(`?expected_vault_id=${s.vaultId}&format=html`));
  assert.is(r.status, 404, r.text);
  assert.is(r.json().detail.reason, 'answer_not_found');
  const guarded = await s.t.request('GET', path(`?expected_vault_id=${s.vaultId}&format=zip`));
  assert.is(guarded.status, 403);
});

test.run();
