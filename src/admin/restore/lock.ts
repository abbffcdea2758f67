/** The staging lock: restore-staging.lock in the data directory, naming the process that stages. */
import path from 'node:path';
import type { Context } from '../../context.js';
import { conflict } from '../../errors.js';
import { ensureOwnedDir } from '../../util/owned-files.js';
import { identityIn, ownerStands, ownOwner, type Owner } from '../../claims/owner.js';
import { releaseFileClaim, takeFileClaim, type FileClaimRule } from '../../claims/file.js';

const stagingLock = (ctx: Context) => path.join(ctx.paths.dataDir, 'restore-staging.lock');

const inProgress = () => conflict('restore_in_progress', 'A restore is being verified and staged right now; wait for it, then cancel it if it is not wanted.');

/**
 * The owner a lock names: JSON with its pid and identity; a bare pid from an older svc; undefined
 * while it is empty (being written this instant by the process that created it); null for anything else.
 */
function ownerIn(text: string): Owner | null | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const value = JSON.parse(trimmed) as { pid?: unknown; boot_id?: unknown; pid_start?: unknown };
    return value !== null && typeof value === 'object' && Number.isSafeInteger(value.pid) ? { pid: value.pid as number, ...identityIn(value) } : null;
  } catch {
    return null;
  }
}

/**
 * Of the processes of one data directory (the server, a `svc restore` waiting at its question), one
 * stages at a time: they share the staging folder, and a second would wipe the first's extraction.
 * A lock left by a process that is gone (claims/owner.ts: a pid now run by another process is gone
 * too) does not count. Answers the function that releases it.
 */
export function takeStagingLock(ctx: Context): () => void {
  const file = stagingLock(ctx);
  ensureOwnedDir(ctx.paths.dataDir);
  const mine = JSON.stringify(ownOwner()) + '\n';
  const rule: FileClaimRule = {
    judge(bytes) {
      const text = bytes.toString('utf8');
      if (text === mine) return 'mine';
      const owner = ownerIn(text);
      return owner === undefined || (owner !== null && ownerStands(owner)) ? 'live' : 'stale';
    },
    unreadable() {
      throw inProgress();
    },
  };
  if (!takeFileClaim(file, mine, rule, String(process.pid), 2).taken) throw inProgress();
  return () => releaseFileClaim(file, rule);
}
