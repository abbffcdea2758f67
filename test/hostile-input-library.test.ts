/**
 * Hostile-input suite, the Library vault (see hostile-input.test.ts for the whole list): a
 * retained file swapped for a symbolic link or a hard link to a canary file with the very
 * same bytes (so only the link itself can give it away), a FIFO in its place or among the
 * vault's folders, a file folder, the files/ folder and the vault folder itself swapped for
 * links into the canary; and `svc library import` handed a FIFO, a symbolic link and a hard
 * link. Managed access refuses each (409 unsafe_path or a blocked import) and never follows,
 * copies, chmods or writes through it; nothing hangs; the source files are copied, never
 * linked; the canary beside svc's folders stays whole and the vault intact.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkLibrary } from '../src/library/index.js';
import { refusal, startLibraryServer, type LibraryServer } from './_library.js';
import { plantCanary, type Canary } from './_hostile.js';
import { runCli } from './_setup.js';

let s: LibraryServer;
let canary: Canary;
/** A file imported with exactly the bytes of the canary's thesis.tex. */
let f: { file_id: string; version_id: string; relative_path: string };
let canaryFile: string;
let vaultBefore: string[];

const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

test.before(async () => {
  s = await startLibraryServer();
  canary = plantCanary(s.t.dirs.root);
  canaryFile = path.join(canary.dir, 'thesis.tex');
  const r = await s.importBytes('thesis-copy.txt', fs.readFileSync(canaryFile));
  assert.is(r.status, 201, r.text);
  f = r.json().file;
  vaultBefore = listing();
});
test.after(() => s.close());
test.after.each(async () => {
  canary.check();
  assert.equal(listing(), vaultBefore, 'the vault is as it was');
  assert.is((await open()).status, 200, 'the vault works again');
  assert.equal(checkLibrary(s.t.ctx).problems, []);
});

/** Every entry under the vault folder with its type, mode and link count. */
function listing(): string[] {
  return (fs.readdirSync(s.root, { recursive: true }) as string[]).sort().map((rel) => {
    const st = fs.lstatSync(path.join(s.root, rel));
    return `${rel} ${st.mode.toString(8)} ${st.nlink} ${st.size}`;
  });
}

const open = () => s.post(`/api/library/files/${f.file_id}/open`, { expected_vault_id: s.vaultId, expected_version_id: f.version_id });
const text = () => s.get(`/api/library/files/${f.file_id}/text?expected_vault_id=${s.vaultId}&expected_version_id=${f.version_id}`);
const stored = () => path.join(s.root, f.relative_path);
const kinds = () => checkLibrary(s.t.ctx).problems.map((p) => `${p.kind} ${p.path}`);
const CANARY_WORDS = 'years of work';

/** Plant something where `target` is for the length of `attack` (the original waits outside the vault), then put the original back. */
async function swapped(target: string, plant: (at: string) => void, attack: () => Promise<void>) {
  const aside = path.join(s.t.dirs.root, 'aside');
  fs.renameSync(target, aside);
  try {
    plant(target);
    await attack();
  } finally {
    fs.rmSync(target, { force: true });
    fs.renameSync(aside, target);
  }
}

/** open, text and a new import are all refused; no answer carries the canary's words or its path. */
async function allRefused(openReason: string, unsafe: string | undefined, importReason: string) {
  const opened = await open();
  refusal(opened, 409, openReason, s.root);
  if (unsafe) assert.is(opened.json().detail.unsafe, unsafe);
  const read = await text();
  refusal(read, 409, openReason);
  const imported = await s.importBytes('new.txt', 'new bytes\n');
  refusal(imported, 409, importReason);
  for (const r of [opened, read, imported]) assert.not.ok(r.text.includes(CANARY_WORDS) || r.text.includes(canary.dir), r.text);
}

test('a retained file swapped for a symbolic link to a canary file with the same bytes is refused, never followed', async () => {
  await swapped(stored(), (at) => fs.symlinkSync(canaryFile, at), async () => {
    await allRefused('unsafe_path', 'symlink', 'import_blocked_unsafe');
    assert.equal(kinds(), [`unsafe ${f.relative_path}`]);
  });
});

test('a retained file swapped for a hard link to a canary file with the same bytes is refused (only the link count differs); the canary is not made read-only', async () => {
  await swapped(stored(), (at) => fs.linkSync(canaryFile, at), async () => {
    await allRefused('unsafe_path', 'hard_linked', 'import_blocked_unsafe');
    assert.equal(kinds(), [`unsafe ${f.relative_path}`]);
  });
});

