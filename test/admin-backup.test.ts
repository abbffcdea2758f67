import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { checkLibrary } from '../src/library/check.js';
import { runCliInProcess } from './_cli.js';
import { restart, seededInstallation, tableFingerprint, treeFingerprint, type Installation } from './_admin.js';

let inst: Installation;
test.before(async () => {
  inst = await seededInstallation();
});
test.after(() => inst.close());

test('backup keeps the reports written before storage.reports_dir changed, and says which it left out', async () => {
  const { t } = inst;
  const moved = path.join(t.dirs.root, 'reports-elsewhere');
  fs.mkdirSync(moved);
  const report = t.ctx.db.prepare('SELECT report_path FROM executions WHERE id = ?').pluck().get(inst.executionId) as string;
  assert.is(path.dirname(report), path.join(t.dirs.dataDir, 'reports'));
  const set = await runCliInProcess(['settings', 'set', 'storage', 'reports_dir', moved], { env: t.dirs.env });
  assert.is(set.code, 0, set.stderr);
  const out = path.join(t.dirs.root, 'after-move.tar');
  const r = await runCliInProcess(['--json', 'backup', '-o', out], { env: t.dirs.env });
  assert.is(r.code, 0, r.stderr);
  const b = JSON.parse(r.stdout);
  assert.equal([b.counts.report, b.reports_left_out], [1, 0], 'the report in the default folder is still backed up');
  // A report in a folder that is neither (an earlier reports_dir) cannot be put back: left out, and said.
  const foreign = path.join(t.dirs.root, 'older-reports');
  fs.mkdirSync(foreign);
  fs.copyFileSync(report, path.join(foreign, path.basename(report)));
  t.ctx.db.prepare('UPDATE executions SET report_path = ? WHERE id = ?').run(path.join(foreign, path.basename(report)), inst.executionId);
  const human = await runCliInProcess(['backup', '-o', path.join(t.dirs.root, 'foreign.tar')], { env: t.dirs.env });
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, /4 files \(database 1, vault 3, reports 0\)/);
  assert.match(human.stdout, /1 report file was left out: .*storage\.reports_dir \(move it into one/);
  t.ctx.db.prepare('UPDATE executions SET report_path = ? WHERE id = ?').run(report, inst.executionId);
  assert.is((await runCliInProcess(['settings', 'set', 'storage', 'reports_dir', ''], { env: t.dirs.env })).code, 0);
  for (const f of [out, path.join(t.dirs.root, 'foreign.tar')]) fs.rmSync(f);
});

test('round trip: backup, factory reset, restore at the next start: every table and vault byte identical', async () => {
  const { t } = inst;
  const tablesBefore = tableFingerprint(t.ctx.db);
  const vaultBefore = treeFingerprint(inst.vaultRoot);
  assert.ok(Object.keys(vaultBefore).length >= 3, 'marker and two files');
  for (const name of ['documents', 'executions', 'routines', 'saved_configurations', 'settings', 'library_files']) assert.ok(tablesBefore[name]!.length > 0, name);

  const backup = await t.request('POST', '/api/backup', { body: { include_reports: true } });
  assert.is(backup.status, 201, backup.text);
  const b = backup.json();
  assert.ok(fs.existsSync(b.path));
  assert.is(b.counts.database, 1);
  assert.is(b.counts.vault, 3);
  assert.is(b.counts.report, 1);
  assert.match(b.manifest_sha256, /^[0-9a-f]{64}$/);

  const verified = await t.request('POST', '/api/backup/verify', { body: { path: b.path } });
  assert.is(verified.status, 200, verified.text);
  assert.is(verified.json().known_to_this_installation, true);
  assert.ok(verified.json().restore_would_not.some((s: string) => /secrets/.test(s)));

  const erased = await t.request('POST', '/api/admin/factory-reset', { body: { confirm: 'factory-reset' } });
  assert.is(erased.status, 200, erased.text);
  assert.is(t.ctx.db.prepare('SELECT COUNT(*) FROM documents').pluck().get(), 0);
  assert.is(t.ctx.credentials.status('openai_api_key'), 'absent');

  const staged = await t.request('POST', '/api/restore', { body: { path: b.path, confirm: 'restore', vault_parent: inst.parent } });
  assert.is(staged.status, 202, staged.text);
  assert.is(t.ctx.db.prepare('SELECT COUNT(*) FROM documents').pluck().get(), 0, 'nothing moves before the next start');
  const last = (await t.request('GET', '/api/backup/last')).json();
  assert.is(last.staged.bundle_path, b.path);

  const next = await restart(t);
  try {
    assert.equal(tableFingerprint(next.ctx.db), tablesBefore);
    assert.equal(treeFingerprint(inst.vaultRoot), vaultBefore);
    const after = (await next.request('GET', '/api/backup/last')).json();
    assert.is(after.staged, null);
    assert.is(after.last_restore.show_card, true);
    assert.ok(after.last_restore.not_restored.length > 0);
    assert.is(after.undo_copy.exists, true);
    assert.is((await next.request('POST', '/api/restore/acknowledge')).json().acknowledged, 1);
    assert.is((await next.request('GET', '/api/backup/last')).json().last_restore.show_card, false);
    // The vault folder that was in the way is an undo copy too; deleting them needs the confirm word.
    assert.is((await next.request('POST', '/api/restore/undo-copy/delete', { confirm: '' })).status, 400);
    const deleted = await next.request('POST', '/api/restore/undo-copy/delete', { confirm: 'delete-undo-copies' });
    assert.is(deleted.status, 200, deleted.text);
    assert.is(deleted.json().deleted, 2);
    assert.is((await next.request('GET', '/api/backup/last')).json().undo_copy.exists, false);
    assert.equal(fs.readdirSync(inst.parent), [path.basename(inst.vaultRoot)]);
    // The Library still reads its files after the restore.
    const check = checkLibrary(next.ctx);
    assert.ok(check.ok, JSON.stringify(check.problems));
    assert.is(check.files_checked, 2);
  } finally {
    await next.server.close();
    inst.t.server.close = async () => {}; // already closed by restart
  }
});

test.run();
