/**
 * Hostile-input suite, backup bundles (see hostile-input.test.ts for the whole list): a real
 * bundle of a seeded installation, rewritten with one crafted tar entry — a name climbing out
 * with ../ (plain and in a pax path record), an absolute name, a symbolic link, a hard link, a
 * folder, a FIFO, a backslash name, a name twice — and a gzip bomb named as a bundle are
 * refused by verify and by restore (422 bundle_invalid) before anything is staged; whatever
 * was extracted before the crafted entry is removed, nothing lands outside svc's folders, and
 * the canary beside them is untouched. The entries that climb out are aimed at the canary, so
 * that a restore following them would write there.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Header } from 'tar-stream';
import { readPlan } from '../src/admin/restore/plan.js';
import { installationWithBundle, type Installation } from './_admin.js';
import { plantCanary, type Canary } from './_hostile.js';

/** A header as tar-stream's pack takes it (any field but the name may be left out). */
type EntryHeader = Partial<Header> & Pick<Header, 'name'>;

interface Entry {
  header: EntryHeader;
  body: Buffer;
}

let inst: Installation;
let bundle: string;
let canary: Canary;
let entries: Entry[];
let crafted: string;
let rootBefore: string[];

async function readEntries(file: string): Promise<Entry[]> {
  const tar = await import('tar-stream');
  const extract = tar.extract();
  const out: Entry[] = [];
  const reading = pipeline(fs.createReadStream(file), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    out.push({ header: { ...entry.header }, body: Buffer.concat(chunks) });
  }
  await reading;
  return out;
}

/** The real bundle's entries with `edit` applied (the manifest stays last and unchanged), written to crafted/<name>.tar. */
async function craft(name: string, edit: (files: Entry[]) => Entry[]): Promise<string> {
  const tar = await import('tar-stream');
  const manifest = entries[entries.length - 1]!;
  assert.is(manifest.header.name, 'manifest.json');
  const pack = tar.pack();
  const file = path.join(crafted, `${name}.tar`);
  const writing = pipeline(pack, fs.createWriteStream(file));
  for (const e of [...edit(entries.slice(0, -1)), manifest]) {
    await new Promise<void>((resolve, reject) => pack.entry({ ...e.header, size: e.body.length }, e.body, (err) => (err ? reject(err) : resolve())));
  }
  pack.finalize();
  await writing;
  return file;
}

const file = (name: string, body: string | Buffer, extra: Partial<Header> = {}): Entry => ({ header: { name, type: 'file', mode: 0o600, mtime: new Date(), ...extra }, body: Buffer.from(body) });
const special = (name: string, type: Header['type'], linkname?: string): Entry => ({ header: { name, type, mode: 0o777, mtime: new Date(), ...(linkname ? { linkname } : {}) }, body: Buffer.alloc(0) });
/** After every real file: what the restore extracted before reaching the crafted entry must be removed. */
const atEnd = (hostile: Entry) => (files: Entry[]) => [...files, hostile];

test.before(async () => {
  ({ inst, bundle } = await installationWithBundle());
  entries = await readEntries(bundle);
  crafted = path.join(inst.t.dirs.root, 'crafted');
  fs.mkdirSync(crafted);
  canary = plantCanary(inst.t.dirs.root);
  rootBefore = fs.readdirSync(inst.t.dirs.root).sort();
});
test.after(() => inst.close());

const staged = () => fs.existsSync(path.join(inst.t.dirs.dataDir, 'restore-staged')) || fs.readdirSync(inst.parent).some((n) => n.startsWith('.svc-restore-'));

/** verify and restore both refuse `file` as bundle_invalid (`message` matched); nothing staged, nothing outside, the canary whole. */
async function refused(bundleFile: string, message: RegExp) {
  const { t } = inst;
  const vaultBefore = fs.readdirSync(inst.vaultRoot, { recursive: true }).sort();
  const verify = await t.request('POST', '/api/backup/verify', { body: { path: bundleFile } });
  assert.equal([verify.status, verify.json().detail?.reason], [422, 'bundle_invalid'], verify.text);
  assert.match(verify.json().detail.message, message);
  const restore = await t.request('POST', '/api/restore', { body: { path: bundleFile, confirm: 'restore', vault_parent: inst.parent } });
  assert.equal([restore.status, restore.json().detail?.reason], [422, 'bundle_invalid'], restore.text);
  assert.match(restore.json().detail.message, message);
  assert.is(readPlan(t.ctx), null, 'no restore staged');
  assert.not.ok(staged(), 'what was extracted before the crafted entry is gone');
  assert.equal(fs.readdirSync(inst.t.dirs.root).sort(), rootBefore, 'nothing new beside svc\'s folders');
  assert.equal(fs.readdirSync(inst.vaultRoot, { recursive: true }).sort(), vaultBefore, 'the vault is untouched');
  canary.check();
}

