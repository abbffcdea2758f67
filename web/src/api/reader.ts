/**
 * The Evidence reader's calls (spec 2, "Evidence routes"): the vault, the
 * project, the file, one page of text with its saved passages, the verified
 * PDF bytes, the file's notes, and a new note. Every one carries the Library
 * header; the browser adds the renderer's Origin itself.
 */
import type { AnchorInput, NoteCreated, NotePage, NoteView, ReaderPage } from '../../../src/wire/evidence.js';
import { api } from './client.js';
import { evidence } from './evidence.js';
import { LIBRARY_HEADERS as LIBRARY, type FileDetail, type LibraryStatusWithFolder } from './library.js';

const PROJECTS = '/api/evidence/projects';

export type { AnchorInput as Anchor, Highlight, NotHighlighted, NoteView as Note, PageStatus, ReaderPage } from '../../../src/wire/evidence.js';

export interface FileRef {
  vaultId: string;
  projectId: string;
  fileId: string;
  versionId: string;
}

export const reader = {
  library: (signal?: AbortSignal) => api.get<LibraryStatusWithFolder>('/api/library', { headers: LIBRARY, signal }),
  project: (vaultId: string, projectId: string, signal?: AbortSignal) => evidence.show(vaultId, projectId, signal).then((r) => r.project),
  file: (vaultId: string, fileId: string, signal?: AbortSignal) =>
    api.get<FileDetail>(`/api/library/files/${fileId}`, { query: { expected_vault_id: vaultId }, headers: LIBRARY, signal }).then((r) => r.file),
  page: (ref: FileRef, page: number, signal?: AbortSignal) =>
    api.get<ReaderPage>(`${PROJECTS}/${ref.projectId}/reader/${ref.fileId}`, { query: { expected_vault_id: ref.vaultId, version_id: ref.versionId, page }, headers: LIBRARY, signal }),
  /** The verified bytes of the whole PDF (the route names a page; the bytes are the file's). */
  async pdfBytes(ref: FileRef, signal?: AbortSignal): Promise<ArrayBuffer> {
    const response = await api.get<Response>(`${PROJECTS}/${ref.projectId}/reader/${ref.fileId}`, {
      query: { expected_vault_id: ref.vaultId, version_id: ref.versionId, page: 1, representation: 'pdf' },
      headers: LIBRARY,
      signal,
      raw: true,
    });
    return response.arrayBuffer();
  },
  /** Every note of this file version, page after page of the service's list under one ceiling. */
  async notes(ref: FileRef, signal?: AbortSignal): Promise<{ notes: NoteView[]; revision: number }> {
    const notes: NoteView[] = [];
    let afterId = 0;
    let throughId: number | undefined;
    for (;;) {
      const r = await api.get<NotePage>(`${PROJECTS}/${ref.projectId}/notes`, {
        query: { expected_vault_id: ref.vaultId, file_id: ref.fileId, version_id: ref.versionId, after_id: afterId, through_id: throughId, limit: 50 },
        headers: LIBRARY,
        signal,
      });
      notes.push(...r.items);
      throughId = r.through_id;
      if (!r.has_more || r.next_after_id === null) return { notes, revision: r.project_revision };
      afterId = r.next_after_id;
    }
  },
  createNote: (ref: FileRef, expectedRevision: number, note: { kind: 'plain' | 'passage'; body: string; anchor: AnchorInput | null }) =>
    api.post<NoteCreated>(
      `${PROJECTS}/${ref.projectId}/notes`,
      { expected_vault_id: ref.vaultId, expected_revision: expectedRevision, file_id: ref.fileId, version_id: ref.versionId, ...note },
      { headers: LIBRARY },
    ),
};
