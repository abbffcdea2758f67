/**
 * Every name a backup bundle supplies that becomes a path on this machine is
 * judged here, and nowhere else. A bundle is its author's: a crafted one named
 * its vault folder "../precious", the restore joined that to the parent the
 * user named, and at the next start emptied the folder beside it. So:
 *
 * - entry and manifest file names (the format's rule, for every reader) are
 *   relative, free of "..", NUL and backslashes, and stay inside their root;
 * - what a restore makes of them: the vault folder is exactly
 *   svc-library-<the bundle's vault id>, and each file sits under the one
 *   folder its kind is restored from. Verify and restore both ask this, so
 *   they refuse a bundle in the same words;
 * - the staged plan is asked again at the next start, before anything moves:
 *   it is a file in the data directory, and one written by an older svc (or
 *   altered since) was never checked.
 */
import path from 'node:path';
import { isUuid4 } from '../random.js';
import { vaultFolderName } from '../library/vault.js';
import type { BundleFileKind, Manifest } from './bundle.js';

const MAX_NAME = 4096;
const NOMINAL_ROOT = path.posix.resolve('/bundle-root');
/** The names svc gives report files (executions/report.ts). */
export const REPORT_NAME = /^execution-\d+\.txt$/;
/** The folder a restore stages the vault in, inside the vault parent: `.svc-restore-<pid>-<ms>.staging`. */
export const VAULT_STAGING_NAME = /^\.svc-restore-(\d+)-(\d+)\.staging$/;
/** A restore's stamp (restore/stage.ts freshStamp): the staging time to the second, then -2, -3… */
const STAMP = /^\d{8}T\d{6}Z(-\d+)?$/;

/** A name as it can be shown in one line: quoted, NUL and backslashes escaped, long ones cut. */
export const shownName = (name: unknown): string => JSON.stringify(typeof name === 'string' && name.length > 80 ? `${name.slice(0, 80)}…` : name) ?? String(name);

/** Why `name` is not a safe relative name for a file in a bundle, or null when it is. */
export function unsafeNameProblem(name: string): string | null {
  if (name === '') return 'is empty';
  if (name.length > MAX_NAME) return 'is too long';
  if (name.includes('\0')) return 'holds a NUL character';
  if (name.includes('\\')) return 'holds a backslash';
  if (name.startsWith('/')) return 'is absolute';
  const parts = name.split('/');
  if (parts.includes('..')) return 'climbs out with ".."';
  if (parts.some((part) => part === '' || part === '.')) return 'has an empty or "." part';
  // Implied by the parts above; said again as resolution, which is what every extraction relies on.
  if (!path.posix.resolve(NOMINAL_ROOT, name).startsWith(`${NOMINAL_ROOT}/`)) return 'resolves outside its folder';
  return null;
}

/** The kind of file a restore takes from `name`, by the folder it sits under; null for a name no restore puts back. */
function kindAt(name: string): BundleFileKind | null {
  if (name === 'database/svc.db') return 'database';
  if (name.startsWith('vault/')) return 'vault';
  if (/^reports\/[^/]+$/.test(name)) return 'report';
  return null;
}

/**
 * Why a restore could not take a manifest's names (already safe by the format's rule) as they are,
 * or null. The vault's id must be canonical and its folder exactly svc-library-<that id>: the
 * folder name is joined to the parent the user named.
 */
export function manifestNamesProblem(m: Manifest): string | null {
  const vault = m.vault ?? null;
  if (vault !== null) {
    if (typeof vault !== 'object' || typeof vault.vault_id !== 'string' || !isUuid4(vault.vault_id)) {
      return `The manifest's vault id ${shownName(vault?.vault_id)} is not a lowercase UUID: the bundle was altered.`;
    }
    const expected = vaultFolderName(vault.vault_id);
    if (vault.folder_name !== expected) {
      return `The manifest names the vault folder ${shownName(vault.folder_name)}, not ${expected} (its vault id): a restore puts a vault only into that folder inside the vault parent you name.`;
    }
  }
  for (const f of m.files) {
    const kind = kindAt(f.path);
    if (kind === null) return `The manifest lists ${shownName(f.path)}, which is not where a bundle keeps a file (database/svc.db, vault/…, reports/<name>): the bundle was altered.`;
    if (kind !== f.kind) return `The manifest lists ${shownName(f.path)} as a ${f.kind} file, but that is where a bundle keeps a ${kind} file: the bundle was altered.`;
    if (kind === 'vault' && vault === null) return `The manifest lists the vault file ${shownName(f.path)} but names no vault: the bundle was altered.`;
  }
  return null;
}

const absoluteAndPlain = (p: unknown): p is string => typeof p === 'string' && !p.includes('\0') && path.isAbsolute(p) && path.resolve(p) === p;

/** `p` is a vault staging folder as svc names it: absolute, with no "..", named `.svc-restore-<pid>-<ms>.staging`. */
export const isVaultStagingPath = (p: unknown): p is string => absoluteAndPlain(p) && VAULT_STAGING_NAME.test(path.basename(p));

const isVaultFolderPath = (p: unknown): p is string => {
  if (!absoluteAndPlain(p)) return false;
  const id = /^svc-library-(.+)$/.exec(path.basename(p))?.[1];
  return id !== undefined && isUuid4(id);
};

/** The fields of a staged plan (StagedPlan, src/wire/admin.ts) that become paths when it is applied. */
export interface PlanNames {
  version?: unknown;
  bundle_path?: unknown;
  stamp?: unknown;
  vault_target?: unknown;
  vault_staging?: unknown;
  reports?: unknown;
}

/**
 * Why a staged plan cannot be applied as it stands, or null. Applying renames the vault target
 * aside and the staging folder onto it, and moves reports by name: each must be what svc stages.
 */
export function stagedPlanProblem(plan: PlanNames | null): string | null {
  if (!plan || typeof plan !== 'object' || plan.version !== 1 || typeof plan.bundle_path !== 'string') return 'the plan is not one svc writes';
  if (typeof plan.stamp !== 'string' || !STAMP.test(plan.stamp)) return `its stamp ${shownName(plan.stamp)} is not one svc makes`;
  if (!Array.isArray(plan.reports)) return 'its list of reports is missing';
  const report = plan.reports.find((r) => typeof r !== 'string' || !REPORT_NAME.test(r));
  if (report !== undefined) return `it names the report file ${shownName(report)}, a name svc never writes`;
  const { vault_target: target, vault_staging: staging } = plan;
  if (target !== null && !isVaultFolderPath(target)) return `its vault folder ${shownName(target)} is not svc-library-<vault id> inside a folder`;
  if (staging !== null && !isVaultStagingPath(staging)) return `its vault staging folder ${shownName(staging)} is not one svc makes`;
  if (target !== null && staging !== null && path.dirname(target) !== path.dirname(staging)) return 'its vault folder and the vault staging folder are in different folders';
  return null;
}
