/**
 * Cloud copies over WebDAV (Nextcloud, ownCloud, Box, pCloud and others speak
 * it). Linking checks the URL and the account with a PROPFIND, creates the
 * remote folder, stores URL, user and folder as cloud settings and the
 * password as the cloud_password credential. A cloud backup writes a bundle,
 * uploads it with PUT under a name no remote file has, checks the uploaded
 * size and removes the local copy.
 * Errors name the host at most, never the password.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { SvcError, badRequest, conflict, notFound } from '../errors.js';
import { getExecution } from '../executions/repo.js';
import { backupsDir, backupView, createBackup } from './backup.js';
import { insertBackup, lastBackup } from './repo.js';
import type { CloudStatus, CloudUnlinked, CloudUploaded } from '../wire/admin.js';

const PASSWORD = 'cloud_password';

export interface LinkInput {
  url: string;
  username: string;
  password?: string | null;
  remote_folder?: string | null;
}

function checkUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('cloud_url_invalid', 'The cloud URL is not a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('cloud_url_invalid', 'The cloud URL must start with https:// (or http:// for a server on this machine).');
  if (url.username || url.password) throw badRequest('cloud_url_invalid', 'The cloud URL must not carry a user name or password: give the user name apart (username; --user) and the password apart (password; stdin or the prompt).');
  if (url.search || url.hash) throw badRequest('cloud_url_invalid', 'The cloud URL must not have a query or fragment.');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function checkFolder(raw: string): string {
  const folder = raw.replace(/^\/+|\/+$/g, '');
  if (!folder || folder.split('/').some((p) => p === '' || p === '.' || p === '..') || /[\\\0?#]/.test(folder)) {
    throw badRequest('cloud_folder_invalid', 'remote_folder must be a relative folder name such as "svc" or "backups/svc".');
  }
  return folder;
}

const auth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const folderUrl = (base: URL, folder: string) => new URL(folder.split('/').map(encodeURIComponent).join('/') + '/', base);

async function dav(ctx: Context, url: URL, method: string, authorization: string, init: RequestInit & { headers?: Record<string, string> } = {}, stop?: AbortSignal): Promise<Response> {
  const timeout = AbortSignal.timeout(ctx.tuning.sourceTimeoutMs * 20);
  try {
    return await ctx.fetch(url, { ...init, method, headers: { authorization, ...(init.headers ?? {}) }, signal: stop ? AbortSignal.any([timeout, stop]) : timeout });
  } catch (err) {
    // Stopped by the caller (Ctrl-C): its reason, not an unreachable server.
    if (stop?.aborted) throw stop.reason;
    // fetch says "TypeError: fetch failed"; the cause has the code (ECONNREFUSED) or a sentence ("bad port").
    const inner = (err as { cause?: { code?: string; message?: string } }).cause;
    const cause = (inner?.code ?? inner?.message ?? (err as Error).name) || 'network error';
    throw new SvcError(502, 'cloud_unreachable', `The cloud server ${url.host} cannot be reached (${cause}); check the URL and that the server is up, then try again.`);
  }
}

function refusedBy(res: Response, host: string, what: string): SvcError {
  // The cloud server's refusal, not a malformed request: 502 like its other failures (exit 1), never 401/403,
  // which would read as svc's own guard refusing the caller.
  if (res.status === 401 || res.status === 403) {
    return new SvcError(502, 'cloud_credentials_refused', `${host} refused the user name or password (${res.status}); link again with the right ones (\`svc cloud link URL --user NAME\`, the password on stdin or at the prompt).`);
  }
  return new SvcError(502, 'cloud_refused', `${host} answered ${res.status} to ${what}.`);
}

async function ensureFolder(ctx: Context, base: URL, folder: string, authorization: string, stop?: AbortSignal): Promise<void> {
  const parts = folder.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const res = await dav(ctx, folderUrl(base, parts.slice(0, i).join('/')), 'MKCOL', authorization, {}, stop);
    await res.arrayBuffer().catch(() => {});
    if (res.status !== 201 && res.status !== 405) throw refusedBy(res, base.host, 'creating the backup folder');
  }
}

/** What a link is checked for before its password is needed: the URL, the user name and the folder. */
export function checkCloudLink(ctx: Context, input: Omit<LinkInput, 'password'>): { url: URL; username: string; folder: string } {
  const url = checkUrl(input.url);
  const username = input.username;
  if (!username) throw badRequest('cloud_username_required', 'Give the user name of the cloud account.');
  return { url, username, folder: checkFolder(input.remote_folder ?? String(ctx.settings.read('cloud').remote_folder || 'svc')) };
}

