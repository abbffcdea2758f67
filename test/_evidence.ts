/**
 * Evidence test helpers: a Library server with Evidence limits configured,
 * requests with the Library headers for every method, and shortcuts that
 * import a file, make a project and add members.
 */
import { configureEvidence, type EvidenceLimits } from '../src/evidence/index.js';
import type { LibraryOptions } from '../src/library/index.js';
import type { RawResponse } from './_setup.js';
import { LIB_HEADERS, startLibraryServer, type LibraryServer } from './_library.js';

export interface FileRef {
  id: number;
  file_id: string;
  version_id: string;
  sha256: string;
  byte_size: number;
  relative_path: string;
}

export interface EvidenceServer extends LibraryServer {
  call(method: string, path: string, body?: unknown): Promise<RawResponse>;
  file(name: string, bytes: string | Buffer): Promise<FileRef>;
  project(name?: string): Promise<{ project_id: string; revision: number }>;
  /** Add the file to the project at its current revision; answers the new revision. */
  add(projectId: string, f: FileRef): Promise<number>;
  revision(projectId: string): Promise<number>;
  P(projectId?: string): string;
  V: string;
}

export async function startEvidenceServer(options: { limits?: Partial<EvidenceLimits>; library?: LibraryOptions } = {}): Promise<EvidenceServer> {
  const s = await startLibraryServer(options.library ?? {});
  configureEvidence(s.t.ctx, { limits: options.limits });
  const V = `expected_vault_id=${s.vaultId}`;
  const call = (method: string, path: string, body?: unknown) => s.t.request(method, path, { body, headers: LIB_HEADERS });
  const P = (projectId?: string) => `/api/evidence/projects${projectId ? `/${projectId}` : ''}`;
  const revision = async (projectId: string) => (await call('GET', `${P(projectId)}?${V}`)).json().project.revision as number;
  return {
    ...s,
    call,
    V,
    P,
    revision,
    async file(name, bytes) {
      const r = await s.importBytes(name, bytes);
      if (r.status !== 201 && r.status !== 200) throw new Error(`${name}: ${r.status} ${r.text}`);
      return r.json().file as FileRef;
    },
    async project(name = 'Project') {
      const r = await call('POST', P(), { expected_vault_id: s.vaultId, name });
      if (r.status !== 201) throw new Error(`project: ${r.status} ${r.text}`);
      return r.json().project;
    },
    async add(projectId, f) {
      const r = await call('POST', `${P(projectId)}/files`, { expected_vault_id: s.vaultId, expected_revision: await revision(projectId), file_id: f.file_id, version_id: f.version_id });
      if (r.status !== 201 && r.status !== 200) throw new Error(`add: ${r.status} ${r.text}`);
      return r.json().project.revision;
    },
  };
}
