/**
 * The plan of a staged restore (staged.json in the staging folder, written
 * last): what the next start applies. Apart from the rest of the restore so that the
 * commands that only ask whether a restore waits (the Library's) load none of
 * the restore's machinery.
 */
import path from 'node:path';
import type { Context } from '../../context.js';
import { readOwnedFile } from '../../util/owned-files.js';
import type { StagedPlan } from '../../wire/admin.js';

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

