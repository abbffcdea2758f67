/**
 * Restore in two halves. Staging (POST /api/restore) reads the whole bundle,
 * recomputing every hash while it extracts into a staging folder, checks the
 * database (integrity, foreign keys, schema) and records the plan in
 * staged.json, written last. Nothing of the installation moves. Applying
 * happens at the next start, before the database opens: the current
 * database is set aside as an undo copy, a vault folder already where the
 * restored one goes is set aside too, then the staged files move in (reports
 * without replacing a file: restore-reports.ts). Each
 * step checks what is already done, so a start killed halfway finishes the
 * restore on the next start.
 */
import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Context } from '../context.js';
import { badRequest, conflict, notFound, SvcError } from '../errors.js';
import { createOwnedFileExclusive, readOwnedFile, writeOwnerOnlyFile, ensureOwnedDir } from '../util/owned-files.js';
import { isPidAlive } from '../util/pid.js';
import { bundleInvalid, readBundle } from './bundle.js';
import { isVaultStagingPath, manifestNamesProblem, stagedPlanProblem, VAULT_STAGING_NAME } from './bundle-names.js';
import { describeBundle, resolveBundlePath, type VerifyAnswer } from './backup.js';
import { requireConfirm } from './erase.js';
import { acknowledgeRestores, carryHistory, hasRestore, insertRestore, lastRestore } from './repo.js';
import { resecretWebhookTargets } from '../delivery/targets.js';
import { secretsFacts, type BundleSecretsFacts } from './restore-facts.js';
import { keepFormerReportsDir, putBackReports, refusedFolderLine, REPORTS_ASIDE_NOTE } from './restore-reports.js';
import { planFile, readPlan, stagingDir, type StagedPlan } from './restore-plan.js';

export { readPlan, type StagedPlan };

export const RESTORE_CONFIRM = 'restore';
export const UNDO_DELETE_CONFIRM = 'delete-undo-copies';

const stagingLock = (ctx: Context) => path.join(ctx.paths.dataDir, 'restore-staging.lock');

const inProgress = () => conflict('restore_in_progress', 'A restore is being verified and staged right now; wait for it, then cancel it if it is not wanted.');

/**
 * Of the processes of one data directory (the server, a `svc restore` waiting at its question), one
 * stages at a time: they share the staging folder, and a second would wipe the first's extraction.
 * A lock left by a process that is gone does not count.
 */
