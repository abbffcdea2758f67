import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import yauzl from 'yauzl';
import { LIB_HEADERS, refusal } from './_library.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';
import { makePdf } from './_pdf.js';

let s: EvidenceServer;
let projectId: string;
let a: FileRef;
let b: FileRef;
let c: FileRef;
const A_TEXT = 'Alpha 😀 evidence\n';

test.before(async () => {
  s = await startEvidenceServer({ limits: { bundleFilesMax: 3, bundleBytes: 4000 } });
  projectId = (await s.project('Bundle ```name```')).project_id;
  a = await s.file('a.txt', A_TEXT);
  b = await s.file('b.pdf', makePdf(['Bravo page']));
  c = await s.file('c.md', '# Charlie\n');
  for (const f of [a, b, c]) await s.add(projectId, f);
  const anchor = { page_basis: 'logical', page: 1, extraction_contract: 'library-text-lf/v1', page_sha256: crypto.createHash('sha256').update(A_TEXT).digest('hex'), start: 6, end: 7, quote: '😀' };
  const base = { expected_vault_id: s.vaultId, file_id: a.file_id, version_id: a.version_id };
  assert.is((await s.call('POST', `${s.P(projectId)}/notes`, { ...base, expected_revision: await s.revision(projectId), kind: 'passage', body: 'Body with ``` fence', anchor })).status, 201);
  assert.is((await s.call('POST', `${s.P(projectId)}/notes`, { ...base, file_id: c.file_id, version_id: c.version_id, expected_revision: await s.revision(projectId), kind: 'plain', body: 'not selected', anchor: null })).status, 201);
});
test.after(() => s.close());