// bundle.ts's words for an entry it will not extract: not a plain file, or a name that is not safe (bundle-names.ts).
const UNSAFE = /holds an entry (that is not a plain file|whose name )/;

test('the unaltered bundle verifies (the crafted ones below differ from it by one entry)', async () => {
  const copy = await craft('unaltered', (files) => files);
  const r = await inst.t.request('POST', '/api/backup/verify', { body: { path: copy } });
  assert.is(r.status, 200, r.text);
  canary.check();
});

test('names climbing out with ../ toward the canary, from each folder a restore extracts into, are refused', async () => {
  // From restore-staged/reports/, from the vault's staging folder in the parent, and plainly.
  for (const name of ['reports/../../../precious/planted.txt', 'vault/../../precious/planted.txt', '../precious/planted.txt', 'database/../../../precious/planted.txt']) {
    await refused(await craft('dotdot', atEnd(file(name, 'written through ../\n'))), UNSAFE);
  }
});

test('a ../ name carried in a pax path record (the ustar name says PaxHeader) is refused', async () => {
  await refused(await craft('pax', atEnd(file('reports/../../../precious/planted.txt', 'pax\n', { pax: { comment: 'svc' } }))), UNSAFE);
});

test('absolute names, one of them the canary\'s own file, are refused', async () => {
  for (const name of [path.join(canary.dir, 'thesis.tex'), '/tmp/svc-hostile-planted.txt']) {
    await refused(await craft('absolute', atEnd(file(name, 'overwritten\n'))), UNSAFE);
  }
  assert.not.ok(fs.existsSync('/tmp/svc-hostile-planted.txt'));
});

test('a symbolic link, a hard link, a folder and a FIFO entry are refused (a link to the canary is never made or followed)', async () => {
  const cases = [
    special('vault/files/escape', 'symlink', canary.dir),
    special('reports/execution-999.txt', 'link', path.join(canary.dir, 'thesis.tex')),
    special('vault/files/shadow', 'link', 'database/svc.db'),
    special('vault/files/newfolder', 'directory'),
    special('reports/pipe', 'fifo'),
  ];
  for (const hostile of cases) await refused(await craft(`link-${hostile.header.type}`, atEnd(hostile)), UNSAFE);
  // A link first, then a file under it: had the link been made, the file would land in the canary.
  await refused(await craft('link-then-file', (files) => [...files, special('vault/escape', 'symlink', canary.dir), file('vault/escape/planted.txt', 'through the link\n')]), UNSAFE);
});

test('a backslash or NUL in a name is refused', async () => {
  // In a pax path record: a ustar name field would end at the NUL.
  for (const name of ['reports\\..\\..\\..\\precious\\planted.txt', 'reports/a\0b.txt']) await refused(await craft('odd-name', atEnd(file(name, 'x', { pax: { comment: 'svc' } }))), UNSAFE);
});

test('a name twice (the database again, other bytes; a vault file again) is refused, whichever copy the manifest matches', async () => {
  const vaultFile = entries.find((e) => e.header.name.startsWith('vault/files/'))!;
  await refused(await craft('dup-db', atEnd(file('database/svc.db', 'not the database'))), /one name twice/);
  await refused(await craft('dup-db-first', (files) => [file('database/svc.db', 'not the database'), ...files]), /one name twice/);
  await refused(await craft('dup-vault', atEnd({ header: { ...vaultFile.header }, body: vaultFile.body })), /one name twice/);
  // A second manifest ahead of the real one: the real one is then an entry after the manifest.
  await refused(await craft('dup-manifest', atEnd(file('manifest.json', '{}'))), /entries after its manifest/);
});

test('a gzip bomb named as a bundle (.tar.gz, 16 GiB inflated) is refused at once as not a tar archive: svc never inflates a bundle', async () => {
  const member = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  const bomb = path.join(crafted, 'backup.tar.gz');
  fs.writeFileSync(bomb, Buffer.concat(Array(1024).fill(member)));
  const started = Date.now();
  await refused(bomb, /not a readable tar archive/);
  assert.ok(Date.now() - started < 10_000, `refused without inflating (${Date.now() - started} ms)`);
});

test.run();
