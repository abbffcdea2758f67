/**
 * The Library's calls (spec 2, "Library routes"); the shapes of their answers
 * are the service's, from src/wire/library.ts. Every Library and Evidence
 * request carries `X-Svc-Library: 1` besides the token; the browser adds the
 * renderer's Origin itself. Imports send the file's bytes (never a path) with
 * upload progress.
 */
import type { FileDetail, FilePage, ImportReceipt, LibraryStatus, LibraryStatusWithFolder, LinkReceipt } from '../../../src/wire/library.js';
import { api } from './client.js';
import { upload } from './upload.js';

export type { FileDetail, ImportReceipt, LibraryFile, LibraryStatusWithFolder } from '../../../src/wire/library.js';

export const LIBRARY_HEADERS = { 'x-svc-library': '1' };

const opts = (signal?: AbortSignal, query?: Record<string, string | number | undefined>) => ({ headers: LIBRARY_HEADERS, signal, query });

export const library = {
  status: (signal?: AbortSignal) => api.get<LibraryStatusWithFolder>('/api/library', opts(signal)),
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