/** The password given, or the stored one when none is given; refused when there is neither. */
export function requireCloudPassword(ctx: Context, given: string | null): string {
  const password = given || ctx.credentials.reveal(PASSWORD);
  if (!password) throw badRequest('cloud_password_required', 'Give the password (or app password) of the cloud account.');
  return password;
}

/** Link a WebDAV account. @example await linkCloud(ctx, { url: 'https://cloud.example.org/remote.php/dav/files/me/', username: 'me', password }) */
export async function linkCloud(ctx: Context, input: LinkInput): Promise<CloudStatus> {
  const { url, username, folder } = checkCloudLink(ctx, input);
  const password = requireCloudPassword(ctx, input.password ?? null);
  ctx.log.addSecret(password);
  const authorization = auth(username, password);
  const probe = await dav(ctx, url, 'PROPFIND', authorization, { headers: { depth: '0' } });
  await probe.arrayBuffer().catch(() => {});
  if (probe.status !== 207 && probe.status !== 200) throw refusedBy(probe, url.host, 'PROPFIND (is this a WebDAV URL?)');
  await ensureFolder(ctx, url, folder, authorization);
  if (input.password) ctx.credentials.set(PASSWORD, input.password);
  ctx.settings.write('cloud', { provider: 'webdav', url: url.toString(), username, remote_folder: folder });
  return cloudStatus(ctx);
}

export function unlinkCloud(ctx: Context): CloudUnlinked {
  const was = ctx.settings.read('cloud').provider === 'webdav';
  ctx.settings.write('cloud', { provider: 'none', url: '', username: '', remote_folder: 'svc' });
  if (ctx.credentials.status(PASSWORD) !== 'absent') ctx.credentials.remove(PASSWORD);
  return { unlinked: was, ...cloudStatus(ctx) };
}

export function cloudStatus(ctx: Context): CloudStatus {
  const s = ctx.settings.read('cloud');
  const last = lastBackup(ctx.db, 'cloud');
  // The cloud group's settings are all strings (settings/schema.ts).
  const [provider, url, username] = [String(s.provider), String(s.url), String(s.username)];
  return {
    linked: provider === 'webdav' && Boolean(url),
    provider,
    url: url || null,
    username: username || null,
    remote_folder: String(s.remote_folder),
    password: ctx.credentials.status(PASSWORD),
    last_upload: last ? { ...backupView(last)!, remote_path: last.remote_path } : null,
  };
}

/**
 * Upload the bundle under a name no remote file has: svc-backup-<time>.tar, or -2, -3… when a bundle of
 * the same second is already in the folder, as local backups are named. A second cloud backup within a
 * second is a new remote bundle, never a replacement of the first. The PUT also sends If-None-Match: *,
 * so a server that honours it (Nextcloud, ownCloud) refuses with 412 instead of replacing a bundle another
 * svc uploaded between the check and the PUT; then the next name is tried.
 */
