/**
 * A verified read hashes the whole retained file (up to 64 MiB): the server
 * must keep answering meanwhile, and the check must refuse exactly as before.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { refusal, startLibraryServer, type LibraryServer } from './_library.js';

const MiB = 1024 * 1024;
let s: LibraryServer;
let big: { file_id: string; version_id: string; relative_path: string };

test.before(async () => {
  s = await startLibraryServer();
  const bytes = Buffer.alloc(48 * MiB, 0x61);
  bytes.write('%PDF-1.4\n');
  const r = await s.importBytes('big.pdf', bytes);
  if (r.status !== 201) throw new Error(`import: ${r.status} ${r.text}`);
  big = r.json().file;
});
test.after(() => s.close());

const open = () => s.post(`/api/library/files/${big.file_id}/open`, { expected_vault_id: s.vaultId, expected_version_id: big.version_id });

/**
 * Ask /api/health one request after another while the open runs: with a
 * blocking hash one of them waits for all of it; with a yielding one each
 * waits a few chunks at most. Timer lateness is measured alongside.
 */
async function openUnderLoad() {
  let timerGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    timerGap = Math.max(timerGap, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  let done = false;
  const opening = open().then((r) => {
    done = true;
    return { r, ms: performance.now() - started };
  });
  const health: number[] = [];
  while (!done) {
    const t0 = performance.now();
    const h = await s.t.request('GET', '/api/health');
    assert.is(h.status, 200);
    health.push(performance.now() - t0);
  }
  const { r, ms } = await opening;
  clearInterval(timer);
  return { r, openMs: ms, health, timerGap };
}

test('a verified open of a 48 MiB file leaves the server answering while it hashes', async () => {
  await open(); // warm the page cache so the timing below is the hash, not the disk
  const run = await openUnderLoad();
  const sorted = [...run.health].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`  open 48 MiB: ${run.openMs.toFixed(1)} ms; ${run.health.length} health answers, median ${median.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms; worst timer gap ${run.timerGap.toFixed(1)} ms`);
  assert.is(run.r.status, 200);
  assert.is(run.r.json().path, path.join(s.root, big.relative_path));
  // Blocking, the hash is one turn of the event loop: the health request in
  // flight waits out the whole open and it is the only one (or one of two)
  // answered. Yielding, the loop turns after every 1 MiB, so answers come in
  // steps counted in loop turns (17 here, idle or loaded) and the typical one
  // takes a small part of the open (about a tenth; a quarter leaves margin
  // for a loaded machine, where the open itself slows too).
  assert.ok(run.health.length >= 8, `only ${run.health.length} health answers during the open`);
  assert.ok(median < run.openMs / 4, `a typical health answer took ${median.toFixed(1)} ms of a ${run.openMs.toFixed(1)} ms open`);
});

test('a large file changed on disk after registration is still refused (same size, one byte in its last MiB)', async () => {
  const stored = path.join(s.root, big.relative_path);
  fs.chmodSync(stored, 0o644);
  const fd = fs.openSync(stored, 'r+');
  try {
    fs.writeSync(fd, Buffer.from('b'), 0, 1, 48 * MiB - 10);
    refusal(await open(), 409, 'file_hash_mismatch', s.root);
    fs.writeSync(fd, Buffer.from('a'), 0, 1, 48 * MiB - 10);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(stored, 0o444);
  assert.is((await open()).status, 200);
});

test.run();
