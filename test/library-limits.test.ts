import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import { DEFAULT_LIMITS } from '../src/library/index.js';
import { LIB_HEADERS, refusal, startLibraryServer, type LibraryServer } from './_library.js';

const MiB = 1024 * 1024;

test('the spec limits are the defaults', () => {
  assert.is(DEFAULT_LIMITS.fileBytes, 64 * MiB);
  assert.is(DEFAULT_LIMITS.selectionFiles, 20);
  assert.is(DEFAULT_LIMITS.vaultBytes, 1024 * MiB);
  assert.is(DEFAULT_LIMITS.catalogItems, 10_000);
  assert.is(DEFAULT_LIMITS.textBytes, 256 * 1024);
  assert.is(DEFAULT_LIMITS.textLines, 5_000);
  assert.is(DEFAULT_LIMITS.textJsonBytes, 2 * MiB);
  assert.is(DEFAULT_LIMITS.inventoryBytes, 8 * MiB);
  assert.is(DEFAULT_LIMITS.listMax, 100);
  assert.is(DEFAULT_LIMITS.listDefault, 50);
  assert.is(DEFAULT_LIMITS.jsonBodyBytes, 256 * 1024);
});

/** Send headers declaring `length` bytes and only the first chunk (or nothing): the answer must not wait for the rest. */
function declaredOnly(s: LibraryServer, length: number, chunked = false, first?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${s.t.port}`, authorization: `Bearer ${s.t.token}`, 'content-type': 'application/octet-stream', ...LIB_HEADERS };
    if (!chunked) headers['content-length'] = String(length);
    const req = http.request({ host: '127.0.0.1', port: s.t.port, method: 'POST', path: `/api/library/files?expected_vault_id=${s.vaultId}&filename=big.txt`, agent: false, headers });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', (err) => (/hang up|EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    if (first) req.write(first);
    else req.flushHeaders();
    setTimeout(() => reject(new Error('the server waited for the whole body')), 10_000).unref();
  });
}

test('64 MiB per file: exactly 64 MiB is imported; a declared 64 MiB + 1 is 413 before the body is read', async () => {
  const s = await startLibraryServer();
  try {
    const over = await declaredOnly(s, 64 * MiB + 1);
    assert.is(over.status, 413);
    assert.is(JSON.parse(over.body).detail.reason, 'file_too_large');
    const exact = Buffer.alloc(64 * MiB, 0x61);
    const ok = await s.importBytes('exact.txt', exact);
    assert.is(ok.status, 201, ok.text);
    assert.is(ok.json().file.byte_size, 64 * MiB);
  } finally {
    await s.close();
  }
});

test('a streamed body without Content-Length is cut at the limit (413 file_too_large)', async () => {
  const s = await startLibraryServer({ limits: { fileBytes: 1000 } });
  try {
    const r = await s.importBytes('big.txt', Buffer.alloc(1001, 0x61), '', { 'transfer-encoding': 'chunked' });
    refusal(r, 413, 'file_too_large');
    assert.is(r.json().detail.limit_bytes, 1000);
    assert.is((await s.importBytes('fits.txt', Buffer.alloc(1000, 0x61), '', { 'transfer-encoding': 'chunked' })).status, 201);
    // Streamed and never finished: refused as soon as the limit is passed.
    const partial = await declaredOnly(s, 0, true, Buffer.alloc(4096, 0x62));
    assert.is(partial.status, 413);
  } finally {
    await s.close();
  }
});

test('1 GiB retained per vault (scaled): vault_full; duplicates still answer', async () => {
  const s = await startLibraryServer({ limits: { vaultBytes: 100 } });
  try {
    assert.is((await s.importBytes('a.txt', 'a'.repeat(60))).status, 201);
    assert.is((await s.importBytes('b.txt', 'b'.repeat(40))).status, 201, 'exactly at the limit');
    const r = await s.importBytes('c.txt', 'c');
    refusal(r, 413, 'vault_full');
    assert.is(r.json().detail.retained_bytes, 100);
    assert.is((await s.importBytes('again.txt', 'a'.repeat(60))).status, 200, 'a duplicate adds no bytes');
  } finally {
    await s.close();
  }
});

test('10,000 catalog items (scaled): catalog_full', async () => {
  const s = await startLibraryServer({ limits: { catalogItems: 3 } });
  try {
    for (const n of [1, 2, 3]) assert.is((await s.importBytes(`${n}.txt`, `file ${n}`)).status, 201);
    refusal(await s.importBytes('4.txt', 'file 4'), 413, 'catalog_full');
    assert.is((await s.importBytes('1-again.txt', 'file 1')).status, 200);
    const status = await s.get('/api/library');
    assert.is(status.json().counts.files, 3);
    assert.is(status.json().limits.catalog_items, 3);
  } finally {
    await s.close();
  }
});

test('inventory limit (scaled): refused, not truncated', async () => {
  const s = await startLibraryServer({ limits: { inventoryBytes: 2500 } });
  try {
    assert.is((await s.importBytes('one.txt', 'one')).status, 201);
    const small = await s.get(`/api/library/export?expected_vault_id=${s.vaultId}&format=json`);
    assert.is(small.status, 200);
    assert.ok(small.text.length <= 2500);
    for (let i = 0; i < 5; i++) await s.importBytes(`more-${i}.txt`, `more ${i}`);
    const r = await s.get(`/api/library/export?expected_vault_id=${s.vaultId}&format=json`);
    refusal(r, 413, 'export_too_large');
    assert.not.ok('text' in r.json().detail);
  } finally {
    await s.close();
  }
});

test.run();