test('a FIFO in place of a retained file, or dropped into files/, is refused at once (no read blocks on it)', async () => {
  if (!hasMkfifo) return void console.log('  (mkfifo not found: FIFO cases skipped)');
  await swapped(stored(), (at) => execFileSync('mkfifo', [at]), async () => {
    await allRefused('unsafe_path', 'not_regular', 'import_blocked_unsafe');
  });
  const dropped = path.join(s.root, 'files', 'pipe');
  execFileSync('mkfifo', [dropped]);
  try {
    const r = await s.importBytes('new.txt', 'new bytes\n');
    assert.is(r.status, 409, r.text);
    assert.match(kinds().join('\n'), /files\/pipe/);
  } finally {
    fs.rmSync(dropped);
  }
});

test('a file folder, files/ and the vault folder swapped for links into the canary: refused, nothing written through them', async () => {
  const folder = path.dirname(stored());
  await swapped(folder, (at) => fs.symlinkSync(canary.dir, at), async () => {
    await allRefused('unsafe_path', 'symlink', 'import_blocked_unsafe');
  });
  await swapped(path.join(s.root, 'files'), (at) => fs.symlinkSync(canary.dir, at), async () => {
    await allRefused('unsafe_path', 'symlink', 'unsafe_path');
    // The inventory is the catalog's (it opens no file): nothing of the canary can be in it.
    const inventory = await s.get(`/api/library/export?expected_vault_id=${s.vaultId}&format=json`);
    assert.not.ok(inventory.text.includes(CANARY_WORDS) || inventory.text.includes(canary.dir));
  });
  // The vault folder itself, as `svc library` in another process sees it too.
  await swapped(s.root, (at) => fs.symlinkSync(canary.dir, at), async () => {
    refusal(await open(), 409, 'unsafe_path', s.root);
    refusal(await s.importBytes('new.txt', 'new bytes\n'), 409, 'unsafe_path', s.root);
    const incoming = path.join(s.t.dirs.root, 'incoming.txt');
    fs.writeFileSync(incoming, 'bytes for the vault\n');
    const cli = await runCli(['--json', 'library', 'import', incoming], { env: s.t.dirs.env, timeoutMs: 15_000 });
    // Refused before any file is read: the vault folder is not one the Library opens.
    const answer = JSON.parse(cli.stdout);
    assert.is(answer.error, 'unsafe_path', cli.stdout);
    assert.match(answer.message, /symbolic link/);
    const check = await runCli(['library', 'check'], { env: s.t.dirs.env, timeoutMs: 15_000 });
    assert.is(check.code, 4, check.stderr);
    assert.match(check.stderr, /The vault folder is a symbolic link; the Library refuses it and does not follow/);
  });
});

test('svc library import of a FIFO is refused without blocking; a symbolic or hard link is copied into a fresh owned file, the original left alone', async () => {
  const sources = path.join(s.t.dirs.root, 'sources');
  fs.mkdirSync(sources, { recursive: true });
  // soft.txt points at the canary's file, whose bytes the vault already holds (as thesis-copy.txt).
  const soft = path.join(sources, 'soft.txt');
  const seed = path.join(sources, 'seed.md');
  const hard = path.join(sources, 'hard.md');
  fs.writeFileSync(seed, '# linked notes\n', { mode: 0o644 });
  fs.symlinkSync(canaryFile, soft);
  fs.linkSync(seed, hard);
  const args = ['--json', 'library', 'import', soft, hard];
  if (hasMkfifo) {
    execFileSync('mkfifo', [path.join(sources, 'pipe.md')]);
    args.push(path.join(sources, 'pipe.md'));
  }
  const r = await runCli(args, { env: s.t.dirs.env, timeoutMs: 15_000 });
  const report = JSON.parse(r.stdout);
  const outcomes = report.results.map((x: any) => [x.name, x.outcome, x.reason ?? null]);
  assert.equal(outcomes.slice(0, 2), [['soft.txt', 'duplicate', null], ['hard.md', 'created', null]]);
  assert.is(report.results[0].file_id, f.file_id, 'the link was read as the file it names, nothing more');
  if (hasMkfifo) assert.equal(outcomes[2], ['pipe.md', 'refused', 'source_not_file']);
  const copy = report.results[1];
  const retained = fs.lstatSync(path.join(s.root, 'files', copy.file_id, `${copy.version_id}.md`));
  assert.ok(retained.isFile() && retained.nlink === 1, 'a fresh file, not a link');
  assert.is.not(retained.ino, fs.statSync(hard).ino);
  assert.equal([fs.statSync(seed).mode & 0o777, fs.statSync(seed).nlink], [0o644, 2], 'the original keeps its mode and its two names');
  // The imports changed the vault on purpose: the checks after each test start from here.
  vaultBefore = listing();
});

test.run();
