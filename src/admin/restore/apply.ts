/**
 * Applying a staged restore happens at the next start, before the database opens: the current
 * database is set aside as an undo copy, a vault folder already where the restored one goes is set
 * aside too, then the staged files move in (reports without replacing a file: reports.ts). Each
 * step checks what is already done, so a start killed halfway finishes the restore on the next start.
 */
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Context } from '../../context.js';
import { ensureOwnedDir, writeOwnerOnlyFile } from '../../util/owned-files.js';
import { stagedPlanProblem } from '../bundle-names.js';
import { carryHistory, hasRestore, insertRestore } from '../repo.js';
import { resecretWebhookTargets } from '../../delivery/targets.js';
import { keepFormerReportsDir, putBackReports, refusedFolderLine, REPORTS_ASIDE_NOTE } from './reports.js';
import { readPlan, stagingDir } from './plan.js';
import type { StagedPlan } from '../../wire/admin.js';
import { undoRoot } from './undo.js';
import { stagedVaultCopies } from './vault-staging.js';
import { dropIndex } from '../../similarity/index-build.js';

const exists = (p: string) => fs.existsSync(p);

/**
 * Apply a staged restore. Call at start, before the database is opened.
 * Answers the plan applied, or null when nothing was staged.
 */
export function applyStagedRestore(ctx: Context): StagedPlan | null {
  const plan = readPlan(ctx);
  if (!plan) return null;
  const refused = stagedPlanProblem(plan);
  if (refused) {
    forgetRefusedPlan(ctx, plan, refused);
    return null;
  }
  const stage = stagingDir(ctx);
  const undo = path.join(undoRoot(ctx), plan.stamp);
  const stagedDb = path.join(stage, 'database', 'svc.db');
  const live = ctx.paths.database;
  ensureOwnedDir(undo);
  // 1. The current database (with its WAL) becomes the undo copy.
  if (exists(stagedDb) && !exists(path.join(undo, 'svc.db'))) {
    for (const suffix of ['', '-wal', '-shm']) if (exists(live + suffix)) fs.renameSync(live + suffix, path.join(undo, `svc.db${suffix}`));
  }
  // 2. The vault: a folder already at the target is set aside, the staged one moves in.
  if (plan.vault_target && plan.vault_staging && exists(plan.vault_staging)) {
    if (exists(plan.vault_target)) {
      const aside = `${plan.vault_target}.before-restore-${plan.stamp}`;
      fs.renameSync(plan.vault_target, aside);
      writeOwnerOnlyFile(path.join(undo, 'vault-aside.txt'), aside + '\n');
    }
    fs.renameSync(plan.vault_staging, plan.vault_target);
  }
  // 3. The database moves in (WAL files of the old one are already aside).
  const databaseRestored = exists(stagedDb);
  if (databaseRestored) {
    for (const suffix of ['-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
    ensureOwnedDir(path.dirname(live));
    fs.renameSync(stagedDb, live);
  }
  // 4. Reports go where the restored database says they were, if that is a reports folder this
  // installation already used; a report already there goes into the undo copy (reports.ts).
  const db = ctx.db;
  // The vector index file beside the database was built from the set-aside one's vectors.
  if (databaseRestored) dropIndex(ctx);
  const reports = putBackReports(ctx, plan.reports, path.join(stage, 'reports'), undo);
  const refusedLine = refusedFolderLine(ctx, reports);
  if (refusedLine) ctx.log.warn(`did not ${refusedLine}`);
  if (plan.vault_target) db.prepare('UPDATE library_vaults SET root_path = ? WHERE id = 1').run(plan.vault_target);
  // 5. The record of backups and restores is this installation's (no erase touches it either): the
  // bundle's database was snapshotted before its own backup was recorded, so without the set-aside
  // database's records svc would forget this bundle and every later one it wrote.
  carryHistoryFrom(ctx, path.join(undo, 'svc.db'));
  // 6. The bundle carried no webhook secrets: each webhook destination gets a new one.
  const resecreted = resecretWebhookTargets(ctx);
  if (resecreted.length) ctx.log.warn(`gave ${resecreted.length} webhook destination(s) a new signing secret; give it to each receiver again (\`svc routine target secret\`)`);
  if (!hasRestore(db, plan.staged_at_utc, plan.bundle_path)) {
    insertRestore(db, {
      bundle_path: plan.bundle_path,
      bundle_created_at_utc: plan.bundle_created_at_utc,
      staged_at_utc: plan.staged_at_utc,
      applied_at_utc: ctx.nowIso(),
      undo_path: ['svc.db', 'vault-aside.txt', REPORTS_ASIDE_NOTE].some((f) => exists(path.join(undo, f))) ? undo : null,
      vault_path: plan.vault_target,
      not_restored_json: JSON.stringify([...plan.not_restored, ...(refusedLine ? [refusedLine] : [])]),
    });
  }
  // After the record: a start killed before this still finds the refused folder, and says so.
  keepFormerReportsDir(ctx, reports);
  fs.rmSync(stage, { recursive: true, force: true });
  const asideNote = reports.setAside ? `, with ${reports.setAside === 1 ? 'the report file' : `${reports.setAside} report files`} it would have replaced` : '';
  ctx.log.warn(`restored the backup of ${plan.bundle_created_at_utc} from ${path.basename(plan.bundle_path)}; the previous database is kept as an undo copy${asideNote}`);
  return plan;
}

/**
 * A staged plan whose names are not what svc stages (one an older svc staged unchecked, or altered
 * since) is not applied: nothing moves, the current database stays, and the start goes on rather
 * than failing every time. Only svc's own staging copies go (stagedVaultCopies).
 */
function forgetRefusedPlan(ctx: Context, plan: StagedPlan, problem: string): void {
  for (const copy of stagedVaultCopies(ctx, plan)) fs.rmSync(copy, { recursive: true, force: true });
  fs.rmSync(stagingDir(ctx), { recursive: true, force: true });
  ctx.log.warn(`did not apply the staged restore: ${problem}; nothing was moved and the current database is kept (stage the bundle again with \`svc restore\`)`);
}

function carryHistoryFrom(ctx: Context, undoDb: string): void {
  if (!exists(undoDb)) return; // nothing was set aside: a first restore into an empty installation
  let before: Sqlite.Database | null = null;
  try {
    before = new Sqlite(undoDb, { readonly: true, fileMustExist: true });
    carryHistory(ctx.db, before);
  } catch (err) {
    // The restore itself has happened; only the record is incomplete (an undo copy from before migration 11, say).
    ctx.log.warn(`kept the restored database's record of backups only; the set-aside one could not be read (${(err as Error).message})`);
  } finally {
    before?.close();
  }
}
