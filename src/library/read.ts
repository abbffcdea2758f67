/**
 * Reads of retained files: metadata and links from the catalog (not hashed),
 * and verified access to the bytes (marker, path, regular single-link file,
 * size and SHA-256) for `open` and the text read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import type { FileRow, VaultRow } from './repo.js';
import { closeQuietly, codeOf, ioError, openDirAt, openFileAt, readBounded, sha256OfBytesYielding, sha256OfFdYielding, UnsafeObject } from './fs-safe.js';
import * as reasons from './reasons.js';
import { retainedName } from './scan.js';
import { libraryOf, requireVault } from './service.js';
import { openVault } from './vault.js';
import { fileView, linkView, unchecked } from './views.js';
import type { FileDetail } from '../wire/library.js';

export interface FileRef {
  expectedVaultId: string;
  fileId: string;
}

export interface VersionRef extends FileRef {
  expectedVersionId: string;
}

export function findFile(ctx: Context, ref: FileRef): { vault: VaultRow; row: FileRow } {
  const lib = libraryOf(ctx);
  const vault = requireVault(lib, ref.expectedVaultId);
  const row = lib.catalog().byFileId(vault.vault_id, ref.fileId);
  if (!row) throw reasons.fileNotFound();
  return { vault, row };
}

/**
 * The file_id of a file named either way a listing shows it: its file_id, or
 * the row id of the ID column (what `svc library list` prints first).
 */
export function resolveFileId(ctx: Context, expectedVaultId: string, ref: string): string {
  const lib = libraryOf(ctx);
  const vaultId = requireVault(lib, expectedVaultId).vault_id;
  if (!/^[1-9]\d{0,14}$/.test(ref)) {
    // A version_id copied from a VERSION_ID column is the commonest wrong UUID: name the file it belongs to.
    const version = lib.catalog().byFileId(vaultId, ref) ? undefined : lib.catalog().byVersionId(vaultId, ref);
    if (version) throw reasons.versionNotFile(version.version_id, version.file_id, version.original_name);
    return ref;
  }
  const row = lib.catalog().byRowId(vaultId, Number(ref));
  if (!row) throw reasons.fileNotFound();
  return row.file_id;
}

/** GET /api/library/files/{file_id}: recorded metadata and explicit paper links. */
export function fileMetadata(ctx: Context, ref: FileRef): FileDetail {
  const { vault, row } = findFile(ctx, ref);
  const links = libraryOf(ctx).catalog().linksOf(row.id).map(linkView);
  return { version: 1, vault_id: vault.vault_id, file: unchecked(fileView(row)), paper_links: links };
}

export interface VerifiedFile {
  vault: VaultRow;
  row: FileRow;
  /** Open on the verified file; the caller closes it. */
  fd: number;
  absolutePath: string;
  close(): void;
}

/**
 * Open a retained file and prove it is the recorded one: the marker names the
 * vault, every component is reached without following links, the file is
 * regular with one link, its size and SHA-256 are the catalog's, and its
 * absolute path still leads to this very file. The hash yields to the event
 * loop between chunks, so the catalog is read again afterwards: a version
 * replaced or deleted meanwhile is refused as if that had happened first.
 */
export async function openVerified(ctx: Context, ref: VersionRef): Promise<VerifiedFile> {
  const { vault, row } = findFile(ctx, ref);
  if (row.version_id !== ref.expectedVersionId) throw reasons.versionMismatch(row.version_id);
  const ov = openVault(vault);
  let dirFd: number | undefined;
  let fd: number | undefined;
  try {
    dirFd = openDirAt(ov.filesFd, row.file_id, `files/${row.file_id}`);
    const opened = openFileAt(dirFd, retainedName(row), row.relative_path);
    fd = opened.fd;
    if (opened.stat.size !== row.byte_size) throw reasons.sizeMismatch();
    if ((await sha256OfFdYielding(fd)).sha256 !== row.sha256) throw reasons.hashMismatch();
    const current = findFile(ctx, ref).row;
    if (current.version_id !== row.version_id) throw reasons.versionMismatch(current.version_id);
    const absolutePath = path.join(vault.root_path, ...row.relative_path.split('/'));
    let byPath: fs.Stats;
    let real: string;
    try {
      byPath = fs.lstatSync(absolutePath);
      real = fs.realpathSync(absolutePath);
    } catch {
      throw reasons.pathChanged();
    }
    if (byPath.ino !== opened.stat.ino || byPath.dev !== opened.stat.dev || real !== absolutePath) throw reasons.pathChanged();
    const handle = fd;
    return { vault, row, fd: handle, absolutePath, close: () => closeQuietly(handle) };
  } catch (err) {
    closeQuietly(fd);
    if (err instanceof UnsafeObject) throw err;
    if (codeOf(err) === 'ENOENT') throw reasons.fileMissing();
    throw ioError(err, 'Verifying the retained file');
  } finally {
    closeQuietly(dirFd);
    ov.close();
  }
}

/**
 * The bytes behind a verified file, read again from its descriptor into a
 * buffer of at most `limit` bytes and checked again: these very bytes have the
 * catalog's size and SHA-256, whatever happened to the file since it was opened.
 */
export async function readVerifiedBytes(verified: VerifiedFile, limit: number): Promise<Buffer> {
  const bytes = readBounded(verified.fd, limit + 1);
  if (bytes.length !== verified.row.byte_size) throw reasons.sizeMismatch();
  if ((await sha256OfBytesYielding(bytes)) !== verified.row.sha256) throw reasons.hashMismatch();
  return bytes;
}

/** POST /api/library/files/{file_id}/open: the verified absolute path, for the desktop shell. */
export async function openFile(ctx: Context, ref: VersionRef) {
  const verified = await openVerified(ctx, ref);
  verified.close();
  const { vault, row } = verified;
  return {
    version: 1 as const,
    vault_id: vault.vault_id,
    file_id: row.file_id,
    version_id: row.version_id,
    media_type: row.media_type,
    byte_size: row.byte_size,
    sha256: row.sha256,
    path: verified.absolutePath,
    verified_at_utc: ctx.nowIso(),
  };
}
