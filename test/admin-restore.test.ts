import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { readPlan } from '../src/admin/restore/plan.js';
import { cancelRestore, stageRestore } from '../src/admin/restore/stage.js';
import { reportDestination } from '../src/admin/restore/reports.js';
import { createBackup } from '../src/admin/backup.js';
import type { SvcError } from '../src/errors.js';
import { installationWithBundle, restart, tableFingerprint, treeFingerprint, type Installation } from './_admin.js';
import { rawRequest, ROOT, waitFor } from './_setup.js';
import { runCliInProcess } from './_cli.js';

let inst: Installation;
let bundle: string;
test.before(async () => {
  ({ inst, bundle } = await installationWithBundle());
});
test.after(() => inst.close());

const stagingLeft = () => fs.existsSync(path.join(inst.t.dirs.dataDir, 'restore-staged')) || fs.readdirSync(inst.parent).some((n) => n.startsWith('.svc-restore-'));

/** A copy of the bundle with `edit` applied to its bytes. */
function altered(name: string, edit: (b: Buffer) => Buffer): string {
  const file = path.join(inst.t.dirs.root, name);
  fs.writeFileSync(file, edit(fs.readFileSync(bundle)));
  return file;
}

test('a link planted where the restore stages the vault is refused (unsafe_directory); nothing is written through it', async () => {
  const { t } = inst;
  const elsewhere = path.join(t.dirs.root, 'elsewhere');
  fs.mkdirSync(elsewhere);
  const frozen = Date.now();
  const realNow = Date.now;
  const planted = path.join(fs.realpathSync(inst.parent), `.svc-restore-${process.pid}-${frozen}.staging`);
  fs.symlinkSync(elsewhere, planted);
  Date.now = () => frozen; // the staging folder's name is guessable: pid and time
  let caught: SvcError | undefined;
  try {
    await stageRestore(t.ctx, { path: bundle, confirm: 'restore', vault_parent: inst.parent, accept_fk_violations: false }).catch((e) => (caught = e));
  } finally {
    Date.now = realNow;
  }
  const staged = readPlan(t.ctx);
  if (staged) cancelRestore(t.ctx); // (old code staged through the link; do not spoil the next tests)
  fs.rmSync(planted, { force: true });
  assert.is(caught?.reason, 'unsafe_directory', String(caught));
  assert.equal(fs.readdirSync(elsewhere), [], 'no vault file went through the link');
  assert.is(staged, null);
});

test('a restored report goes back only into a reports folder, and only under a name svc writes (a crafted bundle cannot place files elsewhere)', () => {
  const folders = ['/data/reports', '/custom/reports'];
  assert.is(reportDestination('execution-7.txt', '/custom/reports/execution-7.txt', folders), '/custom/reports/execution-7.txt');
  assert.is(reportDestination('execution-7.txt', '/data/reports/execution-7.txt', folders), '/data/reports/execution-7.txt');
  assert.is(reportDestination('execution-7.txt', null, folders), '/data/reports/execution-7.txt');
  assert.is(reportDestination('execution-7.txt', '/home/someone/execution-7.txt', folders), '/data/reports/execution-7.txt', 'a recorded path outside the reports folders is not followed');
  assert.is(reportDestination('execution-7.txt', '/data/reports/../../etc/execution-7.txt', folders), '/data/reports/execution-7.txt');
  assert.is(reportDestination('.bashrc', '/home/someone/.bashrc', folders), null, 'a name svc never writes is not restored');
  assert.is(reportDestination('sub/execution-7.txt', null, folders), null);
});

