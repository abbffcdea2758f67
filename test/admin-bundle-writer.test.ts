import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readBundle, type BundleSource } from '../src/admin/bundle.js';
import { writeBundle } from '../src/admin/bundle-writer.js';
import { COPY_CHUNK as READ_CHUNK } from '../src/admin/bundle-copiers.js';
import { fileHeader } from '../src/admin/tar-header.js';
import { tempDirs, waitFor } from './_setup.js';

const dirs = tempDirs();
test.after(() => dirs.cleanup());

const head = { format: 'svc-backup' as const, version: 1 as const, created_at_utc: '2025-01-01T00:00:00.000Z', svc_version: 'test', schema_version: 1, include_reports: false, vault: null, tables: {} };
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

function files(sizes: number[]): { sources: BundleSource[]; bytes: Buffer[] } {
  const dir = fs.mkdtempSync(path.join(dirs.root, 'src-'));
  const bytes = sizes.map((n) => crypto.randomBytes(n));
  const sources: BundleSource[] = bytes.map((b, i) => {
    const from = path.join(dir, `f${i}.bin`);
    fs.writeFileSync(from, b);
    return { path: `vault/f${i}.bin`, kind: 'vault', from };
  });
  sources.push({ path: 'database/svc.db', kind: 'database', from: sources[0]!.from });
  bytes.push(bytes[0]!);
  return { sources, bytes };
}

test('sizes around the read chunk, read in parallel, land in order with the right hashes; the bundle reads back and tar lists it', async () => {
  const { sources, bytes } = files([READ_CHUNK + 1, 0, 1, 511, 512, READ_CHUNK, 2 * READ_CHUNK + 513, 3 * READ_CHUNK - 1, 1000]);
  const out = path.join(dirs.root, 'order.tar');
  const progress: number[] = [];
  const w = await writeBundle(out, sources, head, (done) => progress.push(done));
  assert.equal(progress, sources.map((_, i) => i + 1));
  assert.equal(w.manifest.files.map((f) => f.path), sources.map((s) => s.path));
  assert.equal(w.manifest.files.map((f) => [f.size, f.sha256]), bytes.map((b) => [b.length, sha(b)]));
  assert.is(w.size, fs.statSync(out).size);
  assert.is(w.size % 512, 0);
  assert.not.ok(fs.existsSync(`${out}.partial`));
  assert.is(fs.statSync(out).mode & 0o777, 0o600);
  const read = await readBundle(out);
  assert.is(read.manifest_sha256, w.manifest_sha256);
  const listed = execFileSync('tar', ['-tf', out], { encoding: 'utf8' }).trim().split('\n');
  assert.equal(listed, [...sources.map((s) => s.path), 'manifest.json']);
  const extracted = path.join(dirs.root, 'x');
  fs.mkdirSync(extracted);
  execFileSync('tar', ['-xf', out, '-C', extracted]);
  sources.forEach((s, i) => assert.ok(fs.readFileSync(path.join(extracted, s.path)).equals(bytes[i]!), s.path));
});

test('a source waiting on `ready` is read only once it resolves; a failed one leaves no bundle', async () => {
  const { sources, bytes } = files([100, 200, 300]);
  const late = path.join(dirs.root, 'late.bin');
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  // A thenable, not a promise: the writer's wait on it is seen (a native promise would be awaited unseen).
  let waitedOn = false;
  const ready = { then: (ok: () => void, fail: (err: unknown) => void) => ((waitedOn = true), gate.then(ok, fail)) } as unknown as Promise<void>;
  sources.push({ path: 'database/late.bin', kind: 'report', from: late, ready });
  const writing = writeBundle(path.join(dirs.root, 'late.tar'), sources, head);
  await waitFor(() => waitedOn, 5000, 'the writer to wait on ready');
  fs.writeFileSync(late, 'made late');
  release();
  const w = await writing;
  assert.is(w.manifest.files.at(-1)!.sha256, sha(Buffer.from('made late')));
  assert.is(w.manifest.files.length, bytes.length + 1);

  const failed = files([10]).sources;
  failed.push({ path: 'reports/never.bin', kind: 'report', from: late, ready: Promise.reject(new Error('snapshot failed')) });
  const target = path.join(dirs.root, 'failed.tar');
  await writeBundle(target, failed, head).then(() => assert.unreachable('wrote'), (err: Error) => assert.is(err.message, 'snapshot failed'));
  assert.not.ok(fs.existsSync(target) || fs.existsSync(`${target}.partial`));
});

