import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { countLines, normalizeNewlines } from '../src/library/index.js';
import { refusal, startLibraryServer, type LibraryServer } from './_library.js';

let s: LibraryServer;
const V = () => `expected_vault_id=${s.vaultId}`;

test.before(async () => {
  s = await startLibraryServer();
});
test.after(() => s.close());

async function imported(name: string, bytes: string | Buffer) {
  const r = await s.importBytes(name, bytes);
  if (r.status !== 201) throw new Error(`${name}: ${r.status} ${r.text}`);
  return r.json().file as { id: number; file_id: string; version_id: string; relative_path: string; sha256: string; byte_size: number };
}

test('list: descending keyset pages under a ceiling; imports made meanwhile stay out until a refresh', async () => {
  const made = [];
  for (let i = 1; i <= 7; i++) made.push(await imported(`page-${i}.txt`, `page ${i}`));
  const first = (await s.get(`/api/library/files?${V()}&q=page-&limit=3`)).json();
  assert.is(first.version, 1);
  assert.is(first.vault_id, s.vaultId);
  assert.is(first.availability, 'not_checked');
  assert.equal(first.items.map((f: any) => f.original_name), ['page-7.txt', 'page-6.txt', 'page-5.txt']);
  assert.ok(first.items.every((f: any) => f.availability === 'not_checked'));
  assert.is(first.has_more, true);
  assert.is(first.next_before_id, made[4]!.id);
  const ceiling = first.through_id;
  assert.is(ceiling, made[6]!.id);
  await imported('page-8.txt', 'page 8'); // arrives between pages
  const second = (await s.get(`/api/library/files?${V()}&q=page-&limit=3&through_id=${ceiling}&before_id=${first.next_before_id}`)).json();
  assert.equal(second.items.map((f: any) => f.original_name), ['page-4.txt', 'page-3.txt', 'page-2.txt']);
  assert.is(second.through_id, ceiling);
  const third = (await s.get(`/api/library/files?${V()}&q=page-&limit=3&through_id=${ceiling}&before_id=${second.next_before_id}`)).json();
  assert.equal(third.items.map((f: any) => f.original_name), ['page-1.txt']);
  assert.is(third.has_more, false);
  assert.is(third.next_before_id, null);
  // before_id is strict.
  const strict = (await s.get(`/api/library/files?${V()}&q=page-&through_id=${ceiling}&before_id=${made[2]!.id}`)).json();
  assert.equal(strict.items.map((f: any) => f.original_name), ['page-2.txt', 'page-1.txt']);
  // A refresh starts a new ceiling.
  const refreshed = (await s.get(`/api/library/files?${V()}&q=page-&limit=1`)).json();
  assert.equal(refreshed.items.map((f: any) => f.original_name), ['page-8.txt']);
  assert.ok(refreshed.through_id > ceiling);
  const all = (await s.get(`/api/library/files?${V()}`)).json();
  assert.is(all.limit, 50);
});

test('list q: literal substring with ASCII case folding only', async () => {
  await imported('Report_Final 100%.md', '# r1');
  await imported('reportXfinal.md', '# r2');
  await imported('ÉTUDE.md', '# e1');
  const names = async (q: string) => (await s.get(`/api/library/files?${V()}&q=${encodeURIComponent(q)}`)).json().items.map((f: any) => f.original_name);
  assert.equal(await names('REPORT'), ['reportXfinal.md', 'Report_Final 100%.md']);
  assert.equal(await names('report_'), ['Report_Final 100%.md'], '_ is literal, not a wildcard');
  assert.equal(await names('100%'), ['Report_Final 100%.md'], '% is literal');
  assert.equal(await names('%'), ['Report_Final 100%.md']);
  assert.equal(await names('ÉTUDE'), ['ÉTUDE.md']);
  assert.equal(await names('étude'), [], 'non-ASCII letters are not folded');
  assert.equal(await names('tude.MD'), ['ÉTUDE.md']);
});

