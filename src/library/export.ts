/**
 * The inventory export: a JSON text inside a versioned envelope. It lists
 * every file with portable relative paths and paper ids; it leaves out
 * absolute roots, source paths, paper titles, credentials and bytes. An
 * inventory over its limit is refused, never truncated.
 */
import type { Context } from '../context.js';
import { publicLimits } from './limits.js';
import * as reasons from './reasons.js';
import { libraryOf, requireVault } from './service.js';
import { fileView, linkView } from './views.js';
import type { PaperLink } from '../wire/library.js';

/** @example exportInventory(ctx, { expectedVaultId }).text */
export function exportInventory(ctx: Context, request: { expectedVaultId: string }) {
  const lib = libraryOf(ctx);
  const vault = requireVault(lib, request.expectedVaultId);
  const catalog = lib.catalog();
  const links = new Map<number, PaperLink[]>();
  for (const link of catalog.allLinks(vault.vault_id)) {
    const list = links.get(link.file_row) ?? [];
    list.push(linkView(link));
    links.set(link.file_row, list);
  }
  const files = catalog.all(vault.vault_id).map((row) => {
    const { id: _catalogRow, ...file } = fileView(row); // the catalog's row id is local, not portable
    return { ...file, paper_links: links.get(row.id) ?? [], availability: 'not_checked' as const };
  });
  const inventory = {
    version: 1,
    kind: 'svc-library-inventory',
    vault_id: vault.vault_id,
    generated_at_utc: ctx.nowIso(),
    limits: publicLimits(lib.limits),
    file_count: files.length,
    files,
  };
  const envelope = {
    version: 1 as const,
    vault_id: vault.vault_id,
    format: 'json' as const,
    filename: `svc-library-inventory-${vault.vault_id}.json`,
    content_type: 'application/json',
    text: JSON.stringify(inventory),
  };
  if (Buffer.byteLength(JSON.stringify(envelope), 'utf8') > lib.limits.inventoryBytes) throw reasons.exportTooLarge(lib.limits.inventoryBytes);
  return envelope;
}
