/**
 * A restore never writes outside the vault parent the user named (issue 29):
 * crafted bundles whose manifest or entries name a folder or file outside
 * their root are refused by restore and by verify in the same words, stage
 * nothing, and leave the canary folders beside the vault parent and the data
 * dir as they were, also after the next start. A plan staged unchecked (by
 * an older svc) is not applied at that start either. And a restore never
 * replaces a file: a reports folder only the bundle's settings name gets no
 * report, and a report already where a restored one goes is kept with the
 * undo copy, so undoing the restore brings it back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Sqlite from 'better-sqlite3';
import tar from 'tar-stream';
import { readPlan } from '../src/admin/restore/plan.js';
import { stageRestore } from '../src/admin/restore/stage.js';
import { restoreStatus } from '../src/admin/restore/status.js';
import type { Manifest } from '../src/admin/bundle.js';
import { createContext, type Context } from '../src/context.js';
import { reportsDir } from '../src/executions/report.js';
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

/** Every entry of a bundle, in order. */
async function bundleEntries(file: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const extract = tar.extract();
  const reading = pipeline(fs.createReadStream(file), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
  }
  await reading;
  return entries;
}

/** The good bundle rewritten: `edit` changes its manifest and entries (entries keep their order; the manifest stays last). */
async function crafted(edit: (m: Manifest, entries: Entry[]) => void): Promise<string> {
  const entries = await bundleEntries(bundle);
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
/** Change the bundle's database with `sql` (its manifest entry follows: size, hash, row counts), as a crafted bundle's author can. */
const withDatabase = (sql: (db: Sqlite.Database) => void) => (m: Manifest, entries: Entry[]) => {
  const entry = entries.find((e) => e.name === 'database/svc.db')!;
  const file = path.join(inst.t.dirs.root, `crafted-${crypto.randomBytes(4).toString('hex')}.db`);
  fs.writeFileSync(file, entry.bytes);
  const db = new Sqlite(file);
  sql(db);
  for (const table of Object.keys(m.tables)) m.tables[table] = db.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get() as number;
  db.close();
  entry.bytes = fs.readFileSync(file);
  fs.rmSync(file);
  const listed = m.files.find((f) => f.path === entry.name)!;
  listed.size = entry.bytes.length;
  listed.sha256 = crypto.createHash('sha256').update(entry.bytes).digest('hex');
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

/** `use` on a context of its own over the installation's folders (the server's is stale after a restore). */
async function withContext<T>(use: (ctx: Context) => T | Promise<T>): Promise<T> {
  const ctx = createContext({ env: inst.t.dirs.env, log: createLogger({ level: 'warn', sink: () => {} }) });
  try {
    return await use(ctx);
  } finally {
    await ctx.close();
  }
}
const stage = (file: string) => withContext((ctx) => stageRestore(ctx, { path: file, confirm: 'restore', vault_parent: inst.parent, accept_fk_violations: false }));
const reportName = () => `execution-${inst.executionId}.txt`;
const defaultReport = () => path.join(dataDir(), 'reports', reportName());
const bundledReport = async (file: string) => (await bundleEntries(file)).find((e) => e.name === `reports/${reportName()}`)!.bytes;

test('a bundle whose settings name a folder of the user\'s (holding its own execution-N.txt) restores no report into it: the folder stays after the next start, the report goes to the default folder, the settings keep this installation\'s reports folder, and the outcome says so', async () => {
  const mine = plantCanary(inst.t.dirs.root, 'my-reports', { [reportName()]: 'my own notes on run 1, not svc\'s\n' });
  const file = await crafted(
    withDatabase((db) => {
      db.prepare("INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES ('storage', 'reports_dir', ?, '2026-01-01T00:00:00Z') ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json").run(JSON.stringify(mine.dir));
      db.prepare('UPDATE executions SET report_path = ? WHERE id = ?').run(path.join(mine.dir, reportName()), inst.executionId);
    }),
  );
  await stage(file);
  const warnings = await startOnce();
  mine.check();
  checkCanaries();
  assert.equal(fs.readFileSync(defaultReport()), await bundledReport(file), 'the restored report is in the default reports folder');
  assert.ok(warnings.some((w) => w.includes(`did not use the reports folder ${mine.dir} that the bundle's settings name`)), warnings.join('\n'));
  await withContext((ctx) => {
    assert.is(reportsDir(ctx), path.join(dataDir(), 'reports'), "the restored settings keep this installation's reports folder (the default)");
    assert.is(ctx.db.prepare('SELECT report_path FROM executions WHERE id = ?').pluck().get(inst.executionId), defaultReport(), 'the run records where its report is');
    const outcome = restoreStatus(ctx).last_restore!;
    assert.ok(outcome.show_card);
    assert.ok(outcome.not_restored.some((line) => line.startsWith(`use the reports folder ${mine.dir} that the bundle's settings name`)), outcome.not_restored.join('\n'));
  });
});

test('a restore over an installation with its own report N sets that report aside with the undo copy: undoing the restore as svc-admin(1) says brings it back', async () => {
  fs.writeFileSync(defaultReport(), "this installation's own report of run 1\n");
  const original = fs.readFileSync(defaultReport());
  const { plan } = await stage(bundle);
  await startOnce();
  assert.equal(fs.readFileSync(defaultReport()), await bundledReport(bundle), 'the restored report is in place');
  const undo = path.join(dataDir(), 'restore-undo', plan.stamp);
  // Undo, with svc stopped: the set-aside database back, each set-aside report back where reports-aside.json says.
  const live = path.join(dataDir(), 'svc.db');
  for (const suffix of ['-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
  fs.renameSync(path.join(undo, 'svc.db'), live);
  const aside = JSON.parse(fs.readFileSync(path.join(undo, 'reports-aside.json'), 'utf8')) as Record<string, string>;
  assert.equal(aside, { [reportName()]: defaultReport() });
  for (const [name, from] of Object.entries(aside)) fs.renameSync(path.join(undo, 'reports', name), from);
  assert.equal(fs.readFileSync(defaultReport()), original, "this installation's own report is back");
  await startOnce();
  assert.equal(fs.readFileSync(defaultReport()), original, 'and stays at the next start');
  checkCanaries();
});

test('a reports folder this installation already named is one a restore puts reports in; a report of its own there is set aside, not replaced', async () => {
  const folder = path.join(inst.t.dirs.root, 'named-reports');
  const report = path.join(folder, reportName());
  fs.mkdirSync(folder);
  fs.writeFileSync(report, "this installation's report in the folder it named\n");
  await withContext((ctx) => ctx.settings.write('storage', { reports_dir: folder }));
  const file = await crafted(
    withDatabase((db) => {
      db.prepare("INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES ('storage', 'reports_dir', ?, '2026-01-01T00:00:00Z') ON CONFLICT (group_name, key) DO UPDATE SET value_json = excluded.value_json").run(JSON.stringify(folder));
      db.prepare('UPDATE executions SET report_path = ? WHERE id = ?').run(report, inst.executionId);
    }),
  );
  const { plan } = await stage(file);
  const warnings = await startOnce();
  assert.not.ok(warnings.some((w) => w.includes('did not use the reports folder')), warnings.join('\n'));
  assert.equal(fs.readFileSync(report), await bundledReport(file), 'the restored report is in the folder');
  const undo = path.join(dataDir(), 'restore-undo', plan.stamp);
  assert.equal(JSON.parse(fs.readFileSync(path.join(undo, 'reports-aside.json'), 'utf8')), { [reportName()]: report });
  assert.is(fs.readFileSync(path.join(undo, 'reports', reportName()), 'utf8'), "this installation's report in the folder it named\n");
  await withContext((ctx) => {
    assert.is(reportsDir(ctx), folder, 'the restored settings keep the folder');
    assert.not.ok(restoreStatus(ctx).last_restore!.not_restored.some((line) => line.includes('reports folder')));
  });
  checkCanaries();
});

test.run();