test('metadata with explicit paper links; links are idempotent; deleting a paper removes only its link rows', async () => {
  const f = await imported('linked.pdf', '%PDF-1.4 linked');
  const [d1, d2] = [s.addDocument(), s.addDocument()];
  const link = (documentId: number) => s.post(`/api/library/files/${f.file_id}/paper-links`, { expected_vault_id: s.vaultId, document_id: documentId });
  const created = await link(d1);
  assert.is(created.status, 201);
  assert.is(created.json().created, true);
  assert.equal(created.json().link.document_id, d1);
  assert.is(created.json().link.basis, 'link');
  const again = await link(d1);
  assert.is(again.status, 200);
  assert.is(again.json().created, false);
  assert.is(again.json().link.linked_at_utc, created.json().link.linked_at_utc);
  assert.is((await link(d2)).status, 201);
  refusal(await link(987654), 404, 'document_not_found');
  refusal(await s.post(`/api/library/files/00000000-0000-4000-8000-000000000000/paper-links`, { expected_vault_id: s.vaultId, document_id: d1 }), 404, 'file_not_found');

  const meta = (await s.get(`/api/library/files/${f.file_id}?${V()}`)).json();
  assert.is(meta.version, 1);
  assert.is(meta.file.file_id, f.file_id);
  assert.is(meta.file.availability, 'not_checked');
  assert.equal(meta.paper_links.map((l: any) => l.document_id), [d1, d2]);

  s.t.ctx.db.prepare('DELETE FROM documents WHERE id = ?').run(d1);
  const after = (await s.get(`/api/library/files/${f.file_id}?${V()}`)).json();
  assert.equal(after.paper_links.map((l: any) => l.document_id), [d2]);
  assert.equal(after.file, meta.file, 'the file record is untouched');
  assert.ok(fs.existsSync(path.join(s.root, f.relative_path)), 'the bytes are untouched');
});

test('open verifies marker, path, regular file, size and SHA-256, then answers the absolute path', async () => {
  const f = await imported('open-me.txt', 'open me\n');
  const open = (versionId = f.version_id) => s.post(`/api/library/files/${f.file_id}/open`, { expected_vault_id: s.vaultId, expected_version_id: versionId });
  const r = await open();
  assert.is(r.status, 200);
  const body = r.json();
  assert.is(body.path, path.join(s.root, f.relative_path));
  assert.ok(path.isAbsolute(body.path));
  assert.is(body.sha256, f.sha256);
  assert.is(body.version_id, f.version_id);
  assert.is(r.headers['cache-control'], 'no-store');
  refusal(await open('00000000-0000-4000-8000-000000000000'), 409, 'version_mismatch');

  const stored = path.join(s.root, f.relative_path);
  fs.chmodSync(stored, 0o644);
  fs.writeFileSync(stored, 'open mE\n'); // same size, other bytes
  refusal(await open(), 409, 'file_hash_mismatch', s.root);
  fs.writeFileSync(stored, 'open me!\n');
  refusal(await open(), 409, 'file_size_mismatch', s.root);
  fs.writeFileSync(stored, 'open me\n');
  fs.chmodSync(stored, 0o444);
  assert.is((await open()).status, 200);
});

test('text envelope: exactly the listed fields, CRLF and lone CR to LF, lines counted as specified', async () => {
  const raw = 'line one\r\nline two\rline three\n';
  const f = await imported('crlf.txt', raw);
  const r = await s.get(`/api/library/files/${f.file_id}/text?${V()}&expected_version_id=${f.version_id}`);
  assert.is(r.status, 200);
  assert.is(r.headers['cache-control'], 'no-store');
  const body = r.json();
  assert.equal(Object.keys(body).sort(), ['byte_size', 'encoding', 'file_id', 'kind', 'line_count', 'media_type', 'normalization', 'sha256', 'text', 'vault_id', 'version', 'version_id'].sort());
  assert.equal(body, {
    version: 1,
    kind: 'svc-library-text',
    vault_id: s.vaultId,
    file_id: f.file_id,
    version_id: f.version_id,
    sha256: f.sha256,
    media_type: 'text/plain',
    encoding: 'utf-8',
    normalization: 'crlf-cr-to-lf-v1',
    byte_size: Buffer.byteLength(raw),
    line_count: 4,
    text: 'line one\nline two\nline three\n',
  });
  const md = await imported('notes.md', '\uFEFF# Title\n\nbody');
  const mdBody = (await s.get(`/api/library/files/${md.file_id}/text?${V()}&expected_version_id=${md.version_id}`)).json();
  assert.is(mdBody.media_type, 'text/markdown');
  assert.is(mdBody.text, '\uFEFF# Title\n\nbody', 'the BOM is kept: the text is the bytes, decoded');
  assert.is(mdBody.line_count, 3);
});

test('line counting: a trailing LF counts a final empty logical line', () => {
  assert.is(countLines(''), 1);
  assert.is(countLines('a'), 1);
  assert.is(countLines('a\n'), 2);
  assert.is(countLines('a\nb'), 2);
  assert.is(countLines('\n'), 2);
  assert.is(countLines('\n\n'), 3);
  assert.is(normalizeNewlines('a\r\n\r\nb\r\r\nc\n\rd'), 'a\n\nb\n\nc\n\nd');
  assert.is(countLines(normalizeNewlines('a\r\nb\rc')), 3);
});