/** POST the bundle and keep the raw bytes. */
function postBundle(body: unknown): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = http.request(
      { host: '127.0.0.1', port: s.t.port, method: 'POST', path: `${s.P(projectId)}/bundle`, agent: false,
        headers: { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json', ...LIB_HEADERS } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (d: Buffer) => chunks.push(d));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
/**
 * What is left in the spool once the server is done. A bundle's spool is released when its
 * file stream closes, which can come just after the client has read the last byte: so wait
 * up to 2 s for the folder to empty, and answer what is still there.
 */
const spoolLeft = async () => {
  const dir = path.join(s.t.dirs.dataDir, 'spool', 'evidence');
  const left = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  for (let waited = 0; left().length && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  return left();
};

test('metadata mode (the default): manifest and notes only, says bytes were not checked', async () => {
  const rev = await s.revision(projectId);
  const r = await postBundle({ expected_vault_id: s.vaultId, expected_revision: rev, files: [{ file_id: a.file_id, version_id: a.version_id }] });
  assert.is(r.status, 200, r.bytes.toString());
  assert.is(r.headers['content-type'], 'application/zip');
  assert.is(r.headers['cache-control'], 'no-store');
  assert.is(r.headers['x-svc-sha256'], sha(r.bytes));
  assert.is(Number(r.headers['content-length']), r.bytes.length);
  const entries = await unzip(r.bytes);
  assert.equal([...entries.keys()], ['manifest.json', 'notes.md']);
  const m = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
  assert.is(m.format, 'evidence-bundle');
  assert.is(m.version, 1);
  assert.is(m.mode, 'metadata');
  assert.is(m.bundle_id, r.headers['x-svc-bundle']);
  assert.equal(m.vault, { vault_id: s.vaultId });
  assert.equal(m.project, { project_id: projectId, name: 'Bundle ```name```', revision: rev });
  assert.is(m.verification.status, 'not_checked');
  assert.is(m.files.length, 1);
  assert.is(m.files[0].content_path, null);
  assert.is(m.files[0].verification, 'not_checked');
  assert.is(m.notes.length, 1, 'only notes of the selected versions');
  assert.is(m.notes[0].anchor.quote, '😀');
  const md = entries.get('notes.md')!.toString('utf8');
  assert.ok(md.includes('````text\nBody with ``` fence\n````'), 'literal text is fenced beyond its own backticks');
  assert.not.ok(md.includes('not selected'));
  assert.equal(await spoolLeft(), [], 'the spool is cleaned after the answer');
});

test('file mode: every file rehashed into the archive; read back with yauzl, every hash checks', async () => {
  const rev = await s.revision(projectId);
  const sel = [a, b].map((f) => ({ file_id: f.file_id, version_id: f.version_id }));
  const r = await postBundle({ expected_vault_id: s.vaultId, expected_revision: rev, files: sel, include_files: true });
  assert.is(r.status, 200, r.bytes.toString());
  assert.is(r.headers['x-svc-sha256'], sha(r.bytes));
  const entries = await unzip(r.bytes);
  const m = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
  assert.is(m.mode, 'files');
  assert.is(m.verification.status, 'verified');
  for (const f of m.files) {
    assert.is(f.verification, 'verified');
    assert.is(f.content_path, `files/${f.file_id}/${f.version_id}.${f.format}`);
    const bytes = entries.get(f.content_path)!;
    assert.ok(bytes, f.content_path);
    assert.is(bytes.length, f.byte_size);
    assert.is(sha(bytes), f.sha256);
  }
  assert.is(sha(entries.get(`files/${a.file_id}/${a.version_id}.txt`)!), a.sha256);
  assert.is(sha(entries.get(`files/${b.file_id}/${b.version_id}.pdf`)!), b.sha256);
  assert.equal(await spoolLeft(), []);
});

test('refusals: empty, too many, duplicate, non-member, stale revision, bad shapes', async () => {
  const rev = await s.revision(projectId);
  const one = { file_id: a.file_id, version_id: a.version_id };
  const post = (body: Record<string, unknown>) => s.call('POST', `${s.P(projectId)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: rev, ...body });
  refusal(await post({ files: [] }), 422, 'selection_invalid');
  refusal(await post({ files: [one, { file_id: b.file_id, version_id: b.version_id }, { file_id: c.file_id, version_id: c.version_id }, one] }), 413, 'bundle_limit');
  refusal(await post({ files: [one, one] }), 422, 'selection_invalid');
  refusal(await post({ files: [{ ...one, version_id: b.version_id }] }), 409, 'version_mismatch');
  refusal(await post({ files: [{ file_id: a.file_id }] }), 422, 'invalid_selection');
  refusal(await post({ files: one }), 422, 'invalid_selection');
  refusal(await post({ files: [one], include_files: 'yes' }), 422, 'invalid_boolean');
  refusal(await s.call('POST', `${s.P(projectId)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: rev - 1, files: [one] }), 409, 'revision_conflict');
  const outsider = await s.file('outside.txt', 'not a member\n');
  refusal(await post({ files: [{ file_id: outsider.file_id, version_id: outsider.version_id }] }), 409, 'not_a_member');
});

test('over the byte limit, or a corrupt file: no archive at all, nothing left in the spool', async () => {
  const big = await s.file('big.txt', 'x'.repeat(5000));
  await s.add(projectId, big);
  const rev = await s.revision(projectId);
  const post = (f: FileRef) => s.call('POST', `${s.P(projectId)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: rev, files: [{ file_id: a.file_id, version_id: a.version_id }, { file_id: f.file_id, version_id: f.version_id }], include_files: true });
  refusal(await post(big), 413, 'bundle_limit');
  // Metadata mode does not read bytes, so the byte limit does not apply.
  assert.is((await s.call('POST', `${s.P(projectId)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: rev, files: [{ file_id: big.file_id, version_id: big.version_id }] })).status, 200);
  const stored = path.join(s.root, ...c.relative_path.split('/'));
  fs.chmodSync(stored, 0o644);
  fs.writeFileSync(stored, '# Charlix\n'); // same size, other bytes
  const corrupt = await post(c);
  refusal(corrupt, 409, 'file_hash_mismatch');
  assert.not.ok(corrupt.headers['content-type']?.includes('zip'));
  fs.rmSync(stored);
  refusal(await post(c), 409, 'file_missing');
  assert.equal(await spoolLeft(), []);
});

test.run();
