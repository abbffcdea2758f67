/**
 * How Library records appear in answers. Paths are relative to the vault
 * folder; only the verified open answers an absolute one.
 */
import type { FileRow, LinkRow } from './repo.js';
import type { LibraryFile, PaperLink, UncheckedFile } from '../wire/library.js';

export function fileView(row: FileRow): LibraryFile {
  return {
    id: row.id,
    file_id: row.file_id,
    version_id: row.version_id,
    original_name: row.original_name,
    format: row.format,
    media_type: row.media_type,
    byte_size: row.byte_size,
    sha256: row.sha256,
    relative_path: row.relative_path,
    imported_at_utc: row.imported_at_utc,
  };
}

/** List and metadata answers do not hash the files they describe. */
export const unchecked = (view: LibraryFile): UncheckedFile => ({ ...view, availability: 'not_checked' });

export function linkView(row: LinkRow): PaperLink {
  return { document_id: row.document_id, basis: row.basis, linked_at_utc: row.linked_at_utc };
}
