import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { evidenceOf } from '../src/evidence/index.js';
import { refusal } from './_library.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';
import { makePdf, slowPage } from './_pdf.js';
import { waitFor } from './_setup.js';

const PDF_CONTRACT = 'pdfjs-dist-5.6.205/plain-lf/v1';
let s: EvidenceServer;
let projectId: string;
const files: Record<string, FileRef> = {};

const PDFS: Record<string, Buffer> = {
  paper: makePdf(['Page one: results', { lines: ['Second page', 'with two lines'] }, { image: true }]),
  encrypted: makePdf(['Secret words'], { encrypt: true }),
  garbage: Buffer.from('%PDF-1.4\nthis is not a PDF at all\n', 'latin1'),
  brokenXref: Buffer.from(makePdf(['Hello']).toString('latin1').replace(/startxref\n\d+/, 'startxref\n99999'), 'latin1'),
  slow: makePdf([slowPage(400_000)]),
  many: makePdf(['1', '2', '3', '4']),
  long: makePdf([{ lines: Array.from({ length: 40 }, (_, i) => `line ${i} with some words`) }]),
  big: makePdf(['x'.repeat(20_000)]),
};

test.before(async () => {
  // The slow page takes 8 s to parse on a quiet machine; a small PDF's first page must finish within the
  // timeout on a machine loaded to 15 (at 1.5 s it once did not).
  s = await startEvidenceServer({ limits: { pdfTimeoutMs: 4000, pdfPages: 3, pdfCodepoints: 500, pdfBytes: 12_000 } });
  projectId = (await s.project('PDFs')).project_id;
  for (const [name, bytes] of Object.entries(PDFS)) {
    files[name] = await s.file(`${name}.pdf`, bytes);
    await s.add(projectId, files[name]!);
  }
});
test.after(() => s.close());

const read = (f: FileRef, page: number, extra = '') => s.call('GET', `${s.P(projectId)}/reader/${f.file_id}?${s.V}&version_id=${f.version_id}&page=${page}${extra}`);

test('a text PDF page is extracted under the pdfjs contract; other pages are not_examined', async () => {
  const r = await read(files.paper!, 2);
  assert.is(r.status, 200, r.text);
  const p = r.json();
  assert.is(p.contract_version, 1);
  assert.is(p.status, 'extracted');
  assert.is(p.extraction_contract, PDF_CONTRACT);
  assert.is(p.page_basis, 'physical');
  assert.is(p.requested_page, 2);
  assert.is(p.page_count, 3);
  assert.equal(p.examined_pages, [2]);
  assert.equal(p.pages, [{ page: 1, status: 'not_examined' }, { page: 2, status: 'extracted' }, { page: 3, status: 'not_examined' }]);
  assert.is(p.text, 'Second page\nwith two lines');
  assert.is(p.page_sha256, crypto.createHash('sha256').update(p.text).digest('hex'));
  assert.is(p.sha256, files.paper!.sha256);
  refusal(await read(files.long!, 2), 422, 'page_out_of_range');
  refusal(await read(files.paper!, 4), 422, 'out_of_range'); // past the reader's page limit
  refusal(await read(files.paper!, 0), 422, 'out_of_range');
});

test('an image-only page is no_text (no text is not evidence of no content)', async () => {
  const p = (await read(files.paper!, 3)).json();
  assert.is(p.status, 'no_text');
  assert.is(p.text, '');
});

test('encryption (empty user password) is unsupported; malformed input and parser warnings are malformed', async () => {
  const enc = (await read(files.encrypted!, 1)).json();
  assert.is(enc.status, 'unsupported');
  assert.is(enc.reason, 'encrypted');
  assert.is(enc.text, null);
  const garbage = (await read(files.garbage!, 1)).json();
  assert.is(garbage.status, 'malformed');
  assert.is(garbage.page_count, null);
  assert.equal(garbage.pages, [{ page: 1, status: 'malformed' }]);
  const broken = (await read(files.brokenXref!, 1)).json();
  assert.is(broken.status, 'malformed');
  assert.is(broken.reason, 'parser_warning');
});

