/**
 * The limits of spec 2 that had no test at one side of their bound: Evidence
 * and answer JSON bodies at most 256 KiB, the bundle's 4 MiB manifest and
 * 4 MiB notes (scaled), the PDF reader's 100 form invocations (scaled), the
 * 20,000-codepoint note body on edit, the bundle's 20 file versions. Each
 * bound: the edge accepted, one past refused with the exact status and reason.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { DEFAULT_EVIDENCE_LIMITS } from '../src/evidence/limits.js';
import { evidenceOf } from '../src/evidence/service.js';
import { LIB_HEADERS, refusal } from './_library.js';
import { startEvidenceServer, type EvidenceServer, type FileRef } from './_evidence.js';
import { pdfFromObjects } from './_pdf.js';

let s: EvidenceServer;
let projectId: string;
let a: FileRef;
let noteId: number;

test.before(async () => {
  s = await startEvidenceServer();
  projectId = (await s.project('Limits')).project_id;
  a = await s.file('a.txt', 'Alpha evidence\n');
  await s.add(projectId, a);
  const created = await s.call('POST', `${s.P(projectId)}/notes`, { expected_vault_id: s.vaultId, file_id: a.file_id, version_id: a.version_id, expected_revision: await s.revision(projectId), kind: 'plain', body: 'A saved note.', anchor: null });
  assert.is(created.status, 201, created.text);
  noteId = created.json().note.note_id;
});
test.after(() => s.close());

const limits = () => evidenceOf(s.t.ctx).limits;

/** `json` padded with trailing whitespace (still valid JSON) to exactly `bytes` bytes. */
const padded = (json: unknown, bytes: number) => {
  const text = JSON.stringify(json);
  return text + ' '.repeat(bytes - Buffer.byteLength(text));
};

test('the spec limits are the defaults: 256 KiB JSON bodies, 4 MiB manifest and notes, 100 forms', () => {
  assert.is(DEFAULT_EVIDENCE_LIMITS.jsonBodyBytes, 256 * 1024);
  assert.is(DEFAULT_EVIDENCE_LIMITS.bundleManifestBytes, 4 * 1024 * 1024);
  assert.is(DEFAULT_EVIDENCE_LIMITS.bundleNotesBytes, 4 * 1024 * 1024);
  assert.is(DEFAULT_EVIDENCE_LIMITS.pdfForms, 100);
});

test('Evidence JSON bodies: exactly 256 KiB accepted, one byte more is 413 body_too_large', async () => {
  const body = { expected_vault_id: s.vaultId, name: 'Padded' };
  const ok = await s.call('POST', s.P(), padded(body, 256 * 1024));
  assert.is(ok.status, 201, ok.text);
  refusal(await s.call('POST', s.P(), padded(body, 256 * 1024 + 1)), 413, 'body_too_large');
});

test('answer JSON bodies: one byte over 256 KiB is 413 body_too_large, before the preview is read', async () => {
  const body = { expected_vault_id: s.vaultId };
  refusal(await s.call('POST', `${s.P(projectId)}/answer-previews`, padded(body, 256 * 1024 + 1)), 413, 'body_too_large');
  refusal(await s.call('POST', `${s.P(projectId)}/answers`, padded(body, 256 * 1024 + 1)), 413, 'body_too_large');
  // At the limit the body is read and judged on its fields instead.
  assert.is.not((await s.call('POST', `${s.P(projectId)}/answer-previews`, padded(body, 256 * 1024))).status, 413);
});

test('bundle manifest and notes (scaled): a part of exactly the limit is bundled, one byte less refuses 413 bundle_limit', async () => {
  const body = async () => ({ expected_vault_id: s.vaultId, expected_revision: await s.revision(projectId), files: [{ file_id: a.file_id, version_id: a.version_id }] });
  const post = async () => s.call('POST', `${s.P(projectId)}/bundle`, await body());
  const first = await postBytes(`${s.P(projectId)}/bundle`, await body());
  assert.is(first.status, 200);
  const sizes = zipSizes(first.bytes);
  const manifest = sizes.get('manifest.json')!;
  const notes = sizes.get('notes.md')!;
  assert.ok(manifest > 0 && notes > 0);
  try {
    limits().bundleManifestBytes = manifest;
    limits().bundleNotesBytes = notes;
    assert.is((await post()).status, 200, 'both parts exactly at their limits');
    limits().bundleManifestBytes = manifest - 1;
    const overManifest = await post();
    refusal(overManifest, 413, 'bundle_limit');
    assert.equal([overManifest.json().detail.part, overManifest.json().detail.limit_bytes], ['manifest.json', manifest - 1]);
    limits().bundleManifestBytes = manifest;
    limits().bundleNotesBytes = notes - 1;
    const overNotes = await post();
    refusal(overNotes, 413, 'bundle_limit');
    assert.is(overNotes.json().detail.part, 'notes.md');
  } finally {
    limits().bundleManifestBytes = DEFAULT_EVIDENCE_LIMITS.bundleManifestBytes;
    limits().bundleNotesBytes = DEFAULT_EVIDENCE_LIMITS.bundleNotesBytes;
  }
});

