/**
 * Evidence projects' calls and the shapes the pages read (spec 2, "Evidence
 * routes"). Every change sends the project revision the page read; a stale one
 * comes back as the service's 409 revision_conflict, never retried here.
 */
import { api } from './client.js';
import { LIBRARY_HEADERS } from './library.js';

const P = '/api/evidence/projects';
const opts = (signal?: AbortSignal, query?: Record<string, string | number | undefined>) => ({ headers: LIBRARY_HEADERS, signal, query });
const at = (projectId: string) => `${P}/${encodeURIComponent(projectId)}`;

export interface Project {
  project_id: string;
  name: string;
  revision: number;
  created_at_utc: string;
  updated_at_utc: string;
}

export interface Paging {
  through_id: number;
  next_after_id: number | null;
  has_more: boolean;
  total: number;
}

export interface Member {
  member_id: number;
  file_id: string;
  version_id: string;
  original_name: string;
  format: 'pdf' | 'txt' | 'md';
  byte_size: number;
  sha256: string;
  added_at_utc: string;
}

export interface Anchor {
  page_basis: 'physical' | 'logical';
  page: number;
  start: number;
  end: number;
  quote: string;
}

export interface Note {
  note_id: number;
  revision: number;
  file_id: string;
  version_id: string;
  kind: 'plain' | 'passage';
  body: string;
  anchor: Anchor | null;
  created_at_utc: string;
  updated_at_utc: string;
}

export interface ProjectShown {
  project: Project;
  counts: { files: number; notes: number };
}

export interface ProjectChange {
  changed: boolean;
  project: Project;
}

type Page = { afterId?: number; throughId?: number };
const paging = (page: Page = {}) => ({ after_id: page.afterId, through_id: page.throughId });

export const evidence = {
  projects: (vaultId: string, page?: Page, signal?: AbortSignal) => api.get<{ items: Project[] } & Paging>(P, opts(signal, { expected_vault_id: vaultId, ...paging(page) })),
  create: (vaultId: string, name: string) => api.post<{ project: Project }>(P, { expected_vault_id: vaultId, name }, opts()),
  show: (vaultId: string, projectId: string, signal?: AbortSignal) => api.get<ProjectShown>(at(projectId), opts(signal, { expected_vault_id: vaultId })),
  rename: (vaultId: string, project: Project, name: string) => api.patch<ProjectChange>(at(project.project_id), { expected_vault_id: vaultId, expected_revision: project.revision, name }, opts()),
  members: (vaultId: string, projectId: string, page?: Page, signal?: AbortSignal) =>
    api.get<{ items: Member[]; project_revision: number } & Paging>(`${at(projectId)}/files`, opts(signal, { expected_vault_id: vaultId, ...paging(page) })),
  add: (vaultId: string, project: Project, file: { file_id: string; version_id: string }) =>
    api.post<ProjectChange>(`${at(project.project_id)}/files`, { expected_vault_id: vaultId, expected_revision: project.revision, file_id: file.file_id, version_id: file.version_id }, opts()),
  remove: (vaultId: string, project: Project, member: Member) =>
    api.delete<ProjectChange>(`${at(project.project_id)}/files/${encodeURIComponent(member.file_id)}`, opts(undefined, { expected_vault_id: vaultId, expected_revision: project.revision, version_id: member.version_id })),
  notes: (vaultId: string, projectId: string, page?: Page, signal?: AbortSignal) =>
    api.get<{ items: Note[]; project_revision: number } & Paging>(`${at(projectId)}/notes`, opts(signal, { expected_vault_id: vaultId, ...paging(page) })),
};

/** The service's answer to a change sent with a revision that is no longer the project's. */
export const isRevisionConflict = (err: unknown) => (err as { reason?: string } | null)?.reason === 'revision_conflict';
