/**
 * Publishing retained bytes crash-safely: a fresh files/<file_uuid>/ folder; a
 * temporary copy in it, written, made read-only and synced; a rename to
 * <version_uuid>.<ext>; both folders synced. Only then may the catalog record
 * it. Until that commit the bytes are this operation's own, and `discard`
 * removes exactly them.
 */
import fs from 'node:fs';
import type { Library } from './service.js';
import type { LibraryFormat } from './repo.js';
import { closeQuietly, createFileAt, ioError, mkdirAt, openDirAt, renameAt, rmdirAt, unlinkAt, writeAll } from './fs-safe.js';
import { syncDir, type OpenVault } from './vault.js';

export interface Published {
  fileId: string;
  versionId: string;
  relativePath: string;
  /** Remove what this publication created (before its catalog commit only). */
  discard(): void;
  /** Release the folder descriptor once the catalog commit is done. */
  close(): void;
}

export async function publish(lib: Library, ov: OpenVault, bytes: Uint8Array, format: LibraryFormat): Promise<Published> {
  const fileId = lib.ctx.random.uuid();
  const versionId = lib.ctx.random.uuid();
  const temp = `.tmp-${versionId}`;
  const finalName = `${versionId}.${format}`;
  const made = { temp: false, dir: false, renamed: false };
  let dirFd: number | undefined;

  const discard = () => {
    const attempt = (fn: () => void) => {
      try {
        fn();
      } catch (err) {
        lib.ctx.log.warn('library: could not remove an unpublished copy', { code: (err as NodeJS.ErrnoException).code });
      }
    };
    if (made.renamed) attempt(() => unlinkAt(dirFd!, finalName));
    if (made.temp) attempt(() => unlinkAt(dirFd!, temp));
    closeQuietly(dirFd);
    dirFd = undefined;
    if (made.dir) attempt(() => rmdirAt(ov.filesFd, fileId));
    attempt(() => syncDir(ov.filesFd));
  };

  try {
    // The fresh folder first, the temporary copy inside it: whatever a crash
    // leaves sits in a folder no catalog entry records, which the import scan
    // finds at the top of files/. Syncing the copy also commits the mkdir on
    // journaling file systems, so the two folder syncs after the rename are cheap.
    mkdirAt(ov.filesFd, fileId, 0o700);
    made.dir = true;
    dirFd = openDirAt(ov.filesFd, fileId, `files/${fileId}`);
    const fd = createFileAt(dirFd, temp, 0o600);
    made.temp = true;
    try {
      writeAll(fd, bytes);
      fs.fchmodSync(fd, 0o444);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    await lib.hooks.afterTemp?.();
    renameAt(dirFd, temp, dirFd, finalName);
    made.temp = false;
    made.renamed = true;
    syncDir(dirFd);
    syncDir(ov.filesFd);
  } catch (err) {
    discard();
    throw ioError(err, 'Writing the retained copy');
  }
  return {
    fileId,
    versionId,
    relativePath: `files/${fileId}/${finalName}`,
    discard,
    close: () => closeQuietly(dirFd),
  };
}
