import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cancelRestore, prepareRestore } from '../src/admin/restore/stage.js';
import { installationWithBundle, restart, type Installation } from './_admin.js';
import { ROOT, runCli, waitFor } from './_setup.js';

let inst: Installation;
let bundle: string;
test.before(async () => {
  ({ inst, bundle } = await installationWithBundle());
});
test.after(() => inst.close());

const svc = (args: string[]) => runCli(args, { env: inst.t.dirs.env });
const stagingLeft = () => fs.existsSync(path.join(inst.t.dirs.dataDir, 'restore-staged')) || fs.readdirSync(inst.parent).some((n) => n.startsWith('.svc-restore-'));

test('svc restore checks the bundle and its flags before it asks: a missing --vault-parent or bundle is said first, not after a "yes"', async () => {
  // Without --yes off a terminal the question cannot be asked; what would refuse the restore anyway is said instead.
  const noParent = await svc(['--json', 'restore', bundle]);
  assert.equal([noParent.code, JSON.parse(noParent.stdout).error], [2, 'vault_parent_required'], noParent.stdout);
  const missing = await svc(['--json', 'restore', path.join(inst.t.dirs.root, 'absent.tar')]);
  assert.equal([missing.code, JSON.parse(missing.stdout).error], [3, 'bundle_not_found'], missing.stdout);
  assert.not.ok(stagingLeft());
  // Everything checks out: only then the confirmation, which names the bundle; declining leaves nothing extracted.
  const unconfirmed = await svc(['--json', 'restore', bundle, '--vault-parent', inst.parent]);
  assert.equal([unconfirmed.code, JSON.parse(unconfirmed.stdout).error], [2, 'confirmation_required'], unconfirmed.stdout);
  assert.match(JSON.parse(unconfirmed.stdout).message, new RegExp(`Stage the restore of ${path.basename(bundle)}\\?.*--yes`));
  assert.not.ok(stagingLeft(), 'what was extracted for the checks is removed');
});

test('while one process holds a checked restore (its person at the question), another process is refused and does not touch what was extracted', async () => {
  const stagedDb = path.join(inst.t.dirs.dataDir, 'restore-staged', 'database', 'svc.db');
  const prepared = await prepareRestore(inst.t.ctx, { path: bundle, vault_parent: inst.parent, accept_fk_violations: false });
  try {
    assert.ok(fs.existsSync(stagedDb));
    const other = await svc(['--json', 'restore', bundle, '--vault-parent', inst.parent]);
    assert.equal([other.code, JSON.parse(other.stdout).error], [4, 'restore_in_progress'], other.stdout);
    assert.ok(fs.existsSync(stagedDb), 'the first restore\'s extracted database is still there');
  } finally {
    prepared.discard();
  }
  assert.not.ok(stagingLeft());
  // Once the first is done, the next one may go on (up to the question).
  const after = await svc(['--json', 'restore', bundle, '--vault-parent', inst.parent]);
  assert.equal([after.code, JSON.parse(after.stdout).error], [2, 'confirmation_required'], after.stdout);
});

test('the note about API keys: none when every key the bundle\'s settings use is stored; otherwise exactly the missing ones', async () => {
  const { t } = inst;
  // Settings that use keys: the OpenAI provider (openai_api_key) and a mail login (smtp_password); both are stored.
  assert.is((await svc(['settings', 'set', 'ai', 'provider', 'openai'])).code, 0);
  assert.is((await svc(['settings', 'set', 'email', 'smtp_username', 'me'])).code, 0);
  const withKeys = path.join(t.dirs.root, 'with-keys.tar');
  assert.is((await svc(['backup', '-o', withKeys])).code, 0);
  const verify = await svc(['backup', 'verify', withKeys]);
  assert.is(verify.code, 0, verify.stderr);
  assert.not.match(verify.stdout, /store them again/);
  assert.match(verify.stdout, /the 3 stored here stay as they are/);

  const same = await svc(['--json', 'restore', withKeys, '--vault-parent', inst.parent, '--yes']);
  assert.is(same.code, 0, same.stderr);
  const notRestored: string[] = JSON.parse(same.stdout).verify.restore_would_not;
  assert.not.ok(notRestored.some((s) => /API keys|passwords/.test(s)), notRestored.join('\n'));
  // No webhook destination in the bundle: nothing to say about webhook secrets either.
  assert.not.ok(notRestored.some((s) => /webhook/.test(s)), notRestored.join('\n'));
  cancelRestore(t.ctx);

  assert.is((await svc(['credentials', 'delete', 'smtp_password', '--yes'])).code, 0);
  const human = await svc(['restore', withKeys, '--vault-parent', inst.parent, '--yes']);
  assert.is(human.code, 0, human.stderr);
  assert.match(human.stdout, /its settings use smtp_password, not stored here; store it with `svc credentials set NAME`/);
  assert.not.match(human.stdout, /openai_api_key/);
  assert.match(human.stdout, /Nothing has moved yet: it happens at the next start of `svc serve` or the daemon/);
  cancelRestore(t.ctx);
  t.ctx.credentials.set('smtp_password', 'smtp-test-password');
  fs.rmSync(withKeys);
});