async function uploadNew(ctx: Context, dir: URL, time: string, local: string, byteSize: number, authorization: string, signal?: AbortSignal): Promise<{ name: string; target: URL }> {
  for (let n = 1; n <= 100; n++) {
    signal?.throwIfAborted();
    const name = `svc-backup-${time}${n === 1 ? '' : `-${n}`}.tar`;
    const target = new URL(encodeURIComponent(name), dir);
    const probe = await dav(ctx, target, 'PROPFIND', authorization, { headers: { depth: '0' } }, signal);
    await probe.arrayBuffer().catch(() => {});
    if (probe.status === 207 || probe.status === 200) continue;
    if (probe.status !== 404) throw refusedBy(probe, dir.host, 'checking that the backup name is free');
    const body = Readable.toWeb(fs.createReadStream(local)) as unknown as ReadableStream;
    const headers = { 'content-type': 'application/x-tar', 'content-length': String(byteSize), 'if-none-match': '*' };
    const put = await dav(ctx, target, 'PUT', authorization, { body, duplex: 'half', headers } as RequestInit & { headers: Record<string, string> }, signal);
    await put.arrayBuffer().catch(() => {});
    if (put.status === 412) continue;
    if (put.status !== 201 && put.status !== 204 && put.status !== 200) throw refusedBy(put, dir.host, 'the upload');
    return { name, target };
  }
  throw new SvcError(502, 'cloud_refused', `${dir.host} holds a bundle under every name tried for this second; try again.`);
}

/**
 * Write a bundle and upload it; execution_ids limits the reports to those runs (null: all).
 * Aborting `signal` (the command's Ctrl-C) stops the writing or the upload, removes the hidden
 * local bundle and throws the signal's reason.
 */
export async function cloudBackup(ctx: Context, executionIds: number[] | null, signal?: AbortSignal): Promise<CloudUploaded> {
  const s = ctx.settings.read('cloud');
  if (s.provider !== 'webdav' || !s.url) throw conflict('cloud_not_linked', 'No cloud account is linked; link one first (`svc cloud link`).');
  const password = ctx.credentials.reveal(PASSWORD);
  if (!password) throw conflict('cloud_password_missing', 'The cloud password is not stored; link the account again.');
  // A mistyped id would otherwise upload a bundle without the report that was wanted, and say nothing.
  for (const id of executionIds ?? []) if (!getExecution(ctx.db, id)) throw notFound('execution_not_found', `No execution ${id}; nothing was uploaded.`);
  const base = new URL(String(s.url));
  const folder = String(s.remote_folder);
  const authorization = auth(String(s.username), password);
  // The hidden local copy is this process's own (the remote name is chosen once the bundle exists): a cloud
  // backup from another process in the same second writes its own copy instead of finding this one in the way.
  const local = path.join(backupsDir(ctx), `.cloud-${process.pid}-${crypto.randomBytes(4).toString('hex')}.tar`);
  // The account and folder first: a refused password or an unreachable server is said before a whole bundle is written.
  await ensureFolder(ctx, base, folder, authorization, signal);
  // createBackup removes its own .partial when stopped; the finally below removes the finished local copy.
  const bundle = await createBackup(ctx, { includeReports: true, executionIds, output: local, kind: 'cloud', record: false, signal });
  try {
    const time = bundle.created_at_utc.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const { name, target } = await uploadNew(ctx, folderUrl(base, folder), time, local, bundle.byte_size, authorization, signal);
    const check = await dav(ctx, target, 'PROPFIND', authorization, { headers: { depth: '0' } }, signal);
    const xml = await check.text().catch(() => '');
    const size = /getcontentlength>\s*(\d+)\s*</i.exec(xml)?.[1];
    if (check.status !== 207 || (size !== undefined && Number(size) !== bundle.byte_size)) {
      throw new SvcError(502, 'cloud_upload_incomplete', `${base.host} does not hold the whole bundle after the upload; try again.`);
    }
    const remotePath = `${folder}/${name}`;
    insertBackup(ctx.db, {
      kind: 'cloud',
      path: local,
      created_at_utc: bundle.created_at_utc,
      byte_size: bundle.byte_size,
      manifest_sha256: bundle.manifest_sha256,
      include_reports: 1,
      file_count: bundle.file_count,
      schema_version: bundle.schema_version,
      remote_path: remotePath,
    });
    return { uploaded: true, remote_path: remotePath, url: target.toString(), byte_size: bundle.byte_size, manifest_sha256: bundle.manifest_sha256, file_count: bundle.file_count, counts: bundle.counts };
  } finally {
    fs.rmSync(local, { force: true });
  }
}
