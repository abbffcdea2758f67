/**
 * Importing raw bytes into the vault (spec 2 "Import rules"). The bytes come
 * from the caller, never from a server-side path. Imports of one process run
 * one at a time; the vault's lock file keeps other processes out.
 */
import crypto from 'node:crypto';
import type { Context } from '../context.js';
import { asciiFold, type FileRow, type LibraryFormat, type RetainedRow, type VaultRow } from './repo.js';
import { checkContent, formatOfName, MEDIA_TYPES } from './content.js';
import { closeQuietly, codeOf, ioError, openDirAt, openFileAt, readBounded, UnsafeObject } from './fs-safe.js';
import { takeLock } from './lock.js';
import { publish } from './publish.js';
import * as reasons from './reasons.js';
import { scanVault, retainedName, type Problem } from './scan.js';
import { libraryOf, requireVault, type Library } from './service.js';
import { openVault, type OpenVault } from './vault.js';
import { fileView, linkView } from './views.js';
import type { ImportReceipt } from '../wire/library.js';

export interface ImportTarget {
  expectedVaultId: string;
  /** The display basename: it names the media and is kept as original_name. */
  filename: string;
  /** An existing paper to link the file to. */
  documentId?: number;
}

export interface ImportRequest extends ImportTarget {
  bytes: Uint8Array;
}

/**
 * The checks that need no bytes: vault, name, media and paper. The HTTP route
 * runs them before it reads the body; `importFile` runs them again.
 */
export function checkImportTarget(ctx: Context, target: ImportTarget): { vault: VaultRow; format: LibraryFormat } {
  const lib = libraryOf(ctx);
  const vault = requireVault(lib, target.expectedVaultId);
  const format = formatOfName(target.filename, lib.limits.nameChars);
  if (target.documentId !== undefined && !lib.catalog().documentExists(target.documentId)) throw reasons.documentNotFound(target.documentId);
  return { vault, format };
}

const pathsOf = (problems: Problem[], ...kinds: Problem['kind'][]) => problems.filter((p) => kinds.includes(p.kind)).map((p) => p.path);

/** Refuse to write while the vault and its catalog disagree. */
function refuseIfBlocked(ov: OpenVault, rows: RetainedRow[]): void {
  const problems = scanVault(ov, rows, { deep: false, lock: false });
  if (problems.length === 0) return;
  const unsafe = pathsOf(problems, 'unsafe');
  if (unsafe.length) throw reasons.blockedUnsafe(unsafe);
  const orphans = pathsOf(problems, 'orphan', 'temp_leftover');
  if (orphans.length) throw reasons.blockedOrphans(orphans);
  const missing = pathsOf(problems, 'missing');
  if (missing.length) throw reasons.blockedMissing(missing);
  throw reasons.blockedSize(pathsOf(problems, 'size_mismatch', 'hash_mismatch'));
}

/** Full byte comparison with a retained file that has the same digest. */
function sameBytes(ov: OpenVault, row: FileRow, bytes: Uint8Array): boolean {
  let dirFd: number | undefined;
  let fd: number | undefined;
  try {
    dirFd = openDirAt(ov.filesFd, row.file_id, `files/${row.file_id}`);
    const opened = openFileAt(dirFd, retainedName(row), row.relative_path);
    fd = opened.fd;
    if (opened.stat.size !== bytes.byteLength) return false;
    return readBounded(fd, bytes.byteLength + 1).equals(bytes);
  } catch (err) {
    if (err instanceof UnsafeObject) throw err;
    if (codeOf(err) === 'ENOENT') throw reasons.fileMissing();
    throw ioError(err, 'Reading a retained file');
  } finally {
    closeQuietly(fd);
    closeQuietly(dirFd);
  }
}

function linkFor(lib: Library, fileRow: number, documentId: number | undefined, basis: 'import' | 'link'): ImportReceipt['link'] {
  if (documentId === undefined) return null;
  const catalog = lib.catalog();
  if (!catalog.documentExists(documentId)) throw reasons.documentNotFound(documentId);
  const created = catalog.insertLink(fileRow, documentId, basis, lib.ctx.nowIso());
  return { ...linkView(catalog.link(fileRow, documentId)!), created };
}

async function importLocked(lib: Library, vault: VaultRow, format: LibraryFormat, request: ImportRequest, sha256: string): Promise<ImportReceipt> {
  const catalog = lib.catalog();
  const ov = openVault(vault);
  try {
    const lock = takeLock(ov, { runtimeId: lib.ctx.runtimeId, now: lib.ctx.nowIso() });
    try {
      refuseIfBlocked(ov, catalog.retained(vault.vault_id));
      const existing = catalog.bySha(vault.vault_id, sha256);
      if (existing) {
        if (!sameBytes(ov, existing, request.bytes)) throw reasons.digestCollision();
        if (existing.format !== format) throw reasons.mediaConflict(existing.file_id);
        const link = catalog.transaction(() => linkFor(lib, existing.id, request.documentId, 'import'));
        return { version: 1, vault_id: vault.vault_id, outcome: 'duplicate', file: fileView(existing), link };
      }
      const totals = catalog.totals(vault.vault_id);
      if (totals.files + 1 > lib.limits.catalogItems) throw reasons.catalogFull(lib.limits.catalogItems);
      if (totals.bytes + request.bytes.byteLength > lib.limits.vaultBytes) throw reasons.vaultFull(lib.limits.vaultBytes, totals.bytes);

      const published = await publish(lib, ov, request.bytes, format);
      try {
        await lib.hooks.beforeCommit?.();
        return catalog.transaction(() => {
          const now = lib.ctx.nowIso();
          const id = catalog.insertFile({
            file_id: published.fileId,
            version_id: published.versionId,
            vault_id: vault.vault_id,
            original_name: request.filename,
            name_fold: asciiFold(request.filename),
            format,
            media_type: MEDIA_TYPES[format],
            byte_size: request.bytes.byteLength,
            sha256,
            relative_path: published.relativePath,
            imported_at_utc: now,
          });
          const link = linkFor(lib, id, request.documentId, 'import');
          const row = catalog.byFileId(vault.vault_id, published.fileId)!;
          return { version: 1 as const, vault_id: vault.vault_id, outcome: 'created' as const, file: fileView(row), link };
        });
      } catch (err) {
        published.discard();
        throw err;
      } finally {
        published.close();
      }
    } finally {
      lock.release();
    }
  } finally {
    ov.close();
  }
}

/**
 * Import one file's bytes: a new retained copy (outcome `created`) or the
 * first entry of the same bytes and media (outcome `duplicate`).
 * @example await importFile(ctx, { expectedVaultId, filename: 'notes.md', bytes })
 */
export async function importFile(ctx: Context, request: ImportRequest): Promise<ImportReceipt> {
  const lib = libraryOf(ctx);
  checkImportTarget(ctx, request);
  if (request.bytes.byteLength > lib.limits.fileBytes) throw reasons.fileTooLarge(lib.limits.fileBytes);
  const format = formatOfName(request.filename, lib.limits.nameChars);
  checkContent(request.bytes, format);
  const sha256 = crypto.createHash('sha256').update(request.bytes).digest('hex');
  return lib.writer.run(() => {
    // Checked again in turn: an earlier import may have changed what holds.
    const { vault } = checkImportTarget(ctx, request);
    return importLocked(lib, vault, format, request, sha256);
  });
}
