/**
 * What a door needs before it asks for a confirm-gated admin operation, read
 * over HTTP: each erase scope with the word its confirm must be and what it
 * erases and keeps (GET /api/admin/erase-scopes, the same words `svc erase
 * --help` prints), and the words the restore and undo-copy routes accept
 * (GET /api/backup/last). The word read is the word the route takes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ERASE_SCOPES, SCOPES } from '../src/admin/erase.js';
import { startTestServer, type TestServer } from './_setup.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(() => t.close());

test('GET /api/admin/erase-scopes names every scope, the confirm it takes, what it erases and what it keeps', async () => {
  const r = await t.request('GET', '/api/admin/erase-scopes');
  assert.is(r.status, 200, r.text);
  const { scopes } = r.json() as { scopes: { scope: string; confirm: string; erases: string; keeps: string }[] };
  assert.equal(
    scopes.map((s) => s.scope),
    [...ERASE_SCOPES],
  );
  for (const s of scopes) {
    assert.is(s.erases, SCOPES[s.scope as keyof typeof SCOPES].erases);
    assert.is(s.keeps, SCOPES[s.scope as keyof typeof SCOPES].keeps);
  }
  // The word read is the word the route takes: without it refused, with it done.
  const corpus = scopes.find((s) => s.scope === 'erase-corpus')!;
  const refused = await t.request('POST', '/api/admin/erase-corpus', { body: { confirm: '' } });
  assert.is(refused.status, 400);
  assert.is(refused.json().detail.expected_confirm, corpus.confirm);
  const done = await t.request('POST', '/api/admin/erase-corpus', { body: { confirm: corpus.confirm } });
  assert.is(done.status, 200, done.text);
  assert.is(done.json().keeps, corpus.keeps);
});

test('GET /api/backup/last names the confirm words of the restore and undo-copy routes', async () => {
  const r = await t.request('GET', '/api/backup/last');
  assert.is(r.status, 200, r.text);
  const words = r.json().confirm_words as { restore: string; undo_copy_delete: string };
  const undo = await t.request('POST', '/api/restore/undo-copy/delete', { body: { confirm: words.undo_copy_delete } });
  assert.is(undo.status, 200, undo.text);
  const restore = await t.request('POST', '/api/restore', { body: { confirm: 'no', path: '/nowhere.tar', vault_parent: '' } });
  assert.is(restore.json().detail.expected_confirm, words.restore);
});

test.run();
