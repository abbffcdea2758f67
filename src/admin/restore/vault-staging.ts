/**
 * The vault's staging copy: a restore of a bundle with a Library vault extracts it into a folder
 * beside where it goes, in the user's parent folder. Made, found again and removed here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { SvcError } from '../../errors.js';
import { readOwnedFile, writeOwnerOnlyFile } from '../../util/owned-files.js';
import { ownerStands, ownStartTag } from '../../claims/owner.js';
import { isVaultStagingPath, VAULT_STAGING_NAME } from '../bundle-names.js';
import { stagingDir } from './plan.js';
import type { StagedPlan } from '../../wire/admin.js';

/**
 * Where the vault's staging folder of the restore being prepared is noted (in the data directory's
 * staging folder, written before the folder is made): a process killed before it could discard
 * (SIGKILL, a crash) leaves a copy of the vault in the user's folder that only this note finds.
 * The note's second line is the start time of the process that made the folder (claims/owner.ts),
 * where the system says; the folder's name holds its pid and when it was made.
 */
const vaultStagingNote = (ctx: Context) => path.join(stagingDir(ctx), 'vault-staging.txt');

/** The noted folder and its maker's start time (absent in a note of an older svc). */
function readNote(ctx: Context): { folder: string | undefined; start: number | undefined } {
  const [folder, start] = (readOwnedFile(vaultStagingNote(ctx))?.toString('utf8') ?? '').split('\n').map((l) => l.trim());
  return { folder: folder || undefined, start: start && /^\d{1,18}$/.test(start) ? Number(start) : undefined };
}

/**
 * The vault staging copies a staged plan may have left in the user's folder: the one it names and
 * the one noted when it was made (the same folder, unless the plan was altered). Only folders named
 * as svc names them: the plan is a file, not a trusted order to remove anything.
 */
export function stagedVaultCopies(ctx: Context, plan: StagedPlan): string[] {
  return [...new Set([plan.vault_staging, readNote(ctx).folder])].filter(isVaultStagingPath);
}

/**
 * Remove the vault staging copy an abandoned preparation left. Called with the staging lock held
 * and no restore staged, so no live restore can still need it; its process must be gone too (a pid
 * now run by another process is gone where the note says the maker's start time; without it, the
 * pid alone decides, as for a note of an older svc).
 */
export function clearAbandonedVaultStaging(ctx: Context): void {
  const { folder, start } = readNote(ctx);
  if (!isVaultStagingPath(folder)) return;
  const [, pid, madeAtMs] = VAULT_STAGING_NAME.exec(path.basename(folder))!;
  const owner = { pid: Number(pid), ...(start === undefined ? {} : { pid_start: start }) };
  if (owner.pid !== process.pid && ownerStands(owner, start === undefined ? null : Number(madeAtMs))) return;
  fs.rmSync(folder, { recursive: true, force: true });
}

/**
 * The staged vault's folder in the user's parent, made here (0700) before anything is written
 * into it: a link or folder planted at the guessable name is refused, never written through.
 */
export function newStagingFolder(ctx: Context, parent: string): string {
  const dir = path.join(parent, `.svc-restore-${process.pid}-${Date.now()}.staging`);
  writeOwnerOnlyFile(vaultStagingNote(ctx), `${dir}\n${ownStartTag()}\n`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new SvcError(500, 'unsafe_directory', 'Something is already where the restore stages the vault (a link or a folder); remove it and try again.');
  }
  return dir;
}