test('limits: pages, codepoints, bytes are limit_exceeded with the reason', async () => {
  const many = (await read(files.many!, 1)).json();
  assert.is(many.status, 'limit_exceeded');
  assert.is(many.reason, 'pdf_pages');
  assert.is(many.page_count, 4);
  const long = (await read(files.long!, 1)).json();
  assert.is(long.status, 'limit_exceeded');
  assert.is(long.reason, 'page_codepoints');
  assert.is(long.text, null);
  const big = (await read(files.big!, 1)).json();
  assert.is(big.status, 'limit_exceeded');
  assert.is(big.reason, 'pdf_bytes');
});

test('a page that runs past the timeout is timeout; the child is replaced and the next page reads', async () => {
  const slow = (await read(files.slow!, 1)).json();
  assert.is(slow.status, 'timeout');
  assert.equal(slow.examined_pages, [1]);
  const next = (await read(files.paper!, 1)).json();
  assert.is(next.status, 'extracted');
  assert.is(next.text, 'Page one: results');
});

test('a killed child answers unavailable, and a fresh child serves the next page', async () => {
  const pool = evidenceOf(s.t.ctx).pdf();
  const pending = read(files.slow!, 1);
  const pid = await waitFor(() => pool.pid(), 5000, 'child');
  await new Promise((r) => setTimeout(r, 100));
  process.kill(pid, 'SIGKILL');
  const killed = (await pending).json();
  assert.is(killed.status, 'unavailable');
  assert.is(killed.reason, 'parser_exited');
  const next = (await read(files.paper!, 1)).json();
  assert.is(next.status, 'extracted');
  assert.is.not(pool.pid(), pid);
});

test('the warm child serves many pages without respawning', async () => {
  const pool = evidenceOf(s.t.ctx).pdf();
  await read(files.paper!, 1);
  const spawned = pool.stats().spawned;
  for (let i = 0; i < 5; i++) assert.is((await read(files.paper!, 1 + (i % 2))).json().status, 'extracted');
  assert.is(pool.stats().spawned, spawned);
});

test('representation=pdf answers the verified bytes; a changed retained file is refused or unavailable', async () => {
  const r = await read(files.paper!, 1, '&representation=pdf');
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/pdf');
  assert.is(r.headers['cache-control'], 'no-store');
  assert.is(r.headers['x-svc-sha256'], files.paper!.sha256);
  const stored = path.join(s.root, ...files.paper!.relative_path.split('/'));
  fs.chmodSync(stored, 0o644);
  const bytes = fs.readFileSync(stored);
  bytes[bytes.length - 3] = 0x41;
  fs.writeFileSync(stored, bytes);
  refusal(await read(files.paper!, 1, '&representation=pdf'), 409, 'file_hash_mismatch');
  const page = (await read(files.paper!, 1)).json();
  assert.is(page.status, 'unavailable');
  assert.is(page.reason, 'file_hash_mismatch');
  assert.is(page.text, null);
});

test('a passage note on a PDF page is verified through the child', async () => {
  const f = await s.file('passage.pdf', makePdf(['Alpha beta gamma']));
  await s.add(projectId, f);
  const page = (await read(f, 1)).json();
  const anchor = { page_basis: 'physical', page: 1, extraction_contract: PDF_CONTRACT, page_sha256: page.page_sha256, start: 6, end: 10, quote: 'beta' };
  const body = { expected_vault_id: s.vaultId, file_id: f.file_id, version_id: f.version_id, kind: 'passage', body: 'key term' };
  const r = await s.call('POST', `${s.P(projectId)}/notes`, { ...body, expected_revision: await s.revision(projectId), anchor });
  assert.is(r.status, 201, r.text);
  assert.is(r.json().note.anchor.quote, 'beta');
  refusal(await s.call('POST', `${s.P(projectId)}/notes`, { ...body, expected_revision: await s.revision(projectId), anchor: { ...anchor, page: 1, extraction_contract: 'library-text-lf/v1' } }), 409, 'contract_mismatch');
  const image = files.paper!; // now corrupted: unavailable
  const unreadable = await s.call('POST', `${s.P(projectId)}/notes`, { ...body, file_id: image.file_id, version_id: image.version_id, expected_revision: await s.revision(projectId), anchor: { ...anchor, page: 3 } });
  refusal(unreadable, 409, 'page_unreadable');
});

