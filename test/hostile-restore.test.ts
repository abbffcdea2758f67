/**
 * A restore never writes outside the vault parent the user named (issue 29):
 * crafted bundles whose manifest or entries name a folder or file outside
 * their root are refused by restore and by verify in the same words, stage
 * nothing, and leave the canary folders beside the vault parent and the data
 * dir as they were, also after the next start. A plan staged unchecked (by
 * an older svc) is not applied at that start either.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { readPlan, stageRestore } from '../src/admin/restore.js';
import type { Manifest } from '../src/admin/bundle.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startServer } from '../server/listen.js';
import { installationWithBundle, restart, tableFingerprint, treeFingerprint, type Installation } from './_admin.js';
import { plantCanary, type Canary } from './_hostile.js';
import { runCliCaptured } from './_cli.js';

let inst: Installation;
let bundle: string;
let canaries: Canary[];
let vaultId: string;
test.before(async () => {
  ({ inst, bundle } = await installationWithBundle());
  // Beside the vault parent (root/parent) and beside the data dir (root/data): where "../precious" and "../x" lead.
  canaries = [plantCanary(inst.t.dirs.root, 'precious'), plantCanary(inst.t.dirs.root, 'x')];
  vaultId = path.basename(inst.vaultRoot).slice('svc-library-'.length);
});
test.after(() => inst.close());

const checkCanaries = () => canaries.forEach((c) => c.check());
const dataDir = () => inst.t.dirs.dataDir;
const nothingStaged = (what: string) => {
  assert.not.ok(fs.existsSync(path.join(dataDir(), 'restore-staged')), `${what}: no staging folder`);
  assert.not.ok(fs.existsSync(path.join(dataDir(), 'restore-staging.lock')), `${what}: no staging lock`);
  assert.equal(fs.readdirSync(inst.parent).filter((n) => n.startsWith('.svc-restore-')), [], `${what}: no vault staging copy`);
  assert.is(readPlan(inst.t.ctx), null, `${what}: no plan`);
};

interface Entry {
  name: string;
  bytes: Buffer;
}

/** The good bundle rewritten: `edit` changes its manifest and entries (entries keep their order; the manifest stays last). */
async function crafted(edit: (m: Manifest, entries: Entry[]) => void): Promise<string> {
  const entries: Entry[] = [];
  const extract = tar.extract();
  const reading = pipeline(fs.createReadStream(bundle), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
  }
  await reading;
  const manifestEntry = entries.pop()!;
  assert.is(manifestEntry.name, 'manifest.json');
  const manifest = JSON.parse(manifestEntry.bytes.toString('utf8')) as Manifest;
  edit(manifest, entries);
  const file = path.join(inst.t.dirs.root, `crafted-${crypto.randomBytes(4).toString('hex')}.tar`);
  const pack = tar.pack();
  const writing = pipeline(pack, fs.createWriteStream(file));
  for (const e of [...entries, { name: 'manifest.json', bytes: Buffer.from(JSON.stringify(manifest)) }]) pack.entry({ name: e.name, mode: 0o600 }, e.bytes);
  pack.finalize();
  await writing;
  return file;
}

/** Rename one file of the bundle, in its entry and in the manifest alike, or (manifestOnly) in the manifest only. */
const renamed = (from: RegExp, to: string, manifestOnly = false) => (m: Manifest, entries: Entry[]) => {
  const f = m.files.find((x) => from.test(x.path));
  assert.ok(f, `the bundle has a file matching ${from}`);
  if (!manifestOnly) entries.find((e) => e.name === f.path)!.name = to;
  f.path = to;
};
const vaultFolder = (name: string) => (m: Manifest) => {
  m.vault!.folder_name = name;
};

const OTHER_UUID = '0b7f6a52-3c1e-4d2f-9a8b-5c6d7e8f9a0b';

