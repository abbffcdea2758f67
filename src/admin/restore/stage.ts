/**
 * Staging a restore (POST /api/restore, `svc restore FILE`) reads the whole bundle, recomputing
 * every hash while it extracts into a staging folder, checks the database (integrity, foreign keys,
 * schema) and records the plan in staged.json, written last. Nothing of the installation moves:
 * the next start applies the plan (apply.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { ensureOwnedDir, writeOwnerOnlyFile } from '../../util/owned-files.js';
import { bundleInvalid, readBundle } from '../bundle.js';
import { manifestNamesProblem } from '../bundle-names.js';
import { describeBundle, resolveBundlePath } from '../backup.js';
import { requireConfirm } from '../erase.js';
import { checkDatabase, checkVaultParent } from './checks.js';
import { takeStagingLock } from './lock.js';
import { planFile, readPlan, stagingDir } from './plan.js';
import type { RestoreCancelled, RestoreStaged, StagedPlan, VerifyAnswer } from '../../wire/admin.js';
import { undoRoot } from './undo.js';
import { clearAbandonedVaultStaging, newStagingFolder, stagedVaultCopies } from './vault-staging.js';

export const RESTORE_CONFIRM = 'restore';

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

/**
 * A bundle verified and extracted into the staging folder, not yet staged: every check a restore
 * makes has passed, and nothing decides the next start until `commit` writes staged.json. The
 * command asks its question here, so a "yes" is never followed by a refusal; `discard` (a "no")
 * removes what was extracted (a failed commit discards too). One of the two must be called; a
 * second discard does nothing.
 */
export interface PreparedRestore {
  verify: VerifyAnswer;
  commit(): RestoreStaged;
  discard(): void;
}

/** Verify a bundle completely and stage it for the next start. */
export async function stageRestore(ctx: Context, input: StageInput): Promise<RestoreStaged> {
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
    const commit = (): RestoreStaged => {
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
export function cancelRestore(ctx: Context): RestoreCancelled {
  const plan = readPlan(ctx);
  if (!plan) throw notFound('no_staged_restore', 'No restore is staged.');
  for (const copy of stagedVaultCopies(ctx, plan)) fs.rmSync(copy, { recursive: true, force: true });
  fs.rmSync(stagingDir(ctx), { recursive: true, force: true });
  return { cancelled: true, bundle_path: plan.bundle_path };
}