test('a damaged, truncated or tampered bundle is refused by verify and by restore, before anything moves', async () => {
  const { t } = inst;
  const flipped = altered('flipped.tar', (b) => {
    const c = Buffer.from(b);
    const header = c.indexOf('database/svc.db\0');
    assert.ok(header >= 0 && header % 512 === 0, 'the database entry has a header');
    c[header + 512 + 2000] ^= 0xff; // inside the database entry
    return c;
  });
  const truncated = altered('truncated.tar', (b) => b.subarray(0, b.length - 4096));
  const notTar = altered('not.tar', () => Buffer.from('hello, not a tar archive at all'.repeat(40)));
  for (const file of [flipped, truncated, notTar]) {
    const v = await t.request('POST', '/api/backup/verify', { body: { path: file } });
    assert.is(v.status, 422, `${file}: ${v.text}`);
    assert.is(v.json().detail.reason, 'bundle_invalid');
    const r = await t.request('POST', '/api/restore', { body: { path: file, confirm: 'restore', vault_parent: inst.parent } });
    assert.is(r.status, 422);
    assert.not.ok(stagingLeft(), 'nothing staged or extracted is left');
    assert.is(readPlan(t.ctx), null);
  }
  assert.match((await t.request('POST', '/api/backup/verify', { body: { path: flipped } })).json().detail.message, /does not match/);
  assert.match((await t.request('POST', '/api/backup/verify', { body: { path: truncated } })).json().detail.message, /no manifest|truncated/);
  // A damaged bundle is a failed check (exit 4, like `library check`), not a usage error (2); the line says what is damaged and what to do.
  const cli = await runCliInProcess(['backup', 'verify', flipped], { env: t.dirs.env });
  assert.is(cli.code, 4, cli.stderr);
  assert.match(cli.stderr, /database\/svc\.db does not match .*damaged or altered.*do not restore from this bundle.*`svc backup`/);
  const cliJson = await runCliInProcess(['--json', 'backup', 'verify', truncated], { env: t.dirs.env });
  assert.equal([cliJson.code, JSON.parse(cliJson.stdout).error], [4, 'bundle_invalid']);
  const cliRestore = await runCliInProcess(['restore', notTar, '--vault-parent', inst.parent, '--yes'], { env: t.dirs.env });
  assert.is(cliRestore.code, 4, cliRestore.stderr);
  assert.match(cliRestore.stderr, /not a readable tar archive.*`svc backup`/);
  assert.is(readPlan(t.ctx), null);
  // The bundle has a vault: the refusal names the command-line flag, not only the HTTP field.
  const noParent = await runCliInProcess(['restore', bundle, '--yes'], { env: t.dirs.env });
  assert.is(noParent.code, 2, noParent.stderr);
  assert.match(noParent.stderr, /`svc restore FILE --vault-parent DIR`/);
  assert.is(readPlan(t.ctx), null);
  // A folder named by mistake is a wrong argument (exit 2), not a damaged bundle.
  const folder = await runCliInProcess(['--json', 'backup', 'verify', path.dirname(bundle)], { env: t.dirs.env });
  assert.equal([folder.code, JSON.parse(folder.stdout).error], [2, 'bundle_is_folder']);
  assert.match(JSON.parse(folder.stdout).message, /a folder, not a bundle; name the \.tar file/);
  const good = await runCliInProcess(['--json', 'backup', 'verify', bundle], { env: t.dirs.env });
  assert.is(good.code, 0, good.stderr);
  assert.is(JSON.parse(good.stdout).files_checked, 5);
});

test('restore refusals: confirm word, vault parent, missing bundle, already staged; cancel forgets and moves nothing', async () => {
  const { t } = inst;
  const restore = (body: Record<string, unknown>) => t.request('POST', '/api/restore', { body: { path: bundle, confirm: 'restore', vault_parent: inst.parent, ...body } });
  assert.is((await restore({ confirm: '' })).json().detail.reason, 'confirmation_required');
  assert.is((await restore({ vault_parent: '' })).json().detail.reason, 'vault_parent_required');
  assert.is((await restore({ vault_parent: 'relative/dir' })).json().detail.reason, 'vault_parent_invalid');
  assert.is((await restore({ vault_parent: path.join(inst.parent, 'absent') })).json().detail.reason, 'vault_parent_missing');
  assert.is((await restore({ path: path.join(inst.parent, 'nope.tar') })).status, 404);
  assert.is((await t.request('POST', '/api/restore', { body: { path: bundle } })).status, 422, 'confirm and vault_parent are required fields');
  assert.not.ok(stagingLeft());

  const dbBefore = fs.statSync(t.ctx.paths.database).ino;
  assert.is((await restore({})).status, 202);
  assert.is((await restore({})).json().detail.reason, 'restore_already_staged');
  const cancel = await t.request('POST', '/api/restore/cancel');
  assert.is(cancel.status, 200);
  assert.not.ok(stagingLeft());
  assert.is(fs.statSync(t.ctx.paths.database).ino, dbBefore, 'the database never moved');
  assert.is((await t.request('POST', '/api/restore/cancel')).status, 404);
});

