/** The staging lock: restore-staging.lock in the data directory, naming the process that stages. */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../context.js';
import { conflict } from '../../errors.js';
import { createOwnedFileExclusive, ensureOwnedDir, readOwnedFile } from '../../util/owned-files.js';
import { isPidAlive } from '../../util/pid.js';

const stagingLock = (ctx: Context) => path.join(ctx.paths.dataDir, 'restore-staging.lock');

const inProgress = () => conflict('restore_in_progress', 'A restore is being verified and staged right now; wait for it, then cancel it if it is not wanted.');

/**
 * Of the processes of one data directory (the server, a `svc restore` waiting at its question), one
 * stages at a time: they share the staging folder, and a second would wipe the first's extraction.
 * A lock left by a process that is gone does not count. Answers the function that releases it.
 */
export function takeStagingLock(ctx: Context): () => void {
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
