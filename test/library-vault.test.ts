import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createContext } from '../src/context.js';
import { createVault, libraryStatus } from '../src/library/index.js';
import { markerText } from '../src/library/vault.js';
import { tempDirs } from './_setup.js';
import { refusal, startLibraryServer } from './_library.js';

test('schema 16 holds a vault record, file records, links and one explicit index on links by document', () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  try {
    assert.ok(ctx.schemaVersion >= 16);
    const applied = ctx.db.prepare('SELECT name FROM schema_migrations WHERE version = 16').get() as { name: string };
    assert.is(applied.name, 'library');
    const tables = (ctx.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'library_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
    assert.equal(tables, ['library_files', 'library_paper_links', 'library_vaults']);
    const explicit = ctx.db.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'library_%' AND sql IS NOT NULL").all() as { name: string; tbl_name: string; sql: string }[];
    assert.is(explicit.length, 1);
    assert.is(explicit[0]!.tbl_name, 'library_paper_links');
    assert.match(explicit[0]!.sql, /\(document_id\)/);
    const fk = ctx.db.prepare('PRAGMA foreign_key_list(library_paper_links)').all() as { table: string; on_delete: string }[];
    assert.ok(fk.some((k) => k.table === 'documents' && k.on_delete === 'CASCADE'));
  } finally {
    void ctx.close();
    dirs.cleanup();
  }
});

test('the vault is a new child svc-library-<uuid> with exactly vault.json and files/', async () => {
  const s = await startLibraryServer();
  try {
    const entries = fs.readdirSync(s.parent);
    assert.equal(entries, [`svc-library-${s.vaultId}`]);
    assert.equal(fs.readdirSync(s.root).sort(), ['files', 'vault.json']);
    const marker = fs.readFileSync(path.join(s.root, 'vault.json'), 'utf8');
    assert.is(marker, markerText(s.vaultId));
    assert.equal(JSON.parse(marker), { version: 1, vault_id: s.vaultId });
    assert.ok(fs.statSync(path.join(s.root, 'files')).isDirectory());
    assert.is(fs.statSync(path.join(s.root, 'vault.json')).mode & 0o222, 0, 'marker is read-only');
    const status = await s.get('/api/library');
    assert.is(status.status, 200);
    const body = status.json();
    assert.is(body.version, 1);
    assert.is(body.vault.vault_id, s.vaultId);
    assert.is(body.vault.label, `svc-library-${s.vaultId}`);
    assert.equal(body.counts, { files: 0, retained_bytes: 0, paper_links: 0 });
    assert.is(body.limits.file_bytes, 64 * 1024 * 1024);
    assert.is(body.limits.vault_bytes, 1024 * 1024 * 1024);
    assert.is(body.limits.catalog_items, 10_000);
    assert.not.ok(status.text.includes(s.parent), 'status never names the absolute root');
    assert.not.ok(status.text.includes(fs.realpathSync(s.parent)));
  } finally {
    await s.close();
  }
});

test('an existing configuration cannot switch roots', async () => {
  const s = await startLibraryServer();
  try {
    const other = path.join(s.t.dirs.root, 'other');
    fs.mkdirSync(other);
    const r = await s.post('/api/library/vault', { parent_directory: other });
    refusal(r, 409, 'vault_exists', other);
    assert.is(r.json().detail.vault_id, s.vaultId);
    assert.equal(fs.readdirSync(other), [], 'nothing created in the other parent');
    refusal(await s.post('/api/library/vault', { parent_directory: s.parent }), 409, 'vault_exists');
    assert.is(fs.readdirSync(s.parent).length, 1);
  } finally {
    await s.close();
  }
});

test('the parent must be an existing absolute folder; nothing is adopted', async () => {
  const s = await startLibraryServer({ vault: false });
  try {
    refusal(await s.post('/api/library/vault', { parent_directory: 'relative/dir' }), 422, 'parent_not_absolute');
    refusal(await s.post('/api/library/vault', { parent_directory: path.join(s.parent, 'missing') }), 422, 'parent_missing', s.parent);
    const file = path.join(s.parent, 'a-file');
    fs.writeFileSync(file, 'x');
    refusal(await s.post('/api/library/vault', { parent_directory: file }), 422, 'parent_not_directory');
    refusal(await s.post('/api/library/vault', { parent_directory: '' }), 422, 'invalid_string');
    refusal(await s.post('/api/library/vault', { parent_directory: 7 }), 422, 'invalid_string');
    const status = await s.get('/api/library');
    assert.is(status.json().configured, false);
    assert.is(status.json().vault, null);
    // Routes that need a vault say so.
    refusal(await s.get('/api/library/files?expected_vault_id=00000000-0000-4000-8000-000000000000'), 404, 'vault_not_configured');
    refusal(await s.importBytes('a.txt', 'x'), 422, 'invalid_uuid'); // no vault id to expect yet
    const created = await s.post('/api/library/vault', { parent_directory: s.parent });
    assert.is(created.status, 201);
    assert.is(created.json().configured, true);
  } finally {
    await s.close();
  }
});

test('a symlinked parent is resolved: the vault lives in the real folder', async () => {
  const dirs = tempDirs();
  const ctx = createContext({ env: dirs.env });
  try {
    const real = path.join(dirs.root, 'real');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(dirs.root, 'link'));
    const status = await createVault(ctx, path.join(dirs.root, 'link'));
    assert.equal(fs.readdirSync(real), [status.vault!.label]);
    assert.is(libraryStatus(ctx).counts.files, 0);
  } finally {
    await ctx.close();
    dirs.cleanup();
  }
});

test('a vault whose marker changed is refused, not adopted', async () => {
  const s = await startLibraryServer();
  try {
    const marker = path.join(s.root, 'vault.json');
    fs.chmodSync(marker, 0o644);
    fs.writeFileSync(marker, JSON.stringify({ version: 1, vault_id: '00000000-0000-4000-8000-000000000000' }));
    refusal(await s.importBytes('a.txt', 'hello'), 409, 'vault_marker_invalid', s.root);
    fs.writeFileSync(marker, JSON.stringify({ version: 1, vault_id: s.vaultId, extra: true }));
    refusal(await s.importBytes('a.txt', 'hello'), 409, 'vault_marker_invalid');
    fs.writeFileSync(marker, JSON.stringify({ version: 2, vault_id: s.vaultId }));
    refusal(await s.importBytes('a.txt', 'hello'), 409, 'vault_marker_invalid');
    fs.writeFileSync(marker, markerText(s.vaultId));
    assert.is((await s.importBytes('a.txt', 'hello')).status, 201);
    fs.renameSync(s.root, s.root + '-moved');
    refusal(await s.importBytes('b.txt', 'other'), 409, 'vault_unavailable', s.root);
  } finally {
    await s.close();
  }
});

test.run();
