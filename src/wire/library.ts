/**
 * The JSON of the Library as the routes send it (spec 2, "Library routes"):
 * the status with the vault folder's state, retained files and their paper
 * links, pages of them, and the receipts of an import and a link. Every answer
 * is version 1 and never names the vault's absolute root (only the verified
 * open does, for the desktop shell). Declared once here, for the service and
 * the window alike; imports nothing but wire files.
 */

export type LibraryFormat = 'pdf' | 'txt' | 'md';
/** import: linked when the file was imported; link: linked afterwards. */
export type LinkBasis = 'import' | 'link';

/** The limits as the status and inventory state them. */
export interface PublicLimits {
  file_bytes: number;
  selection_files: number;
  vault_bytes: number;
  catalog_items: number;
  text_bytes: number;
  text_lines: number;
  text_json_bytes: number;
  inventory_bytes: number;
  list_limit_max: number;
  list_limit_default: number;
}

/** What the catalog records about the Library (POST /api/library/vault answers it). */
export interface LibraryStatus {
  version: 1;
  configured: boolean;
  vault: { vault_id: string; label: string; created_at_utc: string } | null;
  counts: { files: number; retained_bytes: number; paper_links: number };
  limits: PublicLimits;
}

/** Whether the vault folder opens as this vault; reason and message (the Library's own words) say why not. */
export interface FolderState {
  reachable: boolean;
  reason: string | null;
  message: string | null;
}

/** GET /api/library: the status, and the folder's state (null without a vault). */
export interface LibraryStatusWithFolder extends LibraryStatus {
  folder: FolderState | null;
}

/** A retained file as the catalog records it; relative_path is inside the vault folder. */
export interface LibraryFile {
  id: number;
  file_id: string;
  version_id: string;
  original_name: string;
  format: LibraryFormat;
  media_type: string;
  byte_size: number;
  sha256: string;
  relative_path: string;
  imported_at_utc: string;
}

/** A file in a list or metadata answer: its bytes were not hashed for it. */
export interface UncheckedFile extends LibraryFile {
  availability: 'not_checked';
}

/** An owner's explicit link from a file to a paper. */
export interface PaperLink {
  document_id: number;
  basis: LinkBasis;
  linked_at_utc: string;
}

/** GET /api/library/files: newest first under the ceiling through_id. */
export interface FilePage {
  version: 1;
  vault_id: string;
  q: string | null;
  through_id: number;
  before_id: number | null;
  limit: number;
  items: UncheckedFile[];
  has_more: boolean;
  next_before_id: number | null;
  availability: 'not_checked';
}

/** GET /api/library/files/{file_id}. */
export interface FileDetail {
  version: 1;
  vault_id: string;
  file: UncheckedFile;
  paper_links: PaperLink[];
}

/** POST /api/library/files: 201 created, 200 the same bytes already retained. */
export interface ImportReceipt {
  version: 1;
  vault_id: string;
  outcome: 'created' | 'duplicate';
  file: LibraryFile;
  link: (PaperLink & { created: boolean }) | null;
}

/** POST /api/library/files/{file_id}/paper-links: created is false when the link was already there. */
export interface LinkReceipt {
  version: 1;
  vault_id: string;
  file_id: string;
  version_id: string;
  created: boolean;
  link: PaperLink;
}

/** GET /api/library/files/{file_id}/text: a retained TXT or MD file's verified text, newlines normalized to LF. */
export interface TextEnvelope {
  version: 1;
  kind: 'svc-library-text';
  vault_id: string;
  file_id: string;
  version_id: string;
  sha256: string;
  media_type: string;
  encoding: 'utf-8';
  normalization: 'crlf-cr-to-lf-v1';
  byte_size: number;
  line_count: number;
  text: string;
}
