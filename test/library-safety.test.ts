import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkLibrary } from '../src/library/index.js';
import { refusal, startLibraryServer, type LibraryServer } from './_library.js';

let s: LibraryServer;
let f: { file_id: string; version_id: string; relative_path: string };
const V = () => `expected_vault_id=${s.vaultId}`;

test.before(async () => {
  s = await startLibraryServer();
  f = (await s.importBytes('guarded.txt', 'guarded bytes\n')).json().file;
});
test.after(() => s.close());

const open = () => s.post(`/api/library/files/${f.file_id}/open`, { expected_vault_id: s.vaultId, expected_version_id: f.version_id });
const text = () => s.get(`/api/library/files/${f.file_id}/text?${V()}&expected_version_id=${f.version_id}`);
const folder = () => path.join(s.root, 'files', f.file_id);
const stored = () => path.join(s.root, f.relative_path);
const kinds = () => checkLibrary(s.t.ctx).problems.map((p) => p.kind);

async function healthy() {
  assert.is((await open()).status, 200);
  assert.equal(kinds(), []);
}

test('a symlinked files/<file_uuid>/ subfolder is refused everywhere, never followed', async () => {
  const elsewhere = path.join(s.t.dirs.root, 'elsewhere');
  fs.renameSync(folder(), elsewhere);
  fs.symlinkSync(elsewhere, folder());
  try {
    const r = await open();
    refusal(r, 409, 'unsafe_path', s.root);
    assert.is(r.json().detail.unsafe, 'symlink');
    refusal(await text(), 409, 'unsafe_path');
    refusal(await s.importBytes('new.txt', 'new bytes'), 409, 'import_blocked_unsafe', s.root);
    assert.equal(kinds(), ['unsafe']);
  } finally {
    fs.unlinkSync(folder());
    fs.renameSync(elsewhere, folder());
  }
  await healthy();
});

test('a symlinked files/ folder or vault root is refused', async () => {
  const files = path.join(s.root, 'files');
  const moved = path.join(s.t.dirs.root, 'files-moved');
  fs.renameSync(files, moved);
  fs.symlinkSync(moved, files);
  try {
    refusal(await open(), 409, 'unsafe_path');
    refusal(await s.importBytes('new.txt', 'new bytes'), 409, 'unsafe_path');
  } finally {
    fs.unlinkSync(files);
    fs.renameSync(moved, files);
  }
  const movedRoot = s.root + '-real';
  fs.renameSync(s.root, movedRoot);
  fs.symlinkSync(movedRoot, s.root);
  try {
    refusal(await open(), 409, 'unsafe_path');
  } finally {
    fs.unlinkSync(s.root);
    fs.renameSync(movedRoot, s.root);
  }
  await healthy();
});

test('a retained file replaced by a symlink, a hard-linked one and a FIFO are refused', async () => {
  const copy = path.join(s.t.dirs.root, 'copy.txt');
  fs.copyFileSync(stored(), copy);
  fs.renameSync(stored(), stored() + '.aside');
  try {
    fs.symlinkSync(copy, stored());
    const r = await open();
    refusal(r, 409, 'unsafe_path');
    assert.is(r.json().detail.unsafe, 'symlink');
    fs.unlinkSync(stored());
    execFileSync('mkfifo', [stored()]);
    const fifo = await open();
    refusal(fifo, 409, 'unsafe_path');
    assert.is(fifo.json().detail.unsafe, 'not_regular');
    refusal(await s.importBytes('new.txt', 'new bytes'), 409, 'import_blocked_unsafe');
    fs.unlinkSync(stored());
  } finally {
    fs.renameSync(stored() + '.aside', stored());
  }
  const hardLink = path.join(s.t.dirs.root, 'hard.txt');
  fs.linkSync(stored(), hardLink);
  try {
    const r = await open();
    refusal(r, 409, 'unsafe_path');
    assert.is(r.json().detail.unsafe, 'hard_linked');
    refusal(await text(), 409, 'unsafe_path');
    refusal(await s.importBytes('new.txt', 'new bytes'), 409, 'import_blocked_unsafe');
  } finally {
    fs.unlinkSync(hardLink);
  }
  await healthy();
});

test('a retained size that differs from the catalog blocks imports; so does a missing file', async () => {
  fs.chmodSync(stored(), 0o644);
  fs.appendFileSync(stored(), 'grown');
  try {
    const r = await s.importBytes('new.txt', 'new bytes');
    refusal(r, 409, 'import_blocked_size_mismatch', s.root);
    assert.match(r.json().detail.message, /svc library check/);
    assert.equal(r.json().detail.paths, [f.relative_path]);
    assert.equal(kinds(), ['size_mismatch']);
  } finally {
    fs.writeFileSync(stored(), 'guarded bytes\n');
    fs.chmodSync(stored(), 0o444);
  }
  const aside = path.join(s.t.dirs.root, 'aside.txt');
  fs.renameSync(stored(), aside);
  try {
    refusal(await s.importBytes('new.txt', 'new bytes'), 409, 'import_blocked_missing');
    refusal(await open(), 409, 'file_missing');
    assert.equal(kinds(), ['missing']);
  } finally {
    fs.renameSync(aside, stored());
  }
  await healthy();
});

test('same size, other bytes: check finds the hash mismatch; check changes nothing', async () => {
  fs.chmodSync(stored(), 0o644);
  fs.writeFileSync(stored(), 'Guarded bytes\n');
  try {
    const listing = () => execFileSync('ls', ['-laR', '--time-style=full-iso', s.root]).toString();
    const before = listing();
    const report = checkLibrary(s.t.ctx);
    assert.is(report.ok, false);
    assert.equal(report.problems.map((p) => [p.kind, p.path]), [['hash_mismatch', f.relative_path]]);
    assert.is(listing(), before, 'check does not touch the vault');
  } finally {
    fs.writeFileSync(stored(), 'guarded bytes\n');
    fs.chmodSync(stored(), 0o444);
  }
  await healthy();
});

test('check also looks inside recorded folders: an extra file there is an orphan', async () => {
  const extra = path.join(folder(), 'extra.pdf');
  fs.writeFileSync(extra, '%PDF-1.4 dropped in by hand');
  try {
    const report = checkLibrary(s.t.ctx);
    assert.equal(report.problems.map((p) => [p.kind, p.path]), [['orphan', `files/${f.file_id}/extra.pdf`]]);
  } finally {
    fs.unlinkSync(extra);
  }
  await healthy();
});

test.run();
