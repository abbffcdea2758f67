/**
 * Route-by-route conformance of the administration routes of spec 1
 * ("Credentials, settings, configurations, cloud" and "Backup, restore,
 * service, admin, runtime") over real HTTP: request bodies are objects, a
 * refusal answers its status and reason, and nothing the request carried as
 * a secret comes back.
 */
import fs from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './_setup.js';

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

test.run();