test('text limits: 256 KiB original, 5,000 lines; PDF refused; refusals are no-store', async () => {
  const text = (f: { file_id: string; version_id: string }) => s.get(`/api/library/files/${f.file_id}/text?${V()}&expected_version_id=${f.version_id}`);
  const exact = await imported('exact.txt', 'x'.repeat(256 * 1024));
  assert.is((await text(exact)).status, 200);
  const over = await imported('over.txt', 'y'.repeat(256 * 1024 + 1));
  const r = await text(over);
  refusal(r, 413, 'text_too_large');
  assert.is(r.headers['cache-control'], 'no-store');
  const lines5000 = await imported('5000.txt', 'l\n'.repeat(4999) + 'l'); // 5,000 logical lines
  assert.is((await text(lines5000)).json().line_count, 5000);
  const lines5001 = await imported('5001.txt', 'l\n'.repeat(5000)); // trailing LF: 5,001 logical lines
  refusal(await text(lines5001), 413, 'too_many_lines');
  const crOnly = await imported('cr.txt', 'l\r'.repeat(5000));
  refusal(await text(crOnly), 413, 'too_many_lines');
  const pdf = await imported('doc.pdf', '%PDF-1.4 text?');
  const p = await text(pdf);
  refusal(p, 422, 'not_text');
  assert.is(p.headers['cache-control'], 'no-store');
  refusal(await s.get(`/api/library/files/${pdf.file_id}/text?${V()}&expected_version_id=00000000-0000-4000-8000-000000000000`), 409, 'version_mismatch');
});

test('text read verifies again: a file changed after import is refused visibly', async () => {
  const f = await imported('changed.txt', 'original\n');
  const stored = path.join(s.root, f.relative_path);
  fs.chmodSync(stored, 0o644);
  fs.writeFileSync(stored, 'Original\n');
  const r = await s.get(`/api/library/files/${f.file_id}/text?${V()}&expected_version_id=${f.version_id}`);
  refusal(r, 409, 'file_hash_mismatch', s.root);
  assert.is(r.headers['cache-control'], 'no-store');
  fs.writeFileSync(stored, 'original\n');
});

test('inventory export: the envelope and its inner document; no roots, titles or bytes', async () => {
  const doc = s.addDocument('A Very Secret Title');
  const f = await imported('inventoried.md', '# inventory bytes here\n');
  await s.post(`/api/library/files/${f.file_id}/paper-links`, { expected_vault_id: s.vaultId, document_id: doc });
  const r = await s.get(`/api/library/export?${V()}&format=json`);
  assert.is(r.status, 200);
  const envelope = r.json();
  assert.equal(Object.keys(envelope).sort(), ['content_type', 'filename', 'format', 'text', 'vault_id', 'version']);
  assert.is(envelope.version, 1);
  assert.is(envelope.format, 'json');
  assert.is(envelope.content_type, 'application/json');
  assert.is(envelope.vault_id, s.vaultId);
  assert.match(envelope.filename, /^svc-library-inventory-.*\.json$/);
  const inner = JSON.parse(envelope.text);
  assert.is(inner.version, 1);
  assert.is(inner.kind, 'svc-library-inventory');
  assert.is(inner.vault_id, s.vaultId);
  assert.match(inner.generated_at_utc, /Z$/);
  assert.is(inner.limits.file_bytes, 64 * 1024 * 1024);
  const entry = inner.files.find((x: any) => x.file_id === f.file_id);
  assert.equal(entry, {
    file_id: f.file_id,
    version_id: f.version_id,
    original_name: 'inventoried.md',
    format: 'md',
    media_type: 'text/markdown',
    byte_size: f.byte_size,
    sha256: f.sha256,
    relative_path: f.relative_path,
    imported_at_utc: entry.imported_at_utc,
    paper_links: [{ document_id: doc, basis: 'link', linked_at_utc: entry.paper_links[0].linked_at_utc }],
    availability: 'not_checked',
  });
  const count = (s.t.ctx.db.prepare('SELECT COUNT(*) AS n FROM library_files').get() as { n: number }).n;
  assert.is(inner.files.length, count);
  for (const forbidden of [s.root, s.parent, s.t.dirs.root, 'A Very Secret Title', 'inventory bytes here', s.t.token]) {
    assert.not.ok(r.text.includes(forbidden), forbidden);
  }
});

test.run();
