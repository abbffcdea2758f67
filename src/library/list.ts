/**
 * The keyset list: newest first under a fixed ceiling. The first page answers
 * through_id (the highest catalog id now); later pages send it back with
 * before_id, the last id they saw, so imports made meanwhile never shift a
 * page. A refresh (no through_id) starts a new ceiling.
 */
import type { Context } from '../context.js';
import { asciiFold } from './repo.js';
import { libraryOf, requireVault } from './service.js';
import { fileView, unchecked } from './views.js';
import type { FilePage } from '../wire/library.js';

export interface ListRequest {
  expectedVaultId: string;
  /** Literal substring of the file name, ASCII case folded. */
  q?: string;
  throughId?: number;
  beforeId?: number;
  limit?: number;
}

/** @example listFiles(ctx, { expectedVaultId, q: 'review', limit: 20 }) */
export function listFiles(ctx: Context, request: ListRequest): FilePage {
  const lib = libraryOf(ctx);
  const vault = requireVault(lib, request.expectedVaultId);
  const catalog = lib.catalog();
  const throughId = request.throughId ?? catalog.totals(vault.vault_id).max_id;
  const limit = request.limit ?? lib.limits.listDefault;
  const rows = catalog.page({
    vaultId: vault.vault_id,
    throughId,
    beforeId: request.beforeId ?? null,
    fold: request.q === undefined ? null : asciiFold(request.q),
    limit: limit + 1,
  });
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    version: 1,
    vault_id: vault.vault_id,
    q: request.q ?? null,
    through_id: throughId,
    before_id: request.beforeId ?? null,
    limit,
    items: page.map((row) => unchecked(fileView(row))),
    has_more: hasMore,
    next_before_id: hasMore ? page[page.length - 1]!.id : null,
    availability: 'not_checked',
  };
}
