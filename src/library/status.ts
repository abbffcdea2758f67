/**
 * GET /api/library: the versioned status. It names the vault by UUID and
 * label, never by its absolute root.
 */
import type { Context } from '../context.js';
import { publicLimits } from './limits.js';
import { libraryOf } from './service.js';
import type { LibraryStatus } from '../wire/library.js';

export function libraryStatus(ctx: Context): LibraryStatus {
  const lib = libraryOf(ctx);
  const catalog = lib.catalog();
  const vault = catalog.vault();
  const totals = vault ? catalog.totals(vault.vault_id) : { files: 0, bytes: 0 };
  return {
    version: 1,
    configured: vault !== undefined,
    vault: vault ? { vault_id: vault.vault_id, label: vault.label, created_at_utc: vault.created_at_utc } : null,
    counts: { files: totals.files, retained_bytes: totals.bytes, paper_links: vault ? catalog.linkCount(vault.vault_id) : 0 },
    limits: publicLimits(lib.limits),
  };
}