test('after a restore, backup verify still knows the bundle as written by this installation, and backup last still names it', async () => {
  const { t } = inst;
  const staged = await svc(['restore', bundle, '--vault-parent', inst.parent, '--yes']);
  assert.is(staged.code, 0, staged.stderr);
  const next = await restart(t);
  try {
    const verify = await svc(['--json', 'backup', 'verify', bundle]);
    assert.is(verify.code, 0, verify.stderr);
    assert.is(JSON.parse(verify.stdout).known_to_this_installation, true);
    const last = (await next.request('GET', '/api/backup/last')).json();
    assert.is(last.last_restore.bundle_path, bundle);
    const backups = next.ctx.db.prepare('SELECT path FROM admin_backups ORDER BY id').pluck().all() as string[];
    assert.equal(backups.filter((p) => p === bundle).length, 1, 'recorded once');
    const status = await svc(['restore', 'status']);
    assert.match(status.stdout, /The restore did not:/);
  } finally {
    await next.server.close();
  }
});


/** `svc restore` on a real terminal (util-linux `script` gives it a pty), killed with `signal` once it asks (the pid is in its staging folder's name). */
async function killedAtQuestion(signal: NodeJS.Signals): Promise<void> {
  const quoted = [process.execPath, path.join(ROOT, 'bin', 'svc.js'), 'restore', bundle, '--vault-parent', inst.parent].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], { env: { PATH: process.env.PATH, TERM: 'xterm', ...inst.t.dirs.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const closed = new Promise((resolve) => child.on('close', resolve));
  try {
    // The checks' summary comes just before the question (whose text the pty's zero width scatters).
    await waitFor(() => out.includes('A restore would not:'), 20_000, 'the question');
    await new Promise((r) => setTimeout(r, 500));
    const staging = fs.readdirSync(inst.parent).find((n) => n.startsWith('.svc-restore-'));
    assert.ok(staging, 'the vault was extracted for the checks');
    process.kill(Number(/^\.svc-restore-(\d+)-/.exec(staging!)![1]), signal);
  } finally {
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    child.stdin.end();
    await closed;
  }
}

test('svc restore killed at its question (SIGTERM) removes the vault copy and what it extracted', async () => {
  await killedAtQuestion('SIGTERM');
  assert.not.ok(stagingLeft(), fs.readdirSync(inst.parent).join(', '));
  // And the next restore is not refused by the killed one's lock.
  const after = await svc(['--json', 'restore', bundle, '--vault-parent', inst.parent]);
  assert.equal([after.code, JSON.parse(after.stdout).error], [2, 'confirmation_required'], after.stdout);
});

test('a vault copy left by a restore killed outright (SIGKILL) is removed by the next restore', async () => {
  await killedAtQuestion('SIGKILL');
  assert.ok(fs.readdirSync(inst.parent).some((n) => n.startsWith('.svc-restore-')), 'SIGKILL cannot be caught: the copy is left');
  const after = await svc(['--json', 'restore', bundle, '--vault-parent', inst.parent]);
  assert.equal([after.code, JSON.parse(after.stdout).error], [2, 'confirmation_required'], after.stdout);
  assert.not.ok(stagingLeft(), fs.readdirSync(inst.parent).join(', '));
});

test.run();