/** Each attack, the words its refusal must contain, and how the bundle is crafted. */
const attacks: [string, RegExp, (m: Manifest, entries: Entry[]) => void][] = [
  ['vault folder ".."', /vault folder "\.\.", not svc-library-/, vaultFolder('..')],
  ['vault folder "../x"', /vault folder "\.\.\/x"/, vaultFolder('../x')],
  ['vault folder "../precious"', /vault folder "\.\.\/precious"/, vaultFolder('../precious')],
  ['vault folder an absolute path', /vault folder "\/.*precious"/, (m) => vaultFolder(canaries[0]!.dir)(m)],
  ['vault folder "a/../../x"', /vault folder "a\/\.\.\/\.\.\/x"/, vaultFolder('a/../../x')],
  ['vault folder of another vault', /vault folder "svc-library-0b7f6a52/, vaultFolder(`svc-library-${OTHER_UUID}`)],
  ['vault folder with a NUL', /vault folder "svc-library-.*\\u0000/, (m) => vaultFolder(`svc-library-${m.vault!.vault_id}\0`)(m)],
  ['vault folder with a "/"', /vault folder "svc-library-[0-9a-f-]+\/nested"/, (m) => vaultFolder(`svc-library-${m.vault!.vault_id}/nested`)(m)],
  ['vault folder with a backslash', /vault folder "\.\.\\\\precious"/, vaultFolder('..\\precious')],
  ['vault id that is not a UUID', /vault id "\.\.\/\.\.\/precious" is not a lowercase UUID/, (m) => {
    m.vault!.vault_id = '../../precious';
    m.vault!.folder_name = 'svc-library-../../precious';
  }],
  ['vault entry climbing out with ".."', /entry whose name climbs out with "\.\."/, renamed(/^vault\/files\//, 'vault/../../precious/thesis.tex')],
  ['vault entry absolute', /entry whose name is absolute/, (m, e) => renamed(/^vault\/files\//, path.join(canaries[0]!.dir, 'thesis.tex'))(m, e)],
  ['vault entry with a backslash', /entry whose name holds a backslash/, renamed(/^vault\/files\//, 'vault\\..\\..\\precious\\thesis.tex')],
  ['manifest file path climbing out with ".."', /manifest lists a file whose name climbs out with "\.\."/, renamed(/^vault\/files\//, 'vault/../../precious/thesis.tex', true)],
  ['manifest file path absolute', /manifest lists a file whose name is absolute/, renamed(/^vault\/files\//, '/etc/passwd', true)],
  ['manifest file path with a NUL', /manifest lists a file whose name holds a NUL character/, renamed(/^vault\/files\//, 'vault/files/a\0b', true)],
  ['manifest file path with a backslash', /manifest lists a file whose name holds a backslash/, renamed(/^vault\/files\//, 'vault\\files\\x', true)],
  ['report path climbing out with ".."', /entry whose name climbs out/, renamed(/^reports\//, 'reports/../../precious/execution-1.txt')],
  ['report path in a subfolder', /"reports\/sub\/execution-1\.txt", which is not where a bundle keeps a file/, renamed(/^reports\//, 'reports/sub/execution-1.txt')],
  ['report file listed as a vault file', /as a vault file, but that is where a bundle keeps a report file/, (m) => {
    m.files.find((f) => f.kind === 'report')!.kind = 'vault';
  }],
  ['vault files without a vault', /lists the vault file .* but names no vault/, (m) => {
    m.vault = null;
  }],
];

test('crafted names are refused by restore and by verify in the same words (HTTP 422 bundle_invalid, CLI exit 4, one line); nothing is staged, nothing outside moves', async () => {
  const { t } = inst;
  const dbBefore = tableFingerprint(t.ctx.db);
  const vaultBefore = treeFingerprint(inst.vaultRoot);
  const parentBefore = fs.readdirSync(inst.parent).sort();
  for (const [what, words, edit] of attacks) {
    const file = await crafted(edit);
    const verify = await t.request('POST', '/api/backup/verify', { body: { path: file } });
    assert.is(verify.status, 422, `${what}: verify ${verify.text}`);
    assert.is(verify.json().detail.reason, 'bundle_invalid', what);
    const message = verify.json().detail.message as string;
    assert.match(message, words, `${what}: ${message}`);
    const restore = await t.request('POST', '/api/restore', { body: { path: file, confirm: 'restore', vault_parent: inst.parent } });
    assert.is(restore.status, 422, `${what}: restore ${restore.text}`);
    assert.equal(restore.json().detail, verify.json().detail, `${what}: restore refuses in verify's words`);
    nothingStaged(what);
    checkCanaries();
    const line = message.replace(/\.$/, '');
    for (const args of [['backup', 'verify', file], ['restore', file, '--vault-parent', inst.parent, '--yes']]) {
      const cli = await runCliCaptured(args, t.dirs.env);
      assert.is(cli.code, 4, `${what}: svc ${args[0]} ${cli.stderr}`);
      assert.is(cli.stdout, '', what);
      assert.is(cli.stderr.trim().split('\n').length, 1, `${what}: one line: ${cli.stderr}`);
      assert.ok(cli.stderr.includes(line), `${what}: svc ${args[0]} says ${JSON.stringify(line)}: ${cli.stderr}`);
    }
    nothingStaged(what);
    checkCanaries();
  }
  assert.equal(tableFingerprint(t.ctx.db), dbBefore, 'the database is untouched');
  assert.equal(treeFingerprint(inst.vaultRoot), vaultBefore, 'the vault is untouched');
  assert.equal(fs.readdirSync(inst.parent).sort(), parentBefore, 'nothing added to the vault parent');
});

test('a bundle whose manifest and database name different vaults is refused by restore (its vault folder would be another vault\'s); nothing is staged', async () => {
  const { t } = inst;
  const file = await crafted((m) => {
    m.vault!.vault_id = OTHER_UUID;
    m.vault!.folder_name = `svc-library-${OTHER_UUID}`;
  });
  const restore = await t.request('POST', '/api/restore', { body: { path: file, confirm: 'restore', vault_parent: inst.parent } });
  assert.is(restore.status, 422, restore.text);
  assert.is(restore.json().detail.reason, 'bundle_invalid');
  assert.match(restore.json().detail.message, new RegExp(`manifest names the Library vault ${OTHER_UUID}, but the database in the bundle records ${vaultId}`));
  nothingStaged('another vault');
  checkCanaries();
});

/** Start a server on the installation's folders (the start applies a staged restore), then stop it. */
async function startOnce(): Promise<string[]> {
  const warnings: string[] = [];
  const ctx = createContext({ env: inst.t.dirs.env, log: createLogger({ level: 'warn', sink: (line: string) => warnings.push(line) }) });
  try {
    const server = await startServer(ctx, { port: 0 });
    await server.close();
  } finally {
    await ctx.close();
  }
  return warnings;
}

test('after the refusals the next start restores nothing and the canaries stay', async () => {
  await startOnce();
  checkCanaries();
  nothingStaged('after a start');
});

test('a plan staged unchecked (as an older svc did) whose names lead outside is not applied at the next start: nothing moves, the database stays, svc starts', async () => {
  const { t } = inst;
  const made = await t.request('POST', '/api/configurations', { body: { name: 'made after the backup', config_type: 'dive', parameters: { repository: 'arxiv', query: 'late' } } });
  assert.is(made.status, 201, made.text);
  const outside = canaries[0]!.dir;
  const plans: [string, (plan: Record<string, unknown>) => void][] = [
    ['vault target beside the parent', (p) => (p.vault_target = outside)],
    ['vault target through ".."', (p) => (p.vault_target = `${inst.parent}/../precious`)],
    ['vault target named for no vault', (p) => (p.vault_target = path.join(path.dirname(p.vault_target as string), 'precious'))],
    ['vault staging that is a canary', (p) => (p.vault_staging = canaries[1]!.dir)],
    ['report name climbing out', (p) => (p.reports = ['../../../precious/thesis.tex'])],
    ['stamp climbing out', (p) => (p.stamp = '../../precious')],
  ];
  const vaultBefore = treeFingerprint(inst.vaultRoot);
  for (const [what, edit] of plans) {
    await stageRestore(t.ctx, { path: bundle, confirm: 'restore', vault_parent: inst.parent, accept_fk_violations: false });
    const planFile = path.join(dataDir(), 'restore-staged', 'staged.json');
    const plan = JSON.parse(fs.readFileSync(planFile, 'utf8')) as Record<string, unknown>;
    const staging = plan.vault_staging as string;
    edit(plan);
    fs.writeFileSync(planFile, JSON.stringify(plan));
    const warnings = await startOnce();
    checkCanaries();
    assert.ok(warnings.some((w) => w.includes('did not apply the staged restore')), `${what}: ${warnings.join('\n')}`);
    assert.is(t.ctx.db.prepare("SELECT COUNT(*) FROM saved_configurations WHERE name = 'made after the backup'").pluck().get(), 1, `${what}: the current database stays`);
    assert.not.ok(fs.existsSync(path.join(dataDir(), 'restore-undo')), `${what}: nothing set aside`);
    assert.equal(treeFingerprint(inst.vaultRoot), vaultBefore, `${what}: the vault stays`);
    assert.not.ok(fs.existsSync(path.join(dataDir(), 'restore-staged')), `${what}: the refused plan is forgotten`);
    if (staging !== plan.vault_staging) assert.not.ok(fs.existsSync(staging), `${what}: svc's own staging copy is removed`);
    nothingStaged(what);
  }
});

test('a good bundle still restores: the vault comes back as svc-library-<its id> inside the parent, and the canaries stay', async () => {
  const { t } = inst;
  const staged = await t.request('POST', '/api/restore', { body: { path: bundle, confirm: 'restore', vault_parent: inst.parent } });
  assert.is(staged.status, 202, staged.text);
  assert.is(staged.json().plan.vault_target, inst.vaultRoot);
  const vaultBefore = treeFingerprint(inst.vaultRoot);
  const next = await restart(t);
  try {
    assert.is(next.ctx.db.prepare("SELECT COUNT(*) FROM saved_configurations WHERE name = 'made after the backup'").pluck().get(), 0, 'the restored database is in place');
    assert.equal(treeFingerprint(inst.vaultRoot), vaultBefore, 'the restored vault holds the same files');
    assert.ok(fs.readdirSync(inst.parent).some((n) => n.startsWith(`svc-library-${vaultId}.before-restore-`)), 'the vault that was there is set aside, beside it');
    const status = await next.request('GET', '/api/backup/last');
    assert.is(status.status, 200, status.text);
    checkCanaries();
  } finally {
    await next.server.close();
    await next.ctx.close();
    inst.t.server.close = async () => {};
  }
});

test.run();
