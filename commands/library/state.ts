/**
 * What the commands that read the Library say about the state of its vault,
 * worded for the person at their own terminal: the vault folder's absolute
 * path (their own information; the HTTP door never names it), the two ways
 * back the spec allows when the folder is gone (a configured vault is never
 * pointed at another folder and no existing folder is adopted, so there is no
 * "re-point"), and a staged restore, which waits for the next start, instead
 * of an invitation to create a vault the restore would replace.
 */
import path from 'node:path';
import type { Context } from '../../src/context.js';
import { SvcError } from '../../src/errors.js';
import { readPlan } from '../../src/admin/restore/plan.js';
import { vaultFolder, type VaultFolder } from '../../src/library/index.js';
import { minuteUtc } from '../../src/util/words.js';
import { inCliWords, type Door, type Typed } from '../lib/refusals.js';
import { withContext } from '../lib/context.js';
import type { Io } from '../lib/io.js';

/** Why the folder does not open as the vault, then the ways back. */
export function folderGoneWords(folder: Pick<VaultFolder, 'path' | 'reason'> & { message?: string | null }): string {
  // A folder that is there but refused (a link put in its place, say) is not gone: the Library's own words say why.
  if (folder.reason !== 'vault_unavailable' && folder.reason !== 'vault_marker_invalid' && folder.message) {
    return `${folder.message.replace(/\.?$/, '')}: ${folder.path}. Put the vault folder itself back in its place; svc never follows a link out of its vault.`;
  }
  const what =
    folder.reason === 'vault_marker_invalid'
      ? `The folder ${folder.path} is not this Library's vault (its vault.json is missing or names another vault).`
      : `The Library vault folder ${folder.path} is missing or not reachable.`;
  return `${what} Ways back: put the vault folder back where it was (reconnect its drive), or restore a backup that holds it with \`svc restore FILE --vault-parent DIR\`, which places the vault inside a folder you name at the next start of \`svc serve\`.`;
}

/** The folder-gone refusal the CLI gives (exit 1 by its reason, as the file system failing). */
export function vaultGone(folder: VaultFolder): SvcError {
  return new SvcError(409, folder.reason ?? 'vault_unavailable', folderGoneWords(folder));
}

/** A staged restore in one sentence with what to do about it; null when none is staged. */
export function restoreWaiting(ctx: Context): string | null {
  const plan = readPlan(ctx);
  if (!plan) return null;
  const vault = plan.vault_target ? `its Library vault goes to ${plan.vault_target}` : 'its bundle holds no Library vault';
  return `A restore is waiting for the next start of \`svc serve\` or the daemon: the backup of ${minuteUtc(plan.bundle_created_at_utc)} (${path.basename(plan.bundle_path)}); ${vault}. Start (or restart) the server to apply it (\`svc restore status\` shows it, \`svc restore cancel\` forgets it).`;
}

/** `err` in the Library's command-line words, with what only this terminal may be told (the vault's path, a staged restore). */
export function libraryWords(ctx: Context, door: Door, err: unknown, typed: Typed = {}): unknown {
  if (!(err instanceof SvcError)) return err;
  if (err.reason === 'vault_not_configured') {
    const waiting = restoreWaiting(ctx);
    if (waiting) return new SvcError(err.status, err.reason, `No Library vault yet. ${waiting}`, err.extra);
  }
  if (err.reason === 'vault_unavailable' || err.reason === 'vault_marker_invalid') {
    const folder = vaultFolder(ctx);
    if (folder) return new SvcError(err.status, err.reason, folderGoneWords({ path: folder.path, reason: err.reason }), err.extra);
  }
  // A version_id given for a file already names the file it belongs to: keep that message.
  if (door === 'library' && err.extra.version_id !== undefined) return err;
  return inCliWords(door, err, typed);
}

/** withContext for the commands that read the Library: refusals in libraryWords, worded while the Context is open. */
export function withLibraryContext<T>(io: Io, door: Door, fn: (ctx: Context) => Promise<T> | T, typed: Typed = {}): Promise<T> {
  return withContext(io, async (ctx) => {
    try {
      return await fn(ctx);
    } catch (err) {
      throw libraryWords(ctx, door, err, typed);
    }
  });
}
