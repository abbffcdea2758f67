/** How Evidence records appear in answers (contract_version 1 envelopes). */
import type { MemberView, NoteView, ProjectView } from '../wire/evidence.js';
import type { MemberRow, NoteRow, ProjectRow } from './repo.js';

export type { MemberView, NoteView, ProjectView } from '../wire/evidence.js';

export const CONTRACT_VERSION = 1 as const;

export function projectView(row: ProjectRow): ProjectView {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    revision: row.revision,
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
  };
}

export function memberView(row: MemberRow): MemberView {
  return {
    member_id: row.member_id,
    file_id: row.file_id,
    version_id: row.version_id,
    original_name: row.original_name,
    format: row.format,
    media_type: row.media_type,
    byte_size: row.byte_size,
    sha256: row.sha256,
    imported_at_utc: row.imported_at_utc,
    added_at_utc: row.added_at_utc,
    availability: 'not_checked' as const,
  };
}

export function noteView(row: NoteRow): NoteView {
  return {
    note_id: row.id,
    revision: row.revision,
    file_id: row.file_id,
    version_id: row.version_id,
    kind: row.kind,
    body: row.body,
    anchor:
      row.kind === 'passage'
        ? {
            page_basis: row.page_basis!,
            page: row.page!,
            extraction_contract: row.extraction_contract!,
            page_sha256: row.page_sha256!,
            start: row.start_codepoint!,
            end: row.end_codepoint!,
            quote: row.quote!,
            content_sha256: row.content_sha256!,
          }
        : null,
    created_at_utc: row.created_at_utc,
    updated_at_utc: row.updated_at_utc,
  };
}

export interface PageRequest {
  afterId?: number;
  throughId?: number;
  limit?: number;
}

/**
 * The list envelope's paging fields: ids ascend under a fixed ceiling
 * (through_id, the current maximum on the first page); `total` counts the rows
 * at or below that ceiling now (the count basis).
 */
export function pageOf<R extends { id: number }>(rows: R[], limit: number, afterId: number, throughId: number, total: number) {
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    page,
    paging: {
      after_id: afterId,
      through_id: throughId,
      limit,
      next_after_id: hasMore ? page[page.length - 1]!.id : null,
      has_more: hasMore,
      total,
      count_basis: 'rows_at_or_below_through_id' as const,
    },
  };
}
