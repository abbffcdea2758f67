/**
 * GET /api/library's status: what the catalog records, and whether the vault
 * folder still opens as this vault (the window says so, and what to do, when
 * a drive was unmounted). It never names the absolute root: the reason and
 * the Library's own words only.
 */
import type { Context } from '../context.js';
import { libraryStatus } from './status.js';
import { vaultFolder } from './vault.js';
import type { LibraryStatusWithFolder } from '../wire/library.js';

/** @example libraryStatusWithFolder(ctx).folder // { reachable: false, reason: 'vault_unavailable', message: 'The vault folder is missing …' } */
export function libraryStatusWithFolder(ctx: Context): LibraryStatusWithFolder {
  const folder = vaultFolder(ctx);
  return { ...libraryStatus(ctx), folder: folder && { reachable: folder.reachable, reason: folder.reason, message: folder.message } };
}