function takeStagingLock(ctx: Context): () => void {
  const file = stagingLock(ctx);
  ensureOwnedDir(ctx.paths.dataDir);
  const mine = `${process.pid}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createOwnedFileExclusive(file, mine)) {
      return () => {
        if (readOwnedFile(file)?.toString('utf8') === mine) fs.rmSync(file, { force: true });
      };
    }
    let held: string | undefined;
    try {
      held = readOwnedFile(file)?.toString('utf8');
    } catch {
      throw inProgress();
    }
    if (held === undefined) continue; // released meanwhile
    const pid = Number(held.trim());
    // Empty: being written this instant by the process that created it.
    if (!held.trim() || isPidAlive(pid)) throw inProgress();
    fs.rmSync(file, { force: true });
  }
  throw inProgress();
}
export const undoRoot = (ctx: Context) => path.join(ctx.paths.dataDir, 'restore-undo');

function checkVaultParent(given: string): string {
  if (!path.isAbsolute(given)) throw badRequest('vault_parent_invalid', 'vault_parent (--vault-parent) must be an absolute path to an existing folder.');
  let real: string;
  try {
    real = fs.realpathSync(given);
  } catch {
    throw badRequest('vault_parent_missing', 'vault_parent (--vault-parent) does not exist; create the folder first.');
  }
  if (!fs.statSync(real).isDirectory()) throw badRequest('vault_parent_invalid', 'vault_parent (--vault-parent) is not a folder.');
  return real;
}

/** The Library vault the database records (none before schema 16, or none created). */
function recordedVaultId(db: Sqlite.Database): string | null {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'library_vaults'").get() !== undefined;
  if (!hasTable) return null;
  return (db.prepare('SELECT vault_id FROM library_vaults WHERE id = 1').pluck().get() as string | undefined) ?? null;
}

function checkDatabase(file: string): { fkViolations: number; tables: string[]; secrets: BundleSecretsFacts; vaultId: string | null } {
  let db: Sqlite.Database;
  try {
    db = new Sqlite(file, { fileMustExist: true });
  } catch {
    throw new SvcError(422, 'bundle_invalid', 'The database in the bundle cannot be opened.');
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new SvcError(422, 'bundle_invalid', 'The database in the bundle fails its integrity check.');
    const violations = db.pragma('foreign_key_check') as { table: string }[];
    return { fkViolations: violations.length, tables: [...new Set(violations.map((v) => v.table))], secrets: secretsFacts(db), vaultId: recordedVaultId(db) };
  } catch (err) {
    if (err instanceof SvcError) throw err;
    throw new SvcError(422, 'bundle_invalid', 'The database in the bundle cannot be read.');
  } finally {
    db.close();
  }
}

/**
 * Where the vault's staging folder of the restore being prepared is noted (in the data directory's
 * staging folder, written before the folder is made): a process killed before it could discard
 * (SIGKILL, a crash) leaves a copy of the vault in the user's folder that only this note finds.
 */
const vaultStagingNote = (ctx: Context) => path.join(stagingDir(ctx), 'vault-staging.txt');

/**
 * The vault staging copies a staged plan may have left in the user's folder: the one it names and
 * the one noted when it was made (the same folder, unless the plan was altered). Only folders named
 * as svc names them: the plan is a file, not a trusted order to remove anything.
 */
function stagedVaultCopies(ctx: Context, plan: StagedPlan): string[] {
  const noted = readOwnedFile(vaultStagingNote(ctx))?.toString('utf8').trim();
  return [...new Set([plan.vault_staging, noted])].filter(isVaultStagingPath);
}

/**
 * Remove the vault staging copy an abandoned preparation left. Called with the staging lock held
 * and no restore staged, so no live restore can still need it; its process must be gone too.
 */
function clearAbandonedVaultStaging(ctx: Context): void {
  const noted = readOwnedFile(vaultStagingNote(ctx))?.toString('utf8').trim();
  if (!isVaultStagingPath(noted)) return;
  const owner = VAULT_STAGING_NAME.exec(path.basename(noted))!;
  const pid = Number(owner[1]);
  if (pid !== process.pid && isPidAlive(pid)) return;
  fs.rmSync(noted, { recursive: true, force: true });
}

/**
 * The staged vault's folder in the user's parent, made here (0700) before anything is written
 * into it: a link or folder planted at the guessable name is refused, never written through.
 */
function newStagingFolder(ctx: Context, parent: string): string {
  const dir = path.join(parent, `.svc-restore-${process.pid}-${Date.now()}.staging`);
  writeOwnerOnlyFile(vaultStagingNote(ctx), dir + '\n');
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new SvcError(500, 'unsafe_directory', 'Something is already where the restore stages the vault (a link or a folder); remove it and try again.');
  }
  return dir;
}

export interface StageInput {
  path: string;
  confirm: string;
  vault_parent: string;
  accept_fk_violations: boolean;
}

/**
 * A stamp naming this restore's undo folder and set-aside vault folder that no earlier restore
 * used: applying must never mistake an earlier undo copy for its own (it would then skip setting
 * the current database aside and replace it), nor set a vault aside onto an existing folder.
 */
export function freshStamp(ctx: Context, stagedAt: string, vaultTarget: string | null): string {
  const base = stagedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const stamp = n === 1 ? base : `${base}-${n}`;
    if (fs.existsSync(path.join(undoRoot(ctx), stamp))) continue;
    if (vaultTarget && fs.existsSync(`${vaultTarget}.before-restore-${stamp}`)) continue;
    return stamp;
  }
}

export type StageAnswer = { staged: true; applies: string; plan: StagedPlan; verify: VerifyAnswer };

/**
 * A bundle verified and extracted into the staging folder, not yet staged: every check a restore
 * makes has passed, and nothing decides the next start until `commit` writes staged.json. The
 * command asks its question here, so a "yes" is never followed by a refusal; `discard` (a "no")
 * removes what was extracted (a failed commit discards too). One of the two must be called; a
 * second discard does nothing.
 */
export interface PreparedRestore {
  verify: VerifyAnswer;
  commit(): StageAnswer;
  discard(): void;
}

/** Verify a bundle completely and stage it for the next start. */
export async function stageRestore(ctx: Context, input: StageInput): Promise<StageAnswer> {
  requireConfirm(input.confirm, RESTORE_CONFIRM);
  return (await prepareRestore(ctx, input)).commit();
}

/** Every check of `stageRestore` and the extraction, without staging (see PreparedRestore). */
export async function prepareRestore(ctx: Context, input: Omit<StageInput, 'confirm'>): Promise<PreparedRestore> {
  // Two stagings at once would extract into the same folder; the second is refused, the first goes on.
  // The lock names this process too, so a second staging in this process is refused the same way.
  const release = takeStagingLock(ctx);
  try {
    const prepared = await prepareNow(ctx, input);
    let settled = false;
    const discard = () => {
      if (settled) return; // after a commit (or a discard) there is nothing left to remove
      settled = true;
      try {
        prepared.discard();
      } finally {
        release();
      }
    };
    const commit = () => {
      if (settled) throw new Error('this prepared restore was already committed or discarded');
      try {
        const answer = prepared.commit();
        settled = true;
        release();
        return answer;
      } catch (err) {
        discard();
        throw err;
      }
    };
    return { verify: prepared.verify, commit, discard };
  } catch (err) {
    release();
    throw err;
  }
}

async function prepareNow(ctx: Context, input: Omit<StageInput, 'confirm'>): Promise<PreparedRestore> {
  if (readPlan(ctx)) throw conflict('restore_already_staged', 'A restore is already staged; cancel it first (`svc restore cancel`).');
  const file = resolveBundlePath(ctx, input.path);
  const parent = input.vault_parent ? checkVaultParent(input.vault_parent) : null;
  const stage = stagingDir(ctx);
  // Leftovers of a staging that never finished (its process was killed at the question, say).
  clearAbandonedVaultStaging(ctx);
  fs.rmSync(stage, { recursive: true, force: true });
  ensureOwnedDir(stage);
  let vaultStaging: string | null = null;
  const reports: string[] = [];
  const discard = () => {
    fs.rmSync(stage, { recursive: true, force: true });
    if (vaultStaging) fs.rmSync(vaultStaging, { recursive: true, force: true });
  };
  try {
    const read = await readBundle(file, (name) => {
      if (name === 'database/svc.db') return path.join(stage, 'database', 'svc.db');
      if (name.startsWith('reports/')) {
        reports.push(name.slice('reports/'.length));
        return path.join(stage, ...name.split('/'));
      }
      if (name.startsWith('vault/') && parent) {
        vaultStaging ??= newStagingFolder(ctx, parent);
        return path.join(vaultStaging, ...name.slice('vault/'.length).split('/'));
      }
      return null;
    });
    const m = read.manifest;
    // Every name the bundle gives is judged before any of it can decide a path (bundle-names.ts).
    const names = manifestNamesProblem(m);
    if (names) throw bundleInvalid(names);
    if (m.vault && !parent) throw badRequest('vault_parent_required', 'The bundle holds a Library vault; name the existing folder to put it in (vault_parent; `svc restore FILE --vault-parent DIR`).');
    if (m.schema_version > ctx.schemaVersion) throw conflict('bundle_too_new', `The bundle has schema ${m.schema_version}, newer than this svc knows (${ctx.schemaVersion}); upgrade svc first.`);
    const db = checkDatabase(path.join(stage, 'database', 'svc.db'));
    // The vault folder is named for the manifest's vault id: the restored database must be that vault's,
    // or a manifest could name the folder of another vault in the parent.
    if (m.vault && m.vault.vault_id !== db.vaultId) {
      throw bundleInvalid(`The manifest names the Library vault ${m.vault.vault_id}, but the database in the bundle records ${db.vaultId ?? 'none'}: the bundle was altered.`);
    }
    if (db.fkViolations > 0 && !input.accept_fk_violations) {
      throw conflict('fk_violations', `The database in the bundle has ${db.fkViolations} foreign-key violations (in ${db.tables.join(', ')}); to restore it anyway, send accept_fk_violations true (\`svc restore FILE --accept-fk-violations\`).`, { count: db.fkViolations, tables: db.tables });
    }
    const verify = describeBundle(ctx, file, m, read.size, read.manifest_sha256, db.secrets);
    const commit = (): StageAnswer => {
      const stagedAt = ctx.nowIso();
      const vaultTarget = m.vault && parent ? path.join(parent, m.vault.folder_name) : null;
      const plan: StagedPlan = {
        version: 1,
        bundle_path: file,
        manifest_sha256: read.manifest_sha256,
        bundle_created_at_utc: m.created_at_utc,
        staged_at_utc: stagedAt,
        stamp: freshStamp(ctx, stagedAt, vaultTarget),
        vault_target: vaultTarget,
        vault_staging: vaultStaging,
        reports,
        fk_violations: db.fkViolations,
        not_restored: verify.restore_would_not,
      };
      if (readPlan(ctx)) throw conflict('restore_already_staged', 'A restore was staged meanwhile; cancel it first (`svc restore cancel`).');
      writeOwnerOnlyFile(planFile(ctx), JSON.stringify(plan, null, 2) + '\n');
      return { staged: true, applies: 'at the next start of the server or daemon', plan, verify };
    };
    return { verify, commit, discard };
  } catch (err) {
    discard();
    throw err;
  }
}

