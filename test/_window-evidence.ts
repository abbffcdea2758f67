/**
 * What the Evidence reader's browser tests and bench share, over the window
 * harness (test/_window.ts): `svc window` with a Library vault, files
 * imported as bytes and pinned in a project through the API (with the
 * Library's Origin and header, as the page sends them), a page of the window
 * signed in with a launch code of its own, and the database the backend
 * writes, for what only an older svc could have stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { libraryRequest, okJson, startWindow, type BrowserWindow } from './_window.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- playwright-core's objects and JSON answers */
export interface EvidenceWindow extends BrowserWindow {
  vaultId: string;
  /** A Library or Evidence request as the window sends it; throws unless it answers 2xx. */
  api(method: string, path: string, body?: unknown): Promise<any>;
  /** Import bytes as a Library file; answers its file record. */
  importFile(name: string, bytes: Buffer | string): Promise<{ file_id: string; version_id: string; sha256: string }>;
  /** A project holding these files, pinned; answers its id. */
  project(name: string, files: { file_id: string; version_id: string }[]): Promise<string>;
  /** The page text the service extracts, with its hash and the project's revision. */
  readPage(projectId: string, file: { file_id: string; version_id: string }, page: number): Promise<any>;
  /** Change stored rows as only another version of svc could have left them. */
  sql(statement: string, ...args: unknown[]): void;
}

export async function startEvidenceWindow(executablePath: string): Promise<EvidenceWindow> {
  const win = await startWindow(executablePath);
  const { dirs } = win;
  const call = async (method: string, p: string, body?: unknown, bytes?: Buffer | string) => okJson(await libraryRequest(win, method, p, { body, bytes }), method, p);
  const parent = path.join(dirs.root, 'library-parent');
  fs.mkdirSync(parent);
  const vaultId: string = (await call('POST', '/api/library/vault', { parent_directory: parent })).vault.vault_id;
  const V = `expected_vault_id=${vaultId}`;
  const P = '/api/evidence/projects';
  return {
    ...win,
    vaultId,
    api: (method, p, body) => call(method, p, body),
    async importFile(name, bytes) {
      return (await call('POST', `/api/library/files?${V}&filename=${encodeURIComponent(name)}`, undefined, bytes)).file;
    },
    async project(name, files) {
      let project = (await call('POST', P, { expected_vault_id: vaultId, name })).project;
      for (const f of files) project = (await call('POST', `${P}/${project.project_id}/files`, { expected_vault_id: vaultId, expected_revision: project.revision, file_id: f.file_id, version_id: f.version_id })).project;
      return project.project_id;
    },
    readPage: (projectId, f, page) => call('GET', `${P}/${projectId}/reader/${f.file_id}?${V}&version_id=${f.version_id}&page=${page}`),
    sql(statement, ...args) {
      const db = new Database(path.join(dirs.dataDir, 'svc.db'));
      try {
        db.pragma('busy_timeout = 5000');
        db.prepare(statement).run(...args);
      } finally {
        db.close();
      }
    },
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