test('bundle selection: 20 file versions (the default limit) are bundled; 21 are a resource limit, 413 bundle_limit, not malformed input', async () => {
  const project = (await s.project('Twenty-one')).project_id;
  const files: FileRef[] = [];
  for (let i = 1; i <= 21; i++) {
    const f = await s.file(`bundle-${i}.txt`, `Bundle file ${i}\n`);
    await s.add(project, f);
    files.push(f);
  }
  const post = async (chosen: FileRef[]) =>
    postBytes(`${s.P(project)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: await s.revision(project), files: chosen.map((f) => ({ file_id: f.file_id, version_id: f.version_id })) });
  assert.is(DEFAULT_EVIDENCE_LIMITS.bundleFilesMax, 20);
  assert.is((await post(files.slice(0, 20))).status, 200);
  const over = await s.call('POST', `${s.P(project)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: await s.revision(project), files: files.map((f) => ({ file_id: f.file_id, version_id: f.version_id })) });
  refusal(over, 413, 'bundle_limit');
  assert.equal([over.json().detail.part, over.json().detail.limit], ['files', 20]);
  // An empty selection stays malformed input.
  refusal(await s.call('POST', `${s.P(project)}/bundle`, { expected_vault_id: s.vaultId, expected_revision: await s.revision(project), files: [] }), 422, 'selection_invalid');
});

test('note edit: a body of 20,000 codepoints (astral count one) is saved, 20,001 is 422 body_invalid', async () => {
  const edit = async (body: string, noteRevision: number) =>
    s.call('PATCH', `${s.P(projectId)}/notes/${noteId}`, { expected_vault_id: s.vaultId, expected_revision: await s.revision(projectId), expected_note_revision: noteRevision, body });
  const max = await edit('😀'.repeat(20_000), 1);
  assert.is(max.status, 200, max.text);
  assert.is(max.json().note.revision, 2);
  refusal(await edit('😀'.repeat(20_001), 2), 422, 'body_invalid');
  const saved = (await s.call('GET', `${s.P(projectId)}/notes?${s.V}`)).json().items.find((n: any) => n.note_id === noteId);
  assert.equal([saved.revision, [...saved.body].length], [2, 20_000]);
});

/** POST and keep the raw bytes (a ZIP is not text). */
function postBytes(path: string, body: unknown): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: s.t.port, method: 'POST', path, agent: false,
        headers: { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, 'content-type': 'application/json', ...LIB_HEADERS } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Uncompressed sizes of a ZIP's entries, from its central directory. */
function zipSizes(zip: Buffer): Map<string, number> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    assert.is(zip.readUInt32LE(at), 0x02014b50);
    const size = zip.readUInt32LE(at + 24);
    const nameLen = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    out.set(zip.subarray(at + 46, at + 46 + nameLen).toString('utf8'), size);
    at += 46 + nameLen + extra + comment;
  }
  return out;
}

/** A one-page PDF whose page draws its text, then invokes one form XObject `forms` times. */
function formsPdf(forms: number): Buffer {
  const content = `BT /F1 12 Tf 72 720 Td (form page) Tj ET\n${'q /X0 Do Q\n'.repeat(forms)}`;
  const form = '0 0 m 1 1 l S';
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /X0 6 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Length ${form.length} >>\nstream\n${form}\nendstream`,
  ]);
}

test('PDF form invocations (scaled to 3): a page invoking 3 forms is read, 4 is limit_exceeded form_invocations', async () => {
  const read = async (name: string, bytes: Buffer) => {
    const f = await s.file(name, bytes);
    await s.add(projectId, f);
    const r = await s.call('GET', `${s.P(projectId)}/reader/${f.file_id}?${s.V}&version_id=${f.version_id}&page=1&representation=text`);
    assert.is(r.status, 200, r.text);
    return r.json();
  };
  try {
    limits().pdfForms = 3;
    const ok = await read('forms3.pdf', formsPdf(3));
    assert.is(ok.status, 'extracted', JSON.stringify(ok));
    assert.is(ok.text, 'form page');
    const over = await read('forms4.pdf', formsPdf(4));
    assert.is(over.status, 'limit_exceeded', JSON.stringify(over));
    assert.is(over.reason, 'form_invocations');
    assert.is(over.text, null);
    assert.is(over.page_count, 1);
  } finally {
    limits().pdfForms = DEFAULT_EVIDENCE_LIMITS.pdfForms;
  }
});

test.run();