/** Forget a staged restore; nothing had moved. */
export function cancelRestore(ctx: Context): { cancelled: true; bundle_path: string } {
  const plan = readPlan(ctx);
  if (!plan) throw notFound('no_staged_restore', 'No restore is staged.');
  for (const copy of stagedVaultCopies(ctx, plan)) fs.rmSync(copy, { recursive: true, force: true });
  fs.rmSync(stagingDir(ctx), { recursive: true, force: true });
  return { cancelled: true, bundle_path: plan.bundle_path };
}

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
  if (exists(stagedDb)) {
    for (const suffix of ['-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
    ensureOwnedDir(path.dirname(live));
    fs.renameSync(stagedDb, live);
  }
  // 4. Reports go where the restored database says they were, if that is a reports folder this
  // installation already used; a report already there goes into the undo copy (restore-reports.ts).
  const db = ctx.db;
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

export function acknowledgeRestore(ctx: Context): { acknowledged: number } {
  return { acknowledged: acknowledgeRestores(ctx.db, ctx.nowIso()) };
}

function undoCopies(ctx: Context): string[] {
  const root = undoRoot(ctx);
  let stamps: string[] = [];
  try {
    stamps = fs.readdirSync(root);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const s of stamps) {
    const dir = path.join(root, s);
    out.push(dir);
    const aside = readOwnedFile(path.join(dir, 'vault-aside.txt'))?.toString('utf8').trim();
    if (aside && exists(aside)) out.push(aside);
  }
  return out;
}

function sizeOf(p: string): number {
  const st = fs.lstatSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((sum, n) => sum + sizeOf(path.join(p, n)), 0);
}

export function undoCopyStatus(ctx: Context) {
  const copies = undoCopies(ctx);
  return { exists: copies.length > 0, count: copies.length, byte_size: copies.reduce((s, p) => s + sizeOf(p), 0) };
}

/** Remove every undo copy (databases, set-aside vault folders and report files). Irreversible. */
export function deleteUndoCopies(ctx: Context, confirm: string): { deleted: number; byte_size: number } {
  requireConfirm(confirm, UNDO_DELETE_CONFIRM);
  const status = undoCopyStatus(ctx);
  const copies = undoCopies(ctx);
  for (const p of copies.reverse()) fs.rmSync(p, { recursive: true, force: true });
  fs.rmSync(undoRoot(ctx), { recursive: true, force: true });
  return { deleted: status.count, byte_size: status.byte_size };
}

export function restoreStatus(ctx: Context) {
  const plan = readPlan(ctx);
  const last = lastRestore(ctx.db);
  return {
    staged: plan ? { bundle_path: plan.bundle_path, bundle_created_at_utc: plan.bundle_created_at_utc, staged_at_utc: plan.staged_at_utc, vault_target: plan.vault_target, fk_violations: plan.fk_violations, applies: 'at the next start' } : null,
    last_restore: last
      ? {
          bundle_path: last.bundle_path,
          bundle_created_at_utc: last.bundle_created_at_utc,
          applied_at_utc: last.applied_at_utc,
          vault_path: last.vault_path,
          not_restored: JSON.parse(last.not_restored_json) as string[],
          show_card: last.acknowledged_at_utc === null,
          acknowledged_at_utc: last.acknowledged_at_utc,
        }
      : null,
    undo_copy: undoCopyStatus(ctx),
  };
}
