import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { v2 as webdav } from 'webdav-server';
import { readBundle } from '../src/admin/bundle.js';
import { startTestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';
import { seededInstallation, type Installation } from './_admin.js';

const PASSWORD = 'dav-secret-pw-4821';
let inst: Installation;
let dav: webdav.WebDAVServer;
let davUrl: string;
let davRoot: string;

test.before(async () => {
  inst = await seededInstallation();
  davRoot = path.join(inst.t.dirs.root, 'dav-root');
  fs.mkdirSync(davRoot);
  const users = new webdav.SimpleUserManager();
  const alice = users.addUser('alice', PASSWORD, false);
  const rights = new webdav.SimplePathPrivilegeManager();
  rights.setRights(alice, '/', ['all']);
  dav = new webdav.WebDAVServer({ httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'svc-test'), privilegeManager: rights, rootFileSystem: new webdav.PhysicalFileSystem(davRoot), port: 0, hostname: '127.0.0.1' });
  const server = await new Promise<Server>((resolve) => dav.start((s) => resolve(s as Server)));
  davUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
test.after(async () => {
  await new Promise<void>((r) => dav.stop(() => r()));
  await inst.close();
});

test('link refuses bad URLs and wrong passwords without echoing the password; a good link stores the password as a credential', async () => {
  const { t } = inst;
  const link = (body: unknown) => t.request('POST', '/api/cloud/link', { body });
  assert.is((await link({ url: 'ftp://x/', username: 'alice', password: PASSWORD })).json().detail.reason, 'cloud_url_invalid');
  assert.is((await link({ url: `http://alice:${PASSWORD}@127.0.0.1:1/`, username: 'alice', password: PASSWORD })).json().detail.reason, 'cloud_url_invalid');
  const wrong = await link({ url: davUrl, username: 'alice', password: 'not-it' });
  // The cloud server's refusal, like its other failures (502; exit 1), not a malformed request.
  assert.is(wrong.status, 502);
  assert.is(wrong.json().detail.reason, 'cloud_credentials_refused');
  assert.not.ok(wrong.text.includes('not-it'));
  const down = await link({ url: 'http://127.0.0.1:1/', username: 'alice', password: PASSWORD });
  assert.is(down.status, 502);
  assert.not.ok(down.text.includes(PASSWORD));
  // Why, in words (not fetch's "TypeError"), and what to do.
  assert.match(down.json().detail.message, /cannot be reached \(bad port\); check the URL and that the server is up/);
  const invalid = await link({ url: davUrl, username: '', password: PASSWORD });
  assert.is(invalid.status, 422);
  assert.not.ok(invalid.text.includes(PASSWORD), 'validation errors never echo the password');
  assert.is((await t.request('GET', '/api/cloud/status')).json().linked, false);
  assert.is((await t.request('POST', '/api/cloud/backup', { body: { execution_ids: null } })).json().detail.reason, 'cloud_not_linked');

  const ok = await link({ url: davUrl, username: 'alice', password: PASSWORD, remote_folder: 'backups/svc' });
  assert.is(ok.status, 200, ok.text);
  const s = ok.json();
  assert.equal([s.linked, s.provider, s.username, s.remote_folder, s.password], [true, 'webdav', 'alice', 'backups/svc', 'present']);
  assert.not.ok(ok.text.includes(PASSWORD));
  assert.ok(fs.statSync(path.join(davRoot, 'backups', 'svc')).isDirectory(), 'remote folder created');
  assert.is(t.ctx.credentials.reveal('cloud_password'), PASSWORD);
  assert.not.ok(t.logLines.join('\n').includes(PASSWORD));
});

test('cloud backup uploads a complete, verifiable bundle; execution_ids limit the reports', async () => {
  const { t } = inst;
  const all = await t.request('POST', '/api/cloud/backup', { body: { execution_ids: null } });
  assert.is(all.status, 201, all.text);
  const a = all.json();
  assert.is(a.counts.report, 1);
  const uploaded = path.join(davRoot, ...a.remote_path.split('/'));
  assert.is(fs.statSync(uploaded).size, a.byte_size);
  const read = await readBundle(uploaded);
  assert.is(read.manifest_sha256, a.manifest_sha256);
  assert.equal(fs.readdirSync(path.join(t.dirs.dataDir, 'backups')).filter((n) => !n.startsWith('svc-backup-')), [], 'no local copy left behind');
  await new Promise((r) => setTimeout(r, 1100)); // bundle names have one-second resolution
  // An unknown id (a typo) is refused before anything is written or uploaded, not a bundle quietly without it.
  const uploadedBefore = fs.readdirSync(path.dirname(uploaded)).length;
  const unknown = await t.request('POST', '/api/cloud/backup', { body: { execution_ids: [inst.executionId, 999] } });
  assert.equal([unknown.status, unknown.json().detail.reason], [404, 'execution_not_found']);
  assert.match(unknown.json().detail.message, /No execution 999; nothing was uploaded/);
  assert.is(fs.readdirSync(path.dirname(uploaded)).length, uploadedBefore);
  const cli = await runCliInProcess(['cloud', 'backup', '--executions', '999'], { env: t.dirs.env });
  assert.is(cli.code, 3, cli.stderr);
  const one = (await t.request('POST', '/api/cloud/backup', { body: { execution_ids: [inst.executionId] } })).json();
  assert.is(one.counts.report, 1);
  const status = (await t.request('GET', '/api/cloud/status')).json();
  assert.is(status.last_upload.remote_path, one.remote_path);
  assert.is((await t.request('POST', '/api/cloud/backup', { body: { execution_ids: [0] } })).status, 422);
});

test('CLI: cloud status, backup and unlink (password never on argv)', async () => {
  const env = inst.t.dirs.env;
  const status = await runCliInProcess(['--json', 'cloud', 'status'], { env });
  assert.is(JSON.parse(status.stdout).linked, true);
  const unlink = await runCliInProcess(['--json', 'cloud', 'unlink'], { env });
  assert.is(unlink.code, 2, 'destructive: --yes off a terminal');
  const yes = await runCliInProcess(['--json', 'cloud', 'unlink', '--yes'], { env });
  assert.is(JSON.parse(yes.stdout).unlinked, true);
  assert.is(inst.t.ctx.credentials.status('cloud_password'), 'absent');
  const relink = await runCliInProcess(['--json', 'cloud', 'link', davUrl, '--user', 'alice'], { env, stdin: PASSWORD + '\n' });
  assert.is(relink.code, 0, relink.stderr);
  assert.is(JSON.parse(relink.stdout).remote_folder, 'svc');
  const up = await runCliInProcess(['--json', 'cloud', 'backup'], { env });
  assert.is(up.code, 0, up.stderr);
  assert.match(JSON.parse(up.stdout).remote_path, /^svc\/svc-backup-/);
  // A wrong password: exit 1 (the cloud server failed, svc-admin(1)), not 2 (usage), with what to do.
  const wrongLink = await runCliInProcess(['--json', 'cloud', 'link', davUrl, '--user', 'alice'], { env, stdin: 'not-it\n' });
  assert.equal([wrongLink.code, JSON.parse(wrongLink.stdout).error], [1, 'cloud_credentials_refused'], wrongLink.stdout);
  assert.match(JSON.parse(wrongLink.stdout).message, /refused the user name or password \(401\); link again/);
  // A stored password the server no longer takes is found before a whole bundle is written (the backups folder is untouched).
  inst.t.ctx.credentials.set('cloud_password', 'changed-on-the-server');
  const backups = path.join(inst.t.dirs.dataDir, 'backups');
  const before = fs.statSync(backups).mtimeMs;
  const refused = await runCliInProcess(['--json', 'cloud', 'backup'], { env });
  assert.equal([refused.code, JSON.parse(refused.stdout).error], [1, 'cloud_credentials_refused'], refused.stdout);
  assert.is(fs.statSync(backups).mtimeMs, before, 'no bundle was written');
  inst.t.ctx.credentials.set('cloud_password', PASSWORD);
});

test('two cloud backups within the same second are two remote bundles (-2, -3), and a remote file already there is never replaced', async () => {
  const frozen = new Date('2026-03-01T12:00:00.000Z');
  const f = await startTestServer({ context: { clock: { now: () => frozen } } });
  try {
    const linked = await f.request('POST', '/api/cloud/link', { body: { url: davUrl, username: 'alice', password: PASSWORD, remote_folder: 'same-second' } });
    assert.is(linked.status, 200, linked.text);
    const folder = path.join(davRoot, 'same-second');
    // Someone else's file under the name this second would take first.
    fs.writeFileSync(path.join(folder, 'svc-backup-20260301T120000Z.tar'), 'not ours');
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const r = await f.request('POST', '/api/cloud/backup', { body: { execution_ids: null } });
      assert.is(r.status, 201, r.text);
      answers.push(r.json());
    }
    assert.equal(answers.map((a) => a.remote_path), ['same-second/svc-backup-20260301T120000Z-2.tar', 'same-second/svc-backup-20260301T120000Z-3.tar']);
    assert.is(fs.readFileSync(path.join(folder, 'svc-backup-20260301T120000Z.tar'), 'utf8'), 'not ours');
    for (const a of answers) {
      const read = await readBundle(path.join(davRoot, ...a.remote_path.split('/')));
      assert.is(read.manifest_sha256, a.manifest_sha256, a.remote_path);
    }
    assert.is((await f.request('GET', '/api/cloud/status')).json().last_upload.remote_path, answers[1].remote_path);
    assert.equal(fs.readdirSync(path.join(f.dirs.dataDir, 'backups')).filter((n) => n.startsWith('.cloud-')), [], 'no hidden local copy left');
  } finally {
    await f.close();
  }
});

test.run();
