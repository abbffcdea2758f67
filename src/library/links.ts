/**
 * Explicit paper links: an owner's association of a retained file with an
 * existing paper id, never inferred. Linking twice answers the same receipt.
 */
import type { Context } from '../context.js';
import * as reasons from './reasons.js';
import { findFile, type FileRef } from './read.js';
import { libraryOf } from './service.js';
import { linkView } from './views.js';
import type { LinkReceipt } from '../wire/library.js';

/**
 * POST /api/library/files/{file_id}/paper-links.
 * @example linkPaper(ctx, { expectedVaultId, fileId, documentId: 42 }).created
 */
export function linkPaper(ctx: Context, ref: FileRef & { documentId: number }): LinkReceipt {
  const catalog = libraryOf(ctx).catalog();
  return catalog.transaction(() => {
    const { vault, row } = findFile(ctx, ref);
    if (!catalog.documentExists(ref.documentId)) throw reasons.documentNotFound(ref.documentId);
    const created = catalog.insertLink(row.id, ref.documentId, 'link', ctx.nowIso());
    const link = catalog.link(row.id, ref.documentId)!;
    return { version: 1, vault_id: vault.vault_id, file_id: row.file_id, version_id: row.version_id, created, link: linkView(link) };
  });
}

/** Refuse a paper id that does not exist (404 document_not_found), e.g. before a whole import selection is linked to it. */
export function requireDocument(ctx: Context, documentId: number): void {
  if (!libraryOf(ctx).catalog().documentExists(documentId)) throw reasons.documentNotFound(documentId);
}