test('the text reader answers the saved passages of its page: highlights, and those whose anchor no longer matches the text', async () => {
  const f = await s.file('marked.pdf', makePdf(['Delta epsilon zeta', 'Other page']));
  await s.add(projectId, f);
  const page = (await read(f, 1)).json();
  const anchor = { page_basis: 'physical', page: 1, extraction_contract: PDF_CONTRACT, page_sha256: page.page_sha256, start: 6, end: 13, quote: 'epsilon' };
  const body = { expected_vault_id: s.vaultId, file_id: f.file_id, version_id: f.version_id, kind: 'passage', body: 'the second word' };
  const created = await s.call('POST', `${s.P(projectId)}/notes`, { ...body, expected_revision: await s.revision(projectId), anchor });
  assert.is(created.status, 201, created.text);
  const noteId = created.json().note.note_id;
  const marked = (await read(f, 1)).json();
  assert.equal(marked.highlights, [{ note_id: noteId, start: 6, end: 13, quote: 'epsilon', body: 'the second word' }]);
  assert.equal(marked.not_highlighted, []);
  assert.equal([(await read(f, 2)).json().highlights, (await read(f, 2)).json().not_highlighted], [[], []], 'another page has none');
  // A note saved on other text of this page (as under an earlier extraction) is named, never moved onto this text.
  s.t.ctx.db.prepare('UPDATE evidence_notes SET page_sha256 = ? WHERE id = ?').run('f'.repeat(64), noteId);
  const moved = (await read(f, 1)).json();
  assert.equal(moved.highlights, []);
  assert.equal(moved.not_highlighted, [{ note_id: noteId, start: 6, end: 13, reason: 'page_hash_mismatch' }]);
});

test('the next pages of a file are read from the document the child holds: its bytes go to the child once', async () => {
  const pool = evidenceOf(s.t.ctx).pdf();
  const f = await s.file('turns.pdf', makePdf(['First turn', 'Second turn', 'Third turn']));
  await s.add(projectId, f);
  assert.is((await read(f, 1)).json().text, 'First turn');
  const before = pool.stats();
  const texts = [];
  for (const page of [2, 3, 1, 2]) texts.push((await read(f, page)).json().text);
  assert.equal(texts, ['Second turn', 'Third turn', 'First turn', 'Second turn']);
  const after = pool.stats();
  assert.is(after.bytesSent, before.bytesSent, 'no page after the first sent the bytes again');
  assert.is(after.reused, before.reused + 4);
  assert.is(after.spawned, before.spawned);
});

test('a held document is never read for a file changed on disk: the read is refused with file_hash_mismatch', async () => {
  const pool = evidenceOf(s.t.ctx).pdf();
  const original = makePdf(['Alpha held page', 'Beta held page']);
  const changed = makePdf(['Omega held page', 'Zeta held page']);
  assert.is(changed.length, original.length); // same size: only the SHA-256 tells them apart
  const f = await s.file('held.pdf', original);
  await s.add(projectId, f);
  const first = (await read(f, 1)).json();
  assert.is(first.text, 'Alpha held page', JSON.stringify(first));
  const stored = path.join(s.root, ...f.relative_path.split('/'));
  fs.chmodSync(stored, 0o644);
  fs.writeFileSync(stored, changed); // the same name, other bytes
  const before = pool.stats();
  for (const page of [1, 2]) {
    const p = (await read(f, page)).json();
    assert.is(p.status, 'unavailable');
    assert.is(p.reason, 'file_hash_mismatch');
    assert.is(p.text, null);
    assert.is(p.page_sha256, null);
  }
  assert.is(pool.stats().pages, before.pages, 'the child was not asked');
  // The right bytes back: read again, from the document still held.
  fs.writeFileSync(stored, original);
  assert.is((await read(f, 2)).json().text, 'Beta held page');
  assert.is(pool.stats().reused, before.reused + 1);
  assert.is(pool.stats().bytesSent, before.bytesSent);
});

test.run();
