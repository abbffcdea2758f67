import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { createNote, evidenceOf, type AnchorInput } from '../src/evidence/index.js';
import { isSvcError } from '../src/errors.js';
import { LIB_HEADERS } from './_library.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';
import { makePdf, slowPage } from './_pdf.js';
import { waitFor } from './_setup.js';

// Spec 2 "Rules": passage creation re-reads verified bytes, recomputes hash,
// quote and range, then rechecks membership, revision and cancellation before
// inserting. A cancelled creation saves nothing and leaves the revision as it was.
const PDF_CONTRACT = 'pdfjs-dist-5.6.205/plain-lf/v1';
let s: EvidenceServer;
let projectId: string;
let slow: FileRef;
let text: FileRef;
let pageSha = '';

test.before(async () => {
  s = await startEvidenceServer();
  projectId = (await s.project('Cancel')).project_id;
  slow = await s.file('slow.pdf', makePdf([slowPage(400_000)])); // about 8 s to parse
  text = await s.file('text.pdf', makePdf(['Alpha beta gamma']));
  await s.add(projectId, slow);
  await s.add(projectId, text);
  const page = await s.call('GET', `${s.P(projectId)}/reader/${text.file_id}?${s.V}&version_id=${text.version_id}&page=1`);
  pageSha = page.json().page_sha256;
});
test.after(() => s.close());

const anchorOn = (sha: string): AnchorInput => ({ page_basis: 'physical', page: 1, extraction_contract: PDF_CONTRACT, page_sha256: sha, start: 6, end: 10, quote: 'beta' });

async function state() {
  const project = (await s.call('GET', `${s.P(projectId)}?${s.V}`)).json().project;
  const notes = (await s.call('GET', `${s.P(projectId)}/notes?${s.V}`)).json();
  return { revision: project.revision as number, notes: notes.total as number };
}

async function cancelled(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isSvcError(err), String(err));
    assert.is(err.status, 499);
    assert.is(err.reason, 'cancelled');
    return;
  }
  assert.unreachable('the note was created');
}

const noteRequest = async (f: FileRef, anchor: AnchorInput | null, signal: AbortSignal) => ({
  expectedVaultId: s.vaultId,
  projectId,
  expectedRevision: (await state()).revision,
  fileId: f.file_id,
  versionId: f.version_id,
  kind: anchor ? ('passage' as const) : ('plain' as const),
  body: 'a note',
  anchor,
  signal,
});

test('cancelled while the page is re-read: nothing saved, the parser stopped at once', async () => {
  const before = await state();
  const pool = evidenceOf(s.t.ctx).pdf();
  const abort = new AbortController();
  const pending = createNote(s.t.ctx, await noteRequest(slow, anchorOn('0'.repeat(64)), abort.signal));
  const pid = await waitFor(() => pool.pid(), 5000, 'the child');
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  abort.abort();
  await cancelled(pending);
  assert.ok(Date.now() - started < 2000, 'cancellation does not wait for the parse');
  assert.is.not(pool.pid(), pid); // the child that held the page is gone
  assert.equal(await state(), before);
});

test('cancelled after the page was verified, before the insert: the last recheck refuses', async () => {
  const before = await state();
  const ev = evidenceOf(s.t.ctx);
  const real = ev.pdf();
  const abort = new AbortController();
  // The page is read and verified in full; the request is cancelled just after.
  ev.pdf = () => ({ ...real, extract: async (...args) => {
    const outcome = await real.extract(...args);
    abort.abort();
    return outcome;
  } });
  try {
    await cancelled(createNote(s.t.ctx, await noteRequest(text, anchorOn(pageSha), abort.signal)));
  } finally {
    ev.pdf = () => real;
  }
  assert.equal(await state(), before);
  // The same note, not cancelled, is saved: the anchor was good.
  const saved = await createNote(s.t.ctx, await noteRequest(text, anchorOn(pageSha), new AbortController().signal));
  assert.is(saved.note.anchor!.quote, 'beta');
  assert.is((await state()).revision, before.revision + 1);
});

test('a plain note of a request already cancelled is not saved', async () => {
  const before = await state();
  const abort = new AbortController();
  abort.abort();
  await cancelled(createNote(s.t.ctx, await noteRequest(text, null, abort.signal)));
  assert.equal(await state(), before);
});

test('over HTTP: the client going away cancels the creation; nothing is saved', async () => {
  const before = await state();
  const pool = evidenceOf(s.t.ctx).pdf();
  const body = JSON.stringify({
    expected_vault_id: s.vaultId, expected_revision: before.revision, file_id: slow.file_id, version_id: slow.version_id,
    kind: 'passage', body: 'x', anchor: anchorOn('0'.repeat(64)),
  });
  const req = http.request({
    port: s.t.port, method: 'POST', path: `${s.P(projectId)}/notes`,
    headers: { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...LIB_HEADERS },
  });
  req.on('error', () => {});
  req.end(body);
  const pid = await waitFor(() => pool.pid(), 5000, 'the child');
  await new Promise((r) => setTimeout(r, 300));
  req.destroy();
  // The parse would take seconds; the cancelled read stops the child at once.
  await waitFor(() => pool.pid() !== pid, 2000, 'the child stopped');
  assert.equal(await state(), before);
});

test.run();
