#!/usr/bin/env node
// Library import throughput: 200 files of 1 MiB imported through the service
// layer (read the original, check, SHA-256, write a temporary copy, fsync,
// publish by rename, fsync both folders, commit the catalog), against a plain
// `cp` of the same files in the same run. Target: svc within 3x of cp.
// Run after `npm run build`: node bench/library-import.mjs [files] [rounds]
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createContext } = await import(path.join(root, 'dist/src/context.js'));
const { createVault, importFile } = await import(path.join(root, 'dist/src/library/index.js'));

const FILES = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 5);
const SIZE = 1024 * 1024;
const MiB = (FILES * SIZE) / (1024 * 1024);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-library-'));
const source = path.join(work, 'source');
fs.mkdirSync(source);
const names = [];
for (let i = 0; i < FILES; i++) {
  const name = `paper-${String(i).padStart(3, '0')}.pdf`;
  fs.writeFileSync(path.join(source, name), Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(SIZE - 9)]));
  names.push(name);
}

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Every timed section starts with no dirty pages, so neither pays for the other's writeback.
const settle = () => execFileSync('sync');

function timeCp(round, durable) {
  const target = path.join(work, `cp-${durable ? 'sync-' : ''}${round}`);
  fs.mkdirSync(target);
  settle();
  const start = process.hrtime.bigint();
  execFileSync('cp', [...names.map((n) => path.join(source, n)), target]);
  if (durable) execFileSync('sync', ['-f', target]);
  return seconds(start);
}

async function timeSvc(round) {
  const dataDir = path.join(work, `data-${round}`);
  const parent = path.join(work, `vault-parent-${round}`);
  fs.mkdirSync(parent);
  const ctx = createContext({ env: { SVC_DATA_DIR: dataDir, SVC_STATE_DIR: path.join(work, `state-${round}`), SVC_DISABLE_SCHEDULER: '1' } });
  const status = await createVault(ctx, parent);
  settle();
  const start = process.hrtime.bigint();
  for (const name of names) {
    const bytes = fs.readFileSync(path.join(source, name));
    const receipt = await importFile(ctx, { expectedVaultId: status.vault.vault_id, filename: name, bytes });
    if (receipt.outcome !== 'created') throw new Error(`${name}: ${receipt.outcome}`);
  }
  const elapsed = seconds(start);
  await ctx.close();
  return elapsed;
}

try {
  const cp = [];
  const cpSync = [];
  const svc = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so that neither always runs on a warmer cache.
    if (round % 2) svc.push(await timeSvc(round));
    cp.push(timeCp(round, false));
    cpSync.push(timeCp(round, true));
    if (!(round % 2)) svc.push(await timeSvc(round));
  }
  const line = (label, xs, note = '') => console.log(`${label.padEnd(20)} ${median(xs).toFixed(3)} s  ${(MiB / median(xs)).toFixed(1).padStart(7)} MiB/s${note}`);
  console.log(`files: ${FILES} x 1 MiB = ${MiB} MiB; median of ${ROUNDS} round(s)`);
  line('cp', cp);
  line('cp + sync', cpSync, '   (same durability as svc: for scale only)');
  line('svc library import', svc, '   (check, SHA-256, write, fsync file + 2 folders, catalog commit; per file)');
  console.log(`ratio svc / cp        ${(median(svc) / median(cp)).toFixed(2)}x   (target <= 3x)`);
  console.log(`ratio svc / cp+sync   ${(median(svc) / median(cpSync)).toFixed(2)}x`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
