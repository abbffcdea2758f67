/**
 * Route-by-route conformance of the administration routes of spec 1
 * ("Credentials, settings, configurations, cloud" and "Backup, restore,
 * service, admin, runtime") over real HTTP: request bodies are objects, a
 * refusal answers its status and reason, and nothing the request carried as
 * a secret comes back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBackup, verifyBackup } from '../src/admin/backup.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startTestServer, type TestServer } from './_setup.js';
import { runCliInProcess } from './_cli.js';

let t: TestServer;
test.before(async () => {
  t = await startTestServer();
});
test.after(async () => t.close());

const objectRefusal = (r: { status: number; text: string; json(): any }, what: string) => {
  assert.is(r.status, 422, `${what}: ${r.text}`);
  const detail = r.json().detail;
  assert.ok(Array.isArray(detail), `${what}: validation shape`);
  assert.equal(detail[0].loc, ['body'], `${what}: ${r.text}`);
  assert.is(detail[0].type, 'object_type', what);
  assert.ok(['loc', 'msg', 'type', 'input', 'ctx'].every((k) => k in detail[0]), `${what}: the spec's issue shape`);
};

test('a JSON array is not a request body: 422 at body, and nothing is done', async () => {
  const routes: [string, string][] = [
    ['POST', '/api/backup'],
    ['POST', '/api/backup/verify'],
    ['POST', '/api/service/install'],
    ['POST', '/api/service/uninstall'],
    ['POST', '/api/cloud/backup'],
    ['POST', '/api/admin/erase-configs'],
    ['POST', '/api/restore/undo-copy/delete'],
    ['PUT', '/api/credentials/openai_api_key'],
    ['PUT', '/api/settings/ai'],
    ['PUT', '/api/settings/execution'],
    ['POST', '/api/configurations'],
    ['POST', '/api/auth/renderer-origin'],
  ];
  for (const [method, path] of routes) objectRefusal(await t.request(method, path, { body: [] }), `${method} ${path}`);
  // A secret sent inside an array is not quoted back either.
  const secret = await t.request('PUT', '/api/credentials/openai_api_key', { body: ['sk-array-secret-0123456789'] });
  objectRefusal(secret, 'credential in an array');
  assert.not.ok(secret.text.includes('sk-array-secret'));
  assert.is(fs.existsSync(`${t.dirs.dataDir}/backups`) ? fs.readdirSync(`${t.dirs.dataDir}/backups`).filter((f) => f.endsWith('.tar')).length : 0, 0, 'no bundle written');
  const unit = (await t.request('GET', '/api/service/status')).json();
  assert.is(unit.installed, false, 'no unit installed');
});

test('two backups in the same second are two bundles (201 both), not a 409 asking for a name the request cannot give', async () => {
  const frozen = new Date('2026-03-01T12:00:00.000Z');
  const f = await startTestServer({ context: { clock: { now: () => frozen } } });
  try {
    const paths: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await f.request('POST', '/api/backup', { body: { include_reports: false } });
      assert.is(r.status, 201, r.text);
      paths.push(r.json().path);
    }
    assert.equal(paths.map((p) => p.split('/').pop()), ['svc-backup-20260301T120000Z.tar', 'svc-backup-20260301T120000Z-2.tar', 'svc-backup-20260301T120000Z-3.tar']);
    for (const p of paths) assert.is((await f.request('POST', '/api/backup/verify', { body: { path: p } })).status, 200, p);
    // The last bundle written is the one verify reads by default.
    assert.is((await f.request('POST', '/api/backup/verify')).json().path, paths[2]);
  } finally {
    await f.close();
  }
});

test('two processes backing up in the same second write two bundles: neither is refused for the other\'s name, neither replaces the other', async () => {
  const frozen = new Date('2026-03-01T12:00:00.000Z');
  const f = await startTestServer({ context: { clock: { now: () => frozen } } });
  // A second process of the same data directory (svc backup beside the server), in the same second.
  const other = createContext({ env: f.dirs.env, clock: { now: () => frozen }, log: createLogger({ level: 'warn', sink: () => {} }) });
  try {
    const settled = await Promise.allSettled([createBackup(f.ctx, { includeReports: false }), createBackup(other, { includeReports: false })]);
    const answers = settled.map((s) => {
      if (s.status === 'rejected') throw new Error(`a backup was refused: ${(s.reason as Error).message}`);
      return s.value;
    });
    const names = answers.map((a) => path.basename(a.path)).sort();
    assert.equal(names, ['svc-backup-20260301T120000Z-2.tar', 'svc-backup-20260301T120000Z.tar']);
    for (const a of answers) assert.is((await verifyBackup(f.ctx, a.path)).manifest_sha256, a.manifest_sha256, a.path);
  } finally {
    await other.close();
    await f.close();
  }
});

test('credentials validate and ai/models: a malformed base_url, endpoint or header_prefix is 422 without quoting it (the body carries a key)', async () => {
  const key = 'AIzaSyQuotedKey0123456789';
  const cases: [string, Record<string, unknown>, string][] = [
    ['/api/credentials/validate', { provider: 'gemini', key, base_url: `generativelanguage.googleapis.com/v1beta?key=${key}` }, 'base_url'],
    ['/api/credentials/validate', { provider: 'gemini', key, base_url: `ftp://host/?key=${key}` }, 'base_url'],
    ['/api/ai/models', { provider: 'gemini', key, base_url: `generativelanguage.googleapis.com/v1beta?key=${key}` }, 'base_url'],
    ['/api/ai/models', { provider: 'openai', key, endpoint: `/models?key=${key} ` }, 'endpoint'],
    ['/api/ai/models', { provider: 'openai', key, header_prefix: `Bearer ${key}` }, 'header_prefix'],
  ];
  for (const [path, body, field] of cases) {
    const r = await t.request('POST', path, { body });
    assert.is(r.status, 422, `${path} ${field}: ${r.text}`);
    assert.equal(r.json().detail[0].loc, ['body', field]);
    assert.not.ok(r.text.includes('QuotedKey'), `${path} ${field} quoted the key: ${r.text}`);
  }
  assert.not.ok(t.logLines.join('\n').includes('QuotedKey'), 'the key reached a log line');
});

test('a URL setting without an http(s) scheme whose password holds a slash, ? or # is refused as a password and never quoted back', async () => {
  for (const [route, body] of [
    ['/api/settings/cloud', { settings: { url: 'me:pw/no-scheme-78@dav.example.org/' } }],
    ['/api/settings/ai', { settings: { base_url: 'me:pw?no-scheme-78@127.0.0.1:11434/v1' } }],
    ['/api/settings/embeddings', { settings: { provider: 'ollama', base_url: 'me:pw#no-scheme-78@127.0.0.1:11434' } }],
  ] as const) {
    const r = await t.request('PUT', route, { body });
    assert.is(r.status, 422, `${route}: ${r.text}`);
    assert.is(r.json().detail[0].type, 'url_userinfo', r.text);
    assert.not.ok(r.text.includes('no-scheme-78'), r.text);
  }
});

test('a URL setting takes an http or https URL (or empty): anything else is 422 and changes nothing; one stored before reads as unset', async () => {
  for (const [group, value] of [['cloud', 'dav.example.org/remote.php'], ['cloud', 'ftp://dav.example.org/'], ['ai', 'localhost:11434/v1'], ['ai', 'not a url']] as const) {
    const r = await t.request('PUT', `/api/settings/${group}`, { body: { settings: { url: value, base_url: value } } });
    assert.is(r.status, 422, `${group} ${value}: ${r.text}`);
    const detail = r.json().detail;
    assert.equal(detail[0].loc, ['body', 'settings', group === 'cloud' ? 'url' : 'base_url']);
    assert.is(detail[0].type, 'url_parsing');
  }
  assert.is(t.ctx.settings.read('cloud').url, '');
  assert.is(t.ctx.settings.read('ai').base_url, '');
  // Without a scheme, a password in it is still named as such, and not quoted.
  const userinfo = await t.request('PUT', '/api/settings/cloud', { body: { settings: { url: 'me:pw-no-scheme-77@dav.example.org/' } } });
  assert.is(userinfo.status, 422, userinfo.text);
  assert.is(userinfo.json().detail[0].type, 'url_userinfo');
  assert.not.ok(userinfo.text.includes('pw-no-scheme-77'));
  // The embeddings settings (their own route) follow the same rules.
  for (const [base_url, type] of [['localhost:11434', 'url_parsing'], ['me:pw-no-scheme-77@127.0.0.1:11434', 'url_userinfo'], ['ftp://me:pw-no-scheme-77@127.0.0.1/', 'url_userinfo']]) {
    const r = await t.request('PUT', '/api/settings/embeddings', { body: { settings: { provider: 'ollama', base_url } } });
    assert.is(r.status, 422, `${base_url}: ${r.text}`);
    assert.is(r.json().detail[0].type, type, base_url);
    assert.not.ok(r.text.includes('pw-no-scheme-77'), r.text);
  }
  assert.is(t.ctx.settings.read('embeddings').base_url, '');
  for (const value of ['https://dav.example.org/remote.php/dav/files/me', 'http://127.0.0.1:11434/v1', '']) {
    const r = await t.request('PUT', '/api/settings/ai', { body: { settings: { base_url: value } } });
    assert.is(r.status, 200, `${value}: ${r.text}`);
    assert.is(r.json().settings.base_url, value);
  }
  // A cloud account stored with such a URL (before it was refused) is not linked: cloud backup says so (409), not 500.
  t.ctx.db.prepare("INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES ('cloud', 'provider', '\"webdav\"', 'x'), ('cloud', 'url', '\"dav.example.org/remote.php\"', 'x')").run();
  t.ctx.credentials.set('cloud_password', 'cloud-pw-0123456789');
  try {
    assert.is(t.ctx.settings.read('cloud').url, '');
    const backup = await t.request('POST', '/api/cloud/backup');
    assert.is(backup.status, 409, backup.text);
    assert.is(backup.json().detail.reason, 'cloud_not_linked');
  } finally {
    t.ctx.db.prepare("DELETE FROM settings WHERE group_name = 'cloud'").run();
    t.ctx.credentials.remove('cloud_password');
  }
});

test('an endpoint stored before the URL check is kept as stored and refused at use (409 endpoint_invalid), never replaced by the provider\'s own endpoint (which would take the texts and the key elsewhere)', async () => {
  t.ctx.db.prepare("DELETE FROM settings WHERE group_name IN ('embeddings', 'ai', 'cloud')").run();
  const insert = t.ctx.db.prepare("INSERT INTO settings (group_name, key, value_json, updated_at_utc) VALUES (?, ?, ?, 'x')");
  insert.run('embeddings', 'provider', JSON.stringify('openai'));
  insert.run('embeddings', 'base_url', JSON.stringify('localhost:11434'));
  insert.run('ai', 'provider', JSON.stringify('openai'));
  insert.run('ai', 'base_url', JSON.stringify('localhost:8080/v1'));
  t.ctx.credentials.set('openai_api_key', 'sk-endpoint-test-0123456789');
  try {
    assert.is(t.ctx.settings.read('embeddings').base_url, 'localhost:11434');
    assert.is((await t.request('GET', '/api/settings/ai')).json().settings.base_url, 'localhost:8080/v1', 'shown as stored, so it can be seen and fixed');
    const probe = await t.request('POST', '/api/embeddings/probe', { body: {} });
    // The probe answers its outcome (200, ok false) with the lane's refusal.
    assert.equal([probe.status, probe.json().ok, probe.json().reason], [200, false, 'endpoint_invalid'], probe.text);
    assert.match(probe.json().message, /svc settings set embeddings base_url http/);
    const backfill = await t.request('POST', '/api/embeddings/backfill');
    assert.is(backfill.status, 409, backfill.text);
    assert.equal([backfill.json().detail.reason, backfill.json().detail.setting], ['endpoint_invalid', 'embeddings.base_url']);
    const { apiBaseUrl } = await import('../src/assistant/connections.js');
    const { findApiProvider } = await import('../src/providers/provider-catalog.js');
    try {
      apiBaseUrl(t.ctx, findApiProvider('openai')!);
      assert.unreachable('the stored ai.base_url must not give way to the provider\'s own');
    } catch (err) {
      assert.is((err as { reason?: string }).reason, 'endpoint_invalid');
    }
    // A cloud URL has no default to fall back to: it still reads as unset (not linked).
    insert.run('cloud', 'url', JSON.stringify('dav.example.org/remote.php'));
    assert.is(t.ctx.settings.read('cloud').url, '');
  } finally {
    t.ctx.db.prepare("DELETE FROM settings WHERE group_name IN ('embeddings', 'ai', 'cloud')").run();
    t.ctx.credentials.remove('openai_api_key');
  }
});

test('svc config import of a file that is not there: exit 3, one line that does not send the reader to the Library', async () => {
  const missing = `${t.dirs.root}/no-such-export.json`;
  const r = await runCliInProcess(['config', 'import', missing], { env: t.dirs.env });
  assert.is(r.code, 3, r.stderr);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.includes(missing), r.stderr);
  assert.not.ok(/library/i.test(r.stderr), r.stderr);
  assert.match(r.stderr, /svc config export/);
});

test('cloud.remote_folder is a relative folder under the WebDAV URL: empty, absolute or climbing names are 422 (they sent the backup to the server root or a folder above)', async () => {
  for (const remote_folder of ['', '/', '/svc', '../other-user', 'svc/../../x', 'a//b', 'a\\b', './svc']) {
    const r = await t.request('PUT', '/api/settings/cloud', { body: { settings: { remote_folder } } });
    assert.is(r.status, 422, `[${remote_folder}]: ${r.text}`);
    assert.equal(r.json().detail[0].loc, ['body', 'settings', 'remote_folder']);
  }
  assert.is(t.ctx.settings.read('cloud').remote_folder, 'svc');
  for (const remote_folder of ['backups', 'backups/svc', 'Svc Backups']) {
    const r = await t.request('PUT', '/api/settings/cloud', { body: { settings: { remote_folder } } });
    assert.is(r.status, 200, r.text);
    assert.is(r.json().settings.remote_folder, remote_folder);
  }
  // One stored before reads as the default.
  t.ctx.db.prepare("UPDATE settings SET value_json = '\"../up\"' WHERE group_name = 'cloud' AND key = 'remote_folder'").run();
  assert.is(t.ctx.settings.read('cloud').remote_folder, 'svc');
  t.ctx.db.prepare("DELETE FROM settings WHERE group_name = 'cloud'").run();
});

test.run();
