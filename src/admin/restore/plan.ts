/**
 * The plan of a staged restore (staged.json in the staging folder, written
 * last): what the next start applies. Apart from the rest of the restore so that the
 * commands that only ask whether a restore waits (the Library's) load none of
 * the restore's machinery.
 */
import path from 'node:path';
import type { Context } from '../../context.js';
import { readOwnedFile } from '../../util/owned-files.js';

export interface StagedPlan {
  version: 1;
  bundle_path: string;
  manifest_sha256: string;
  bundle_created_at_utc: string;
  staged_at_utc: string;
  stamp: string;
  vault_target: string | null;
  vault_staging: string | null;
  reports: string[];
  fk_violations: number;
  not_restored: string[];
}

export const stagingDir = (ctx: Context) => path.join(ctx.paths.dataDir, 'restore-staged');
export const planFile = (ctx: Context) => path.join(stagingDir(ctx), 'staged.json');

/** The staged plan, or null when no restore is staged (or its plan cannot be read). */
export function readPlan(ctx: Context): StagedPlan | null {
  const bytes = readOwnedFile(planFile(ctx));
  if (!bytes) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as StagedPlan;
  } catch {
    return null;
  }
}

