/**
 * The Library's calls and the shapes the pages read (spec 2, "Library
 * routes"). Every Library and Evidence request carries `X-Svc-Library: 1`
 * besides the token; the browser adds the renderer's Origin itself. Imports
 * send the file's bytes (never a path) with upload progress.
 */
import { api } from './client.js';
import { upload } from './upload.js';

export const LIBRARY_HEADERS = { 'x-svc-library': '1' };
const opts = (signal?: AbortSignal, query?: Record<string, string | number | undefined>) => ({ headers: LIBRARY_HEADERS, signal, query });

export interface FolderState {
  reachable: boolean;
  reason: string | null;
  message: string | null;
}

export interface LibraryLimits {
  file_bytes: number;
  selection_files: number;
  vault_bytes: number;
  catalog_items: number;
  list_limit_max: number;
  list_limit_default: number;
}

export interface LibraryStatus {
  configured: boolean;
  vault: { vault_id: string; label: string; created_at_utc: string } | null;
  counts: { files: number; retained_bytes: number; paper_links: number };
  limits: LibraryLimits;
  /** Whether the vault folder opens as this vault; null without a vault. */
  folder: FolderState | null;
}

export interface LibraryFile {
  id: number;
  file_id: string;
  version_id: string;
  original_name: string;
  format: 'pdf' | 'txt' | 'md';
  media_type: string;
  byte_size: number;
  sha256: string;
  imported_at_utc: string;
}

export interface FilePage {
  through_id: number;
  before_id: number | null;
  items: LibraryFile[];
  has_more: boolean;
  next_before_id: number | null;
}

export interface PaperLink {
  document_id: number;
  basis: string;
  linked_at_utc: string;
}

export interface FileDetail {
  file: LibraryFile;
  paper_links: PaperLink[];
}

export interface ImportReceipt {
  outcome: 'created' | 'duplicate';
  file: LibraryFile;
  link: (PaperLink & { created: boolean }) | null;
}

export interface LinkReceipt {
  created: boolean;
  link: PaperLink;
}

export const library = {
  status: (signal?: AbortSignal) => api.get<LibraryStatus>('/api/library', opts(signal)),
  createVault: (parentDirectory: string) => api.post<LibraryStatus>('/api/library/vault', { parent_directory: parentDirectory }, opts()),
  files: (vaultId: string, page: { q?: string; throughId?: number; beforeId?: number; limit?: number }, signal?: AbortSignal) =>
    api.get<FilePage>('/api/library/files', opts(signal, { expected_vault_id: vaultId, q: page.q, through_id: page.throughId, before_id: page.beforeId, limit: page.limit })),
  file: (vaultId: string, fileId: string, signal?: AbortSignal) => api.get<FileDetail>(`/api/library/files/${encodeURIComponent(fileId)}`, opts(signal, { expected_vault_id: vaultId })),
  /** The id as typed when it is not a whole number: the service refuses it beside the field. */
  linkPaper: (vaultId: string, fileId: string, documentId: number | string) =>
    api.post<LinkReceipt>(`/api/library/files/${encodeURIComponent(fileId)}/paper-links`, { expected_vault_id: vaultId, document_id: documentId }, opts()),
  /** The file's bytes as the body; 201 a new copy, 200 the exact bytes already in the Library. */
  importFile: (vaultId: string, file: File, onProgress: (sent: number, total: number) => void, signal?: AbortSignal) =>
    upload<ImportReceipt>('/api/library/files', file, { query: { expected_vault_id: vaultId, filename: file.name }, headers: LIBRARY_HEADERS, onProgress, signal }),
};

/** The first hex digits of a SHA-256, as the pages show a version. */
export const shortHash = (sha256: string) => sha256.slice(0, 12);
