#!/usr/bin/env node
// Backup speed: a bundle of a 1 GiB vault plus a 100,000-document database
// (SQLite online backup, streamed tar, SHA-256 of every file and of the
// bundle, fsync, rename) against `tar -cf` of the same files in the same run.
// Target: svc within 2x of tar.
// Run after `npm run build`: node bench/backup.mjs [vault MiB] [documents] [rounds]
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createContext } = await import(path.join(root, 'dist/src/context.js'));
const { createVault, importFile } = await import(path.join(root, 'dist/src/library/index.js'));
const { createBackup } = await import(path.join(root, 'dist/src/admin/backup.js'));

const VAULT_MIB = Number(process.argv[2] ?? 1024);
const DOCUMENTS = Number(process.argv[3] ?? 100_000);
const ROUNDS = Number(process.argv[4] ?? 3);
const FILE_MIB = 16;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-backup-'));
const env = { SVC_DATA_DIR: path.join(work, 'data'), SVC_STATE_DIR: path.join(work, 'state'), SVC_DISABLE_SCHEDULER: '1', HOME: work };
const ctx = createContext({ env });
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  // The database: documents with a source record each, inserted in one transaction.
  const now = new Date().toISOString();
  const insertDoc = ctx.db.prepare('INSERT INTO documents (title, title_key, abstract, first_seen_at_utc, updated_at_utc) VALUES (?, ?, ?, ?, ?)');
  const insertSource = ctx.db.prepare("INSERT INTO document_sources (document_id, source, native_id, first_seen_at_utc, last_seen_at_utc, record_json) VALUES (?, 'crossref', ?, ?, ?, ?)");
  ctx.db.transaction(() => {
    for (let i = 0; i < DOCUMENTS; i++) {
      const title = `Paper ${i} on ${crypto.randomBytes(8).toString('hex')}`;
      const id = Number(insertDoc.run(title, title.toLowerCase(), 'An abstract of moderate length. '.repeat(12), now, now).lastInsertRowid);
      insertSource.run(id, `10.1234/${i}`, now, now, JSON.stringify({ doi: `10.1234/${i}`, title }));
    }
  })();
  // The vault: files imported through the Library.
  const parent = path.join(work, 'parent');
  fs.mkdirSync(parent);
  const status = await createVault(ctx, parent);
  const vaultId = status.vault.vault_id;
  const { DEFAULT_LIMITS } = await import(path.join(root, 'dist/src/library/limits.js'));
  void DEFAULT_LIMITS;
  for (let i = 0; i < Math.ceil(VAULT_MIB / FILE_MIB); i++) {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(FILE_MIB * 1024 * 1024 - 9)]);
    await importFile(ctx, { expectedVaultId: vaultId, filename: `paper-${i}.pdf`, bytes });
  }
  ctx.db.pragma('wal_checkpoint(TRUNCATE)');
  const vaultRoot = path.join(fs.realpathSync(parent), `svc-library-${vaultId}`);
  const dbBytes = fs.statSync(ctx.paths.database).size;
  console.log(`database ${(dbBytes / 2 ** 20).toFixed(0)} MiB (${DOCUMENTS} documents), vault ${VAULT_MIB} MiB`);

  const settle = () => execFileSync('sync');
  const tarTimes = [];
  const svcTimes = [];
  for (let round = 0; round < ROUNDS; round++) {
    const out = path.join(work, `tar-${round}.tar`);
    settle();
    let start = process.hrtime.bigint();
    execFileSync('tar', ['-cf', out, '-C', path.dirname(ctx.paths.database), path.basename(ctx.paths.database), '-C', parent, path.basename(vaultRoot)]);
    execFileSync('sync', ['-f', out]);
    tarTimes.push(seconds(start));
    fs.rmSync(out);
    settle();
    start = process.hrtime.bigint();
    const b = await createBackup(ctx, { includeReports: true, output: path.join(work, `svc-${round}.tar`) });
    svcTimes.push(seconds(start));
    fs.rmSync(b.path);
  }
  const tar = median(tarTimes);
  const svc = median(svcTimes);
  console.log(`tar -cf + sync: ${tar.toFixed(2)} s (median of ${ROUNDS})`);
  console.log(`svc backup:     ${svc.toFixed(2)} s (median of ${ROUNDS})  ratio ${(svc / tar).toFixed(2)}x  target <= 2x  ${svc / tar <= 2 ? 'OK' : 'OVER'}`);
} finally {
  await ctx.close();
  fs.rmSync(work, { recursive: true, force: true });
}
