/**
 * The vault folder: created once as `svc-library-<vault_uuid>` inside an
 * existing parent, holding the marker vault.json and files/. Every later use
 * opens it again through no-follow descriptors and checks the marker.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { parseStrictJson } from '../util/json-strict.js';
import type { VaultRow } from './repo.js';
import {
  assertSafeAccess,
  closeQuietly,
  codeOf,
  createFileAt,
  ioError,
  mkdirAt,
  openDirAt,
  openDirPath,
  openFileAt,
  readBounded,
  renameAt,
  rmdirAt,
  unlinkAt,
  writeAll,
} from './fs-safe.js';
import { markerInvalid, parentMissing, parentNotAbsolute, parentNotDirectory, parentNotWritable, vaultExists, vaultFolderExists, vaultUnavailable } from './reasons.js';
import { libraryOf } from './service.js';
import { libraryStatus } from './status.js';
import type { LibraryStatus } from '../wire/library.js';

export const MARKER_NAME = 'vault.json';
export const FILES_DIR = 'files';
export const LOCK_NAME = '.svc-import.lock';
const MARKER_MAX_BYTES = 4096;

export const vaultFolderName = (vaultId: string) => `svc-library-${vaultId}`;

/** The marker's whole content: exactly the version and the vault id. */
export function markerText(vaultId: string): string {
  return JSON.stringify({ version: 1, vault_id: vaultId }) + '\n';
}

export interface OpenVault {
  vault: VaultRow;
  rootFd: number;
  filesFd: number;
  close(): void;
}

function checkMarker(rootFd: number, vaultId: string): void {
  let fd: number | undefined;
  try {
    fd = openFileAt(rootFd, MARKER_NAME, 'vault.json').fd;
    const text = readBounded(fd, MARKER_MAX_BYTES + 1);
    if (text.length > MARKER_MAX_BYTES) throw markerInvalid();
    const marker = parseStrictJson(text.toString('utf8')) as Record<string, unknown> | null;
    const keys = marker && typeof marker === 'object' && !Array.isArray(marker) ? Object.keys(marker).sort() : [];
    if (keys.join(',') !== 'vault_id,version' || marker!.version !== 1 || marker!.vault_id !== vaultId) throw markerInvalid();
  } catch (err) {
    if (codeOf(err) === 'ENOENT' || (err as Error).name === 'StrictJsonError') throw markerInvalid();
    throw ioError(err, 'Reading vault.json');
  } finally {
    closeQuietly(fd);
  }
}

/**
 * Open the configured vault: the root (no symlink as its last component), the
 * marker (a regular single-link file naming this vault) and files/.
 */
export function openVault(vault: VaultRow): OpenVault {
  assertSafeAccess();
  let rootFd: number | undefined;
  let filesFd: number | undefined;
  try {
    rootFd = openDirPath(vault.root_path, 'The vault folder');
    checkMarker(rootFd, vault.vault_id);
    filesFd = openDirAt(rootFd, FILES_DIR, 'The files/ folder of the vault');
  } catch (err) {
    closeQuietly(filesFd);
    closeQuietly(rootFd);
    if (codeOf(err) === 'ENOENT' || codeOf(err) === 'EACCES') throw vaultUnavailable();
    throw ioError(err, 'Opening the vault');
  }
  const [root, files] = [rootFd, filesFd];
  return {
    vault,
    rootFd: root,
    filesFd: files,
    close() {
      closeQuietly(files);
      closeQuietly(root);
    },
  };
}

/** The configured vault's folder and whether it opens as this vault; null when there is no vault. */
export interface VaultFolder {
  /** Absolute: for the person at their own terminal only (the HTTP door never names the root). */
  path: string;
  reachable: boolean;
  /** Why it is not reachable: vault_unavailable (gone, unmounted, unreadable), vault_marker_invalid (another folder there), … */
  reason: string | null;
  /** The Library's own words for that reason, or null when reachable. */
  message: string | null;
}

