/**
 * Evidence projects' calls (spec 2, "Evidence routes"); the shapes of their
 * answers are the service's own, from src/wire/evidence.ts. Every change sends the project revision the page read; a stale one
 * comes back as the service's 409 revision_conflict, never retried here.
 */
import type { MemberChange, MemberPage, MemberView, NotePage, ProjectAnswer, ProjectChange, ProjectList, ProjectShown, ProjectView } from '../../../src/wire/evidence.js';
import { api } from './client.js';
import { LIBRARY_HEADERS } from './library.js';

const P = '/api/evidence/projects';
const opts = (signal?: AbortSignal, query?: Record<string, string | number | undefined>) => ({ headers: LIBRARY_HEADERS, signal, query });
const at = (projectId: string) => `${P}/${encodeURIComponent(projectId)}`;

export type { MemberView as Member, NoteView as Note, Paging, ProjectChange, ProjectShown, ProjectView as Project } from '../../../src/wire/evidence.js';

type Page = { afterId?: number; throughId?: number };
const paging = (page: Page = {}) => ({ after_id: page.afterId, through_id: page.throughId });

export const evidence = {
  projects: (vaultId: string, page?: Page, signal?: AbortSignal) => api.get<ProjectList>(P, opts(signal, { expected_vault_id: vaultId, ...paging(page) })),
  create: (vaultId: string, name: string) => api.post<ProjectAnswer>(P, { expected_vault_id: vaultId, name }, opts()),
  show: (vaultId: string, projectId: string, signal?: AbortSignal) => api.get<ProjectShown>(at(projectId), opts(signal, { expected_vault_id: vaultId })),
  rename: (vaultId: string, project: ProjectView, name: string) => api.patch<ProjectChange>(at(project.project_id), { expected_vault_id: vaultId, expected_revision: project.revision, name }, opts()),
  members: (vaultId: string, projectId: string, page?: Page, signal?: AbortSignal) =>
    api.get<MemberPage>(`${at(projectId)}/files`, opts(signal, { expected_vault_id: vaultId, ...paging(page) })),
  add: (vaultId: string, project: ProjectView, file: { file_id: string; version_id: string }) =>
    api.post<MemberChange>(`${at(project.project_id)}/files`, { expected_vault_id: vaultId, expected_revision: project.revision, file_id: file.file_id, version_id: file.version_id }, opts()),
  remove: (vaultId: string, project: ProjectView, member: MemberView) =>
    api.delete<MemberChange>(`${at(project.project_id)}/files/${encodeURIComponent(member.file_id)}`, opts(undefined, { expected_vault_id: vaultId, expected_revision: project.revision, version_id: member.version_id })),
  notes: (vaultId: string, projectId: string, page?: Page, signal?: AbortSignal) =>
    api.get<NotePage>(`${at(projectId)}/notes`, opts(signal, { expected_vault_id: vaultId, ...paging(page) })),
};

/** The service's answer to a change sent with a revision that is no longer the project's. */
export const isRevisionConflict = (err: unknown) => (err as { reason?: string } | null)?.reason === 'revision_conflict';
