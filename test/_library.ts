/**
 * Library test helpers: a server with a renderer origin and a vault, requests
 * that carry the Library headers, raw-byte imports, and a paper row to link.
 */
import fs from 'node:fs';
import path from 'node:path';
import { configureLibrary, type LibraryOptions } from '../src/library/index.js';
import { rawRequest, startTestServer, type RawResponse, type TestServer } from './_setup.js';

export const RENDERER = 'http://127.0.0.1:5173';
export const LIB_HEADERS = { origin: RENDERER, 'x-svc-library': '1' };

export interface LibraryServer {
  t: TestServer;
  vaultId: string;
  parent: string;
  /** The vault folder (absolute). */
  root: string;
  get(path: string, headers?: Record<string, string>): Promise<RawResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  importBytes(filename: string, bytes: string | Buffer, extraQuery?: string, headers?: Record<string, string | string[]>): Promise<RawResponse>;
  addDocument(title?: string): number;
  close(): Promise<void>;
}

export async function startLibraryServer(options: LibraryOptions & { vault?: boolean } = {}): Promise<LibraryServer> {
  const t = await startTestServer({ rendererOrigin: RENDERER });
  configureLibrary(t.ctx, options);
  const parent = path.join(t.dirs.root, 'parent');
  fs.mkdirSync(parent);
  const get = (p: string, headers: Record<string, string> = {}) => t.request('GET', p, { headers: { ...LIB_HEADERS, ...headers } });
  const post = (p: string, body: unknown, headers: Record<string, string> = {}) => t.request('POST', p, { body, headers: { ...LIB_HEADERS, ...headers } });
  let vaultId = '';
  let root = '';
  if (options.vault !== false) {
    const created = await post('/api/library/vault', { parent_directory: parent });
    if (created.status !== 201) throw new Error(`vault: ${created.status} ${created.text}`);
    vaultId = created.json().vault.vault_id;
    root = path.join(fs.realpathSync(parent), `svc-library-${vaultId}`);
  }
  let docs = 0;
  return {
    t,
    vaultId,
    parent,
    root,
    get,
    post,
    importBytes(filename, bytes, extraQuery = '', headers = {}) {
      const query = `expected_vault_id=${vaultId}&filename=${encodeURIComponent(filename)}${extraQuery}`;
      return rawRequest(t.port, {
        method: 'POST',
        path: `/api/library/files?${query}`,
        headers: { host: `127.0.0.1:${t.port}`, authorization: `Bearer ${t.token}`, 'content-type': 'application/octet-stream', ...LIB_HEADERS, ...headers },
        body: bytes,
      });
    },
    addDocument(title = `Paper ${++docs}`) {
      const now = new Date().toISOString();
      const info = t.ctx.db.prepare('INSERT INTO documents (title, title_key, first_seen_at_utc, updated_at_utc) VALUES (?, ?, ?, ?)').run(title, title.toLowerCase(), now, now);
      return Number(info.lastInsertRowid);
    },
    close: () => t.close(),
  };
}

export const reasonOf = (r: RawResponse) => r.json().detail.reason as string;

/** A refusal in the Library's shape: detail.reason and detail.message, and no absolute path anywhere. */
export function refusal(r: RawResponse, status: number, reason: string, root?: string): void {
  if (r.status !== status || reasonOf(r) !== reason) throw new Error(`expected ${status} ${reason}, got ${r.status} ${r.text}`);
  const detail = r.json().detail;
  if (typeof detail.message !== 'string' || detail.message.length === 0) throw new Error(`no message: ${r.text}`);
  if (root && r.text.includes(root)) throw new Error(`the answer names an absolute path: ${r.text}`);
  if (/"\/(tmp|home|work|var|private)\//.test(r.text)) throw new Error(`the answer names an absolute path: ${r.text}`);
}