test('a database whose foreign keys fail is refused unless accept_fk_violations', async () => {
  const { t } = inst;
  const copy = path.join(t.dirs.root, 'fk.db');
  await t.ctx.db.backup(copy);
  const db = new Sqlite(copy);
  db.pragma('foreign_keys = OFF');
  db.prepare("INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (987654, 'x', 'y', 'z', 'z', '{}')").run();
  db.close();
  // Build a bundle around that database with the real writer.
  const { writeBundle } = await import('../src/admin/bundle-writer.js');
  const out = path.join(t.dirs.root, 'fk.tar');
  await writeBundle(out, [{ path: 'database/svc.db', kind: 'database', from: copy }], { format: 'svc-backup', version: 1, created_at_utc: new Date().toISOString(), svc_version: 'test', schema_version: t.ctx.schemaVersion, include_reports: false, vault: null, tables: {} });
  const refused = await t.request('POST', '/api/restore', { body: { path: out, confirm: 'restore', vault_parent: '' } });
  assert.is(refused.status, 409);
  assert.is(refused.json().detail.reason, 'fk_violations');
  assert.is(refused.json().detail.count, 1);
  assert.not.ok(stagingLeft());
  const accepted = await t.request('POST', '/api/restore', { body: { path: out, confirm: 'restore', vault_parent: '', accept_fk_violations: true } });
  assert.is(accepted.status, 202, accepted.text);
  assert.is(accepted.json().plan.fk_violations, 1);
  assert.is((await t.request('POST', '/api/restore/cancel')).status, 200);
});

test('kill -9 during a backup leaves no bundle presented as complete', async () => {
  const { t } = inst;
  t.ctx.db.prepare("INSERT INTO app_state (key, value_json, updated_at_utc) VALUES ('ballast', hex(randomblob(60000000)), 'x')").run();
  const dir = path.join(t.dirs.dataDir, 'backups');
  const before = new Set(fs.readdirSync(dir));
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'backup'], { env: { PATH: process.env.PATH, ...t.dirs.env }, stdio: 'ignore' });
  // Both the partial bundle and the snapshot (written on its own thread, so either may come first).
  await waitFor(() => fs.readdirSync(dir).some((n) => n.endsWith('.partial')) && fs.readdirSync(dir).some((n) => n.startsWith(`.snapshot-${child.pid}-`)), 20_000, 'a partial bundle and its snapshot');
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  t.ctx.db.prepare("DELETE FROM app_state WHERE key = 'ballast'").run();
  const added = fs.readdirSync(dir).filter((n) => !before.has(n));
  assert.not.ok(added.some((n) => n.endsWith('.tar')), `no finished-looking bundle: ${added}`);
  const partial = path.join(dir, added.find((n) => n.endsWith('.partial'))!);
  assert.is((await t.request('POST', '/api/backup/verify', { body: { path: partial } })).status, 422);
  assert.is((await t.request('GET', '/api/backup/last')).json().last_backup.path, bundle, 'the history names the last complete bundle');

  // The killed backup's database snapshot (hidden, as large as the database) goes with the next
  // backup; one named by a process that still runs is left alone.
  const orphaned = added.filter((n) => n.startsWith(`.snapshot-${child.pid}-`));
  assert.ok(orphaned.length > 0, `the killed backup left its snapshot: ${added}`);
  // A bundle named for the same second as the killed one's partial is refused, typed, not a 500.
  const sameName = path.join(dir, added.find((n) => n.endsWith('.partial'))!.replace(/\.partial$/, ''));
  await createBackup(t.ctx, { includeReports: false, output: sameName }).then(
    () => assert.unreachable('overwrote a partial bundle'),
    (e: SvcError) => assert.equal([e.status, e.reason], [409, 'backup_exists']),
  );
  await new Promise((r) => setTimeout(r, 1010 - (Date.now() % 1000))); // the next bundle's name is another second's
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  const live = path.join(dir, `.snapshot-${sleeper.pid}-0123456789ab.db`);
  fs.writeFileSync(live, 'in progress elsewhere');
  try {
    const next = await t.request('POST', '/api/backup', { body: {} });
    assert.is(next.status, 201, next.text);
    for (const name of orphaned) assert.not.ok(fs.existsSync(path.join(dir, name)), `${name} removed`);
    assert.ok(fs.existsSync(live), 'a live process\'s snapshot stays');
    assert.not.ok(fs.readdirSync(dir).some((n) => n.startsWith('.snapshot-') && n !== path.basename(live)), 'the new backup removed its own');
    fs.rmSync(next.json().path);
  } finally {
    sleeper.kill();
    fs.rmSync(live, { force: true });
  }
});