test('a missing source, a link and a folder are refused (409 backup_source_missing) and nothing is left', async () => {
  for (const make of [(p: string) => void p, (p: string) => fs.symlinkSync(files([5]).sources[0]!.from, p), (p: string) => fs.mkdirSync(p)]) {
    const { sources } = files([READ_CHUNK * 2, 7]);
    const odd = path.join(dirs.root, `odd-${crypto.randomBytes(4).toString('hex')}`);
    make(odd);
    sources.splice(1, 0, { path: 'vault/odd.pdf', kind: 'vault', from: odd });
    const target = path.join(dirs.root, `refused-${crypto.randomBytes(4).toString('hex')}.tar`);
    const err = await writeBundle(target, sources, head).then(
      () => null,
      (e: { status?: number; reason?: string }) => e,
    );
    assert.is(err?.status, 409);
    assert.is(err?.reason, 'backup_source_missing');
    assert.not.ok(fs.existsSync(target) || fs.existsSync(`${target}.partial`));
  }
});

test('an existing partial file is never overwritten (another backup may be writing it)', async () => {
  const { sources } = files([10]);
  const target = path.join(dirs.root, 'busy.tar');
  fs.writeFileSync(`${target}.partial`, 'someone else');
  await writeBundle(target, sources, head).then(() => assert.unreachable('wrote'), (e: NodeJS.ErrnoException) => assert.is(e.code, 'EEXIST'));
  assert.is(fs.readFileSync(`${target}.partial`, 'utf8'), 'someone else');
});

test('a bundle already at the target (finished by another writer after the caller looked) is never replaced', async () => {
  const { sources } = files([10]);
  const target = path.join(dirs.root, 'taken.tar');
  fs.writeFileSync(target, 'the other backup');
  await writeBundle(target, sources, head).then(() => assert.unreachable('wrote'), (e: NodeJS.ErrnoException) => assert.is(e.code, 'EEXIST'));
  assert.is(fs.readFileSync(target, 'utf8'), 'the other backup');
  assert.not.ok(fs.existsSync(`${target}.partial`));
});

test('long and non-ASCII names (ustar prefix, pax path) read back the same in tar-stream and GNU tar', async () => {
  const { sources } = files([3, 700, 1, 5]);
  const names = [`vault/${'a'.repeat(140)}.pdf`, `vault/${'d/'.repeat(70)}x.pdf`, `vault/files/${'é'.repeat(60)}/résumé-${'ü'.repeat(40)}.pdf`, `reports/${'r'.repeat(99)}`];
  names.forEach((n, i) => (sources[i]!.path = n));
  const out = path.join(dirs.root, 'names.tar');
  await writeBundle(out, sources, head);
  const read = await readBundle(out);
  assert.equal(read.manifest.files.map((f) => f.path), sources.map((s) => s.path));
  const listed = execFileSync('tar', ['-tf', out], { encoding: 'utf8' }).trim().split('\n');
  assert.equal(listed, [...sources.map((s) => s.path), 'manifest.json']);
});

test('tar headers: checksum, octal size, and a pax size record from 8 GiB on', () => {
  const h = fileHeader('vault/x.pdf', 1234, 0o640, 1_700_000_000);
  assert.is(h.length, 512);
  const sum = [...h].reduce((a, b, i) => a + (i >= 148 && i < 156 ? 32 : b), 0);
  assert.is(parseInt(h.subarray(148, 154).toString('ascii'), 8), sum);
  assert.is(parseInt(h.subarray(124, 135).toString('ascii'), 8), 1234);
  assert.is(h.subarray(257, 263).toString('ascii'), 'ustar\0');
  const big = fileHeader('database/svc.db', 2 ** 33 + 5, 0o600, 0);
  assert.is(big.length, 3 * 512);
  assert.is(String.fromCharCode(big[156]!), 'x');
  assert.match(big.subarray(512, 1024).toString('utf8'), /^\d+ size=8589934597\n/);
  assert.is(big[1024 + 124], 0x80, 'base-256 size in the ustar block');
});

test.run();
