/**
 * The saved passages a page that was just read can show as highlights. Spec 2:
 * a highlight needs the same contract, page text hash, page and exact range;
 * a passage saved on this page under other text or another contract is named
 * as not highlighted and is never re-anchored or moved.
 */
import type { Context } from '../context.js';
import type { VersionSelector } from './members.js';
import { listNotes } from './notes.js';
import type { ProjectRef } from './service.js';
import type { Highlight, NotHighlighted, PageHighlights } from '../wire/evidence.js';

export interface ReadPageFacts {
  requested_page: number;
  page_basis: string;
  extraction_contract: string;
  page_sha256: string | null;
  codepoint_length: number | null;
}

export type { Highlight, NotHighlighted } from '../wire/evidence.js';

/**
 * The passage notes of exactly this file version saved on this page, split
 * into highlights and the ones that cannot be shown on this text.
 *
 * @example pageHighlights(ctx, { ...ref, file: { fileId, versionId } }, await readPage(ctx, …))
 */
export function pageHighlights(ctx: Context, req: ProjectRef & { file: VersionSelector }, page: ReadPageFacts): PageHighlights {
  const highlights: Highlight[] = [];
  const notHighlighted: NotHighlighted[] = [];
  let afterId = 0;
  let throughId: number | undefined;
  for (;;) {
    const r = listNotes(ctx, { ...req, afterId, throughId, limit: 50 });
    throughId = r.through_id;
    for (const n of r.items) {
      const a = n.anchor;
      if (!a || a.page !== page.requested_page || a.page_basis !== page.page_basis) continue;
      const at = { note_id: n.note_id, start: a.start, end: a.end };
      if (page.page_sha256 === null) notHighlighted.push({ ...at, reason: 'page_unreadable' });
      else if (a.extraction_contract !== page.extraction_contract) notHighlighted.push({ ...at, reason: 'contract_mismatch' });
      else if (a.page_sha256 !== page.page_sha256 || page.codepoint_length === null || a.end > page.codepoint_length) notHighlighted.push({ ...at, reason: 'page_hash_mismatch' });
      else highlights.push({ ...at, quote: a.quote, body: n.body });
    }
    if (!r.has_more || r.next_after_id === null) break;
    afterId = r.next_after_id;
  }
  return { highlights, not_highlighted: notHighlighted };
}