test('a restore staged by a server killed with -9 applies cleanly at the next start; so does a start killed halfway', async () => {
  const { t } = inst;
  const tablesBefore = tableFingerprint(t.ctx.db);
  const vaultBefore = treeFingerprint(inst.vaultRoot);
  await t.server.close();
  t.server.close = async () => {};
  // A server process of these directories stages the restore, then dies without warning.
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'svc.js'), 'serve', '--port', '0'], { env: { PATH: process.env.PATH, ...t.dirs.env }, stdio: 'ignore' });
  const port = await waitFor(() => {
    const token = fs.readdirSync(t.dirs.stateDir).find((n) => n.startsWith('api-token-'));
    return token ? Number(token.slice('api-token-'.length)) : undefined;
  }, 15_000, 'server');
  const token = fs.readFileSync(path.join(t.dirs.stateDir, `api-token-${port}`), 'utf8');
  const headers = { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const erased = await rawRequest(port, { method: 'POST', path: '/api/admin/erase-app-data', headers, body: JSON.stringify({ confirm: 'erase-app-data' }) });
  assert.is(erased.status, 200, erased.text);
  const staged = await rawRequest(port, { method: 'POST', path: '/api/restore', headers, body: JSON.stringify({ path: bundle, confirm: 'restore', vault_parent: inst.parent }) });
  assert.is(staged.status, 202, staged.text);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  // A start that died right after setting the old database aside (simulated: that first step done by hand).
  const plan = readPlan(t.ctx)!;
  const undo = path.join(t.dirs.dataDir, 'restore-undo', plan.stamp);
  fs.mkdirSync(undo, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(t.ctx.paths.database + suffix)) fs.renameSync(t.ctx.paths.database + suffix, path.join(undo, `svc.db${suffix}`));

  const next = await restart(t);
  try {
    assert.equal(tableFingerprint(next.ctx.db), tablesBefore);
    assert.equal(treeFingerprint(inst.vaultRoot), vaultBefore);
    assert.ok(fs.existsSync(path.join(undo, 'svc.db')), 'the erased database is the undo copy');
    const undoDb = new Sqlite(path.join(undo, 'svc.db'), { readonly: true });
    assert.is(undoDb.prepare('SELECT COUNT(*) FROM documents').pluck().get(), 0);
    undoDb.close();
    const last = (await next.request('GET', '/api/backup/last')).json();
    assert.is(last.staged, null);
    assert.is(last.last_restore.bundle_path, bundle);
    const status = await runCliInProcess(['restore', 'status'], { env: t.dirs.env });
    assert.match(status.stdout, /Last restore/);
    assert.match(status.stdout, /The restore did not:[\s\S]*dismiss this note with `svc restore acknowledge`/);
    assert.match(status.stdout, /remove with `svc restore delete-undo`/);
    // `restore` has a --yes of its own: the subcommand's --yes must still reach delete-undo.
    const deleted = await runCliInProcess(['restore', 'delete-undo', '--yes'], { env: t.dirs.env });
    assert.is(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /^Deleted \d+ undo cop(y|ies)\.$/m);
    assert.not.ok(fs.existsSync(undo), 'the undo copy is gone');
    const again = await runCliInProcess(['--json', 'restore', 'delete-undo', '--yes'], { env: t.dirs.env });
    assert.equal([again.code, JSON.parse(again.stdout).deleted], [0, 0]);
  } finally {
    await next.server.close();
  }
});

test.run();