/**
 * Open the vault's folder and close it again: the Library status says whether
 * the folder is still there, not only what the catalog records.
 * @example vaultFolder(ctx) // { path: '/home/ada/Papers/svc-library-…', reachable: false, reason: 'vault_unavailable' }
 */
export function vaultFolder(ctx: Context): VaultFolder | null {
  const vault = libraryOf(ctx).catalog().vault();
  if (!vault) return null;
  try {
    openVault(vault).close();
    return { path: vault.root_path, reachable: true, reason: null, message: null };
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    return { path: vault.root_path, reachable: false, reason: err.reason, message: err.message };
  }
}

/** fsync a directory so the names created or removed in it survive a crash. */
export function syncDir(fd: number): void {
  fs.fsyncSync(fd);
}

function resolveParent(parentDirectory: string): string {
  if (parentDirectory.includes('\0')) throw parentMissing();
  if (!path.isAbsolute(parentDirectory)) throw parentNotAbsolute();
  let real: string;
  try {
    real = fs.realpathSync(parentDirectory);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') throw parentMissing();
    if (code === 'EACCES') throw parentNotWritable();
    throw ioError(err, 'Resolving parent_directory');
  }
  let isDirectory: boolean;
  try {
    isDirectory = fs.statSync(real).isDirectory();
  } catch (err) {
    throw ioError(err, 'Reading parent_directory');
  }
  if (!isDirectory) throw parentNotDirectory();
  return real;
}

/**
 * Create the vault: a new child folder of an existing parent (never an
 * existing folder), its marker and files/, each synced, then the record.
 * A failure removes only what this call created.
 * @example await createVault(ctx, '/home/ada/Papers')
 */
export async function createVault(ctx: Context, parentDirectory: string): Promise<LibraryStatus> {
  const lib = libraryOf(ctx);
  assertSafeAccess();
  return lib.writer.run(() => {
    const existing = lib.catalog().vault();
    if (existing) throw vaultExists(existing.vault_id);
    const parent = resolveParent(parentDirectory);
    const vaultId = ctx.random.uuid();
    const label = vaultFolderName(vaultId);
    const root = path.join(parent, label);
    try {
      fs.mkdirSync(root, { mode: 0o700 });
    } catch (err) {
      const code = codeOf(err);
      if (code === 'EEXIST') throw vaultFolderExists();
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw parentNotWritable();
      throw ioError(err, 'Creating the vault folder');
    }
    const made: string[] = [];
    let rootFd: number | undefined;
    try {
      rootFd = openDirPath(root, 'The new vault folder');
      const temp = `.${MARKER_NAME}.tmp`;
      const fd = createFileAt(rootFd, temp, 0o600);
      made.push(temp);
      try {
        writeAll(fd, Buffer.from(markerText(vaultId), 'utf8'));
        fs.fchmodSync(fd, 0o444);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      renameAt(rootFd, temp, rootFd, MARKER_NAME);
      made[made.indexOf(temp)] = MARKER_NAME;
      mkdirAt(rootFd, FILES_DIR, 0o700);
      made.push(FILES_DIR);
      syncDir(rootFd);
      const parentFd = openDirPath(parent, 'The parent folder');
      try {
        syncDir(parentFd);
      } finally {
        closeQuietly(parentFd);
      }
      lib.catalog().insertVault({ vault_id: vaultId, root_path: root, label, created_at_utc: ctx.nowIso() });
    } catch (err) {
      for (const name of made.reverse()) {
        try {
          if (name === FILES_DIR) rmdirAt(rootFd!, name);
          else unlinkAt(rootFd!, name);
        } catch {
          // Best effort: what cannot be removed stays, and adopts nothing.
        }
      }
      closeQuietly(rootFd);
      rootFd = undefined;
      try {
        fs.rmdirSync(root);
      } catch {
        // Already gone, or not empty: leave it.
      }
      // Another process may have configured a vault meanwhile: say so plainly.
      const winner = lib.catalog().vault();
      if (winner) throw vaultExists(winner.vault_id);
      throw ioError(err, 'Creating the vault');
    } finally {
      closeQuietly(rootFd);
    }
    return libraryStatus(ctx);
  });
}
