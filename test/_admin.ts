/**
 * Admin test helpers: an installation with something in every category (a
 * real run against a loopback stub, a routine, a configuration, settings,
 * keys, a Library vault with files), a fingerprint of every table and of the
 * vault bytes, and restarting a server on the same directories.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { listTables } from '../src/admin/repo.js';
import { TABLE_CATEGORIES } from '../src/admin/tables.js';
import { executionManager } from '../src/executions/manager.js';
import { createContext, type Context } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startServer, type RunningServer } from '../server/listen.js';
import { fixture, rawRequest, startTestServer, type RawResponse, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';
import { dive, finished } from './_executions.js';
import { LIB_HEADERS, RENDERER } from './_library.js';

export interface Installation {
  t: TestServer;
  stub: Stub;
  parent: string;
  vaultRoot: string;
  executionId: number;
  close(): Promise<void>;
}

export async function seededInstallation(): Promise<Installation> {
  const stub = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  const t = await startTestServer({
    rendererOrigin: RENDERER,
    env: { SVC_SOURCE_CROSSREF_URL: stub.url },
    context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 3000, executionHeartbeatMs: 50 } },
  });
  const ok = (r: RawResponse, status = 200) => {
    if (r.status !== status) throw new Error(`${r.status} ${r.text}`);
    return r.json();
  };
  const executionId = await dive(t, { repository: 'crossref', query: 'ecology', max_results: 2 });
  await finished(t, executionId);
  // The run's after-run steps (profile matching, the embedding backfill) go on after its status settles;
  // snapshots taken while they write would differ from a later read.
  await executionManager(t.ctx).wait(executionId);
  ok(await t.request('POST', '/api/routines', { body: { name: 'weekly ecology', schedule_cron: '0 6 * * 1', parameters: { repositories: ['crossref'], query: 'ecology' } } }), 201);
  ok(await t.request('POST', '/api/configurations', { body: { name: 'saved', config_type: 'dive', parameters: { repository: 'arxiv', query: 'graphs' } } }), 201);
  ok(await t.request('PUT', '/api/settings/email', { body: { settings: { contact_email: 'me@example.org' } } }));
  ok(await t.request('POST', '/api/onboarding/dismiss'));
  t.ctx.credentials.set('openai_api_key', 'sk-test-ai-key-value');
  t.ctx.credentials.set('core_api_key', 'core-test-key-value');
  t.ctx.credentials.set('smtp_password', 'smtp-test-password');
  const parent = path.join(t.dirs.root, 'parent');
  fs.mkdirSync(parent);
  const vault = ok(await t.request('POST', '/api/library/vault', { body: { parent_directory: parent }, headers: LIB_HEADERS }), 201);
  const vaultId = vault.vault.vault_id as string;
  const vaultRoot = path.join(fs.realpathSync(parent), `svc-library-${vaultId}`);
  const docId = (t.ctx.db.prepare('SELECT id FROM documents ORDER BY id LIMIT 1').get() as { id: number }).id;
  for (const [name, bytes] of [['notes.md', '# Notes\nreef heat\n'], ['data.txt', crypto.randomBytes(3000).toString('hex')]] as const) {
    const r = await rawRequest(t.port, {
      method: 'POST',
      path: `/api/library/files?expected_vault_id=${vaultId}&filename=${name}&document_id=${docId}`,
      headers: { host: `127.0.0.1:${t.port}`, authorization: `Bearer ${t.token}`, 'content-type': 'application/octet-stream', ...LIB_HEADERS },
      body: bytes,
    });
    ok(r, 201);
  }
  return {
    t,
    stub,
    parent,
    vaultRoot,
    executionId,
    async close() {
      await t.close();
      await stub.close();
    },
  };
}

/** Every row of every table (sorted), by table; categories in `skip` left out. */
/** A seeded installation and the path of a backup bundle made of it (the restore tests start here). */
export async function installationWithBundle(): Promise<{ inst: Installation; bundle: string }> {
  const inst = await seededInstallation();
  const r = await inst.t.request('POST', '/api/backup', { body: {} });
  if (r.status !== 201) throw new Error(r.text);
  return { inst, bundle: r.json().path };
}

export function tableFingerprint(db: Context['db'], skip: string[] = ['admin']): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of listTables(db)) {
    if (skip.includes(TABLE_CATEGORIES[t.name] ?? '')) continue;
    out[t.name] = (db.prepare(`SELECT * FROM "${t.name}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** SHA-256 of every file under `root`, by relative path. */
export function treeFingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out[path.relative(root, full)] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out;
}

/** Stop the server of `t` (keeping its directories) and start another on them. */
export async function restart(t: TestServer, env: Record<string, string> = {}): Promise<{ ctx: Context; server: RunningServer; request: (m: string, p: string, body?: unknown) => Promise<RawResponse> }> {
  await t.server.close();
  const ctx = createContext({ env: { ...t.dirs.env, ...env }, log: createLogger({ level: 'warn', sink: () => {} }) });
  const server = await startServer(ctx, { port: 0 });
  const request = (method: string, p: string, body?: unknown) =>
    rawRequest(server.port, {
      method,
      path: p,
      headers: { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${server.runtime.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { ctx, server, request };
}
