import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { refusal, startLibraryServer, type LibraryServer } from './_library.js';

let s: LibraryServer;

test.before(async () => {
  s = await startLibraryServer();
});
test.after(() => s.close());

const sha = (b: string | Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('a new file: 201 with file, version and link receipt, stored read-only as files/<file>/<version>.<ext>', async () => {
  const bytes = '%PDF-1.7\nnot parsed further\n';
  const r = await s.importBytes('Paper One.PDF', bytes);
  assert.is(r.status, 201);
  const body = r.json();
  assert.is(body.outcome, 'created');
  assert.is(body.vault_id, s.vaultId);
  assert.is(body.link, null);
  const f = body.file;
  assert.match(f.file_id, UUID);
  assert.match(f.version_id, UUID);
  assert.is(f.original_name, 'Paper One.PDF');
  assert.is(f.format, 'pdf');
  assert.is(f.media_type, 'application/pdf');
  assert.is(f.byte_size, Buffer.byteLength(bytes));
  assert.is(f.sha256, sha(bytes));
  assert.is(f.relative_path, `files/${f.file_id}/${f.version_id}.pdf`);
  const stored = path.join(s.root, f.relative_path);
  assert.is(fs.readFileSync(stored, 'utf8'), bytes);
  const stat = fs.lstatSync(stored);
  assert.ok(stat.isFile());
  assert.is(stat.mode & 0o222, 0, 'read-only');
  assert.is(stat.nlink, 1);
  assert.equal(fs.readdirSync(path.join(s.root, 'files')).filter((n) => n.startsWith('.')), [], 'no temporary file left');
  assert.not.ok(fs.existsSync(path.join(s.root, '.svc-import.lock')), 'lock released');
});

test('display basenames: 1 to 255 characters, no separators or control characters', async () => {
  for (const name of ['a/b.txt', 'a\\b.txt', 'tab\t.txt', 'nl\n.txt', 'del\u007f.txt', 'c1\u0085.txt', '..', '.', '']) {
    refusal(await s.importBytes(name, 'hello'), 422, 'name_invalid');
  }
  refusal(await s.importBytes(`${'n'.repeat(252)}.txt`, 'hello'), 422, 'name_invalid');
  const longest = `${'é'.repeat(251)}.txt`; // 255 characters, more bytes
  const ok = await s.importBytes(longest, 'longest name');
  assert.is(ok.status, 201);
  assert.is(ok.json().file.original_name, longest);
  assert.is((await s.importBytes('spaces and ünïcode — ok.md', '# hi')).status, 201);
});

test('unsupported and empty files are refused', async () => {
  for (const name of ['a.doc', 'a.pdf.exe', 'README', '.pdf', 'a.markdown', 'a.txt.']) refusal(await s.importBytes(name, 'hello'), 422, 'media_unsupported');
  for (const name of ['e.pdf', 'e.txt', 'e.md']) refusal(await s.importBytes(name, ''), 422, 'empty_file');
});

test('PDF needs the %PDF- envelope; TXT and MD need strict UTF-8 without NUL', async () => {
  refusal(await s.importBytes('x.pdf', 'hello'), 422, 'pdf_envelope_missing');
  refusal(await s.importBytes('x.pdf', '%PDF'), 422, 'pdf_envelope_missing');
  refusal(await s.importBytes('x.pdf', ' %PDF-1.4'), 422, 'pdf_envelope_missing');
  assert.is((await s.importBytes('min.pdf', '%PDF-')).status, 201);
  for (const name of ['x.txt', 'x.md']) {
    refusal(await s.importBytes(name, Buffer.from([0x61, 0xff, 0x62])), 422, 'not_utf8');
    refusal(await s.importBytes(name, Buffer.from([0xc3])), 422, 'not_utf8', s.root); // truncated sequence
    refusal(await s.importBytes(name, Buffer.from([0xed, 0xa0, 0x80])), 422, 'not_utf8'); // encoded surrogate
    refusal(await s.importBytes(name, Buffer.from([0xc0, 0xaf])), 422, 'not_utf8'); // overlong
    refusal(await s.importBytes(name, Buffer.from('a\u0000b')), 422, 'contains_nul');
  }
  // A PDF may hold any bytes after its envelope.
  assert.is((await s.importBytes('bin.pdf', Buffer.from([...Buffer.from('%PDF-'), 0, 0xff, 0xfe]))).status, 201);
});

test('an exact duplicate reuses the first entry: 200, same ids and basename', async () => {
  const first = await s.importBytes('dup-first.txt', 'same bytes\n');
  assert.is(first.status, 201);
  const again = await s.importBytes('dup-second.txt', 'same bytes\n');
  assert.is(again.status, 200);
  assert.is(again.json().outcome, 'duplicate');
  assert.equal(again.json().file, first.json().file);
  assert.is(again.json().file.original_name, 'dup-first.txt');
  const list = await s.get(`/api/library/files?expected_vault_id=${s.vaultId}&q=dup-`);
  assert.is(list.json().items.length, 1);
});

test('same bytes under another media refuse: media_conflict', async () => {
  const first = await s.importBytes('conflict.txt', 'plain or markdown?\n');
  assert.is(first.status, 201);
  const r = await s.importBytes('conflict.md', 'plain or markdown?\n');
  refusal(r, 409, 'media_conflict', s.root);
  assert.is(r.json().detail.file_id, first.json().file.file_id);
});

test('different bytes get different UUIDs, even under the same name', async () => {
  const a = (await s.importBytes('same-name.txt', 'one')).json().file;
  const b = (await s.importBytes('same-name.txt', 'two')).json().file;
  assert.is.not(a.file_id, b.file_id);
  assert.is.not(a.version_id, b.version_id);
});

test('a digest collision refuses (same SHA-256 recorded, different bytes)', async () => {
  const a = (await s.importBytes('collide-a.txt', 'AAAA')).json().file;
  // A real SHA-256 collision is not at hand: record B's digest for A's (same-size) bytes.
  s.t.ctx.db.prepare('UPDATE library_files SET sha256 = ? WHERE file_id = ?').run(sha('BBBB'), a.file_id);
  refusal(await s.importBytes('collide-b.txt', 'BBBB'), 409, 'digest_collision', s.root);
  s.t.ctx.db.prepare('UPDATE library_files SET sha256 = ? WHERE file_id = ?').run(sha('AAAA'), a.file_id);
});

test('import with document_id links the file; an unknown paper is 404 before the bytes are read', async () => {
  const doc = s.addDocument();
  const r = await s.importBytes('linked.md', '# linked\n', `&document_id=${doc}`);
  assert.is(r.status, 201);
  assert.is(r.json().link.document_id, doc);
  assert.is(r.json().link.basis, 'import');
  assert.is(r.json().link.created, true);
  const dup = await s.importBytes('linked-again.md', '# linked\n', `&document_id=${doc}`);
  assert.is(dup.status, 200);
  assert.is(dup.json().link.created, false);
  refusal(await s.importBytes('nolink.md', '# x\n', '&document_id=999999'), 404, 'document_not_found');
  const list = await s.get(`/api/library/files?expected_vault_id=${s.vaultId}&q=nolink`);
  assert.is(list.json().items.length, 0);
});

test('a stale expected_vault_id is 409', async () => {
  const r = await s.t.request('POST', `/api/library/files?expected_vault_id=00000000-0000-4000-8000-000000000000&filename=a.txt`, {
    headers: { origin: 'http://127.0.0.1:5173', 'x-svc-library': '1', 'content-type': 'application/octet-stream' },
    body: 'hello',
  });
  refusal(r, 409, 'vault_mismatch');
});

test('two concurrent imports of the same bytes give one entry', async () => {
  const bytes = crypto.randomBytes(256 * 1024).toString('base64');
  const results = await Promise.all(Array.from({ length: 6 }, (_, i) => s.importBytes(`race-${i}.txt`, bytes)));
  const statuses = results.map((r) => r.status).sort();
  assert.equal(statuses, [200, 200, 200, 200, 200, 201]);
  const ids = new Set(results.map((r) => r.json().file.file_id));
  assert.is(ids.size, 1);
  const count = s.t.ctx.db.prepare('SELECT COUNT(*) AS n FROM library_files WHERE sha256 = ?').get(sha(bytes)) as { n: number };
  assert.is(count.n, 1);
  const fileId = [...ids][0]!;
  assert.is(fs.readdirSync(path.join(s.root, 'files', fileId)).length, 1);
});

test('files/ holds exactly the catalog: one folder per file, one version in each', async () => {
  const rows = s.t.ctx.db.prepare('SELECT relative_path FROM library_files').all() as { relative_path: string }[];
  const onDisk = fs.readdirSync(path.join(s.root, 'files')).flatMap((d) => fs.readdirSync(path.join(s.root, 'files', d)).map((f) => `files/${d}/${f}`));
  assert.equal(onDisk.sort(), rows.map((r) => r.relative_path).sort());
});

test.run();
