/**
 * POST …/bundle: a ZIP of manifest.json, notes.md and, in file mode, the
 * selected file versions. One read transaction captures revision,
 * membership, metadata and notes of exactly the selected versions. File mode
 * copies each file through a no-follow descriptor into an owned spool,
 * rehashing as it goes; any missing, corrupt, over-limit or cancelled input
 * fails the whole bundle, and the archive is complete in the spool before a
 * single byte is answered.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../context.js';
import type { FileRow } from '../library/repo.js';
import { closeQuietly, codeOf, ioError, openDirAt, openFileAt, writeAll } from '../library/fs-safe.js';
import { fileMissing, hashMismatch, sizeMismatch } from '../library/reasons.js';
import { retainedName } from '../library/scan.js';
import { openVault, type OpenVault } from '../library/vault.js';
import { libraryOf, requireVault } from '../library/service.js';
import { contentPath, manifestOf, notesMarkdown, type BundleMode, type Snapshot } from './bundle-format.js';
import { requireMember, type VersionSelector } from './members.js';
import * as reasons from './reasons.js';
import { evidenceOf, requireProject, type ProjectRef } from './service.js';
import { noteView } from './views.js';

export interface BundleRequest extends ProjectRef {
  expectedRevision: number;
  files: VersionSelector[];
  includeFiles: boolean;
  signal?: AbortSignal;
}

export interface Bundle {
  bundleId: string;
  vaultId: string;
  projectId: string;
  mode: BundleMode;
  filename: string;
  /** The finished archive in the spool (0600); read it, then release(). */
  path: string;
  byteSize: number;
  sha256: string;
  release(): void;
}

function snapshot(ctx: Context, req: BundleRequest): Snapshot {
  const ev = evidenceOf(ctx);
  const max = ev.limits.bundleFilesMax;
  if (req.files.length < 1) throw reasons.selectionInvalid(`must name 1 to ${max} file versions`);
  // Spec 2: resource limits are 413; an empty selection is malformed input (422).
  if (req.files.length > max) throw reasons.bundleFileLimit(max);
  const ids = new Set(req.files.map((f) => f.fileId));
  if (ids.size !== req.files.length) throw reasons.selectionInvalid('names a file more than once');
  const repo = ev.repo();
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    if (project.revision !== req.expectedRevision) throw reasons.revisionConflict(project.revision);
    const files = req.files.map((sel) => requireMember(ctx, project, vault.vault_id, sel));
    const notes = repo.notesOfFiles(project.id, files.map((f) => f.id)).map(noteView);
    return {
      bundleId: ctx.random.uuid(),
      capturedAt: ctx.nowIso(),
      mode: req.includeFiles ? 'files' : 'metadata',
      vaultId: vault.vault_id,
      project: { project_id: project.project_id, name: project.name, revision: project.revision },
      files,
      notes,
    };
  });
}

/** A fresh owned folder for one bundle: spool/evidence/<bundle_id>, 0700, never a link. */
function spoolDir(ctx: Context, bundleId: string): string {
  const parent = path.join(ctx.paths.dataDir, 'spool', 'evidence');
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(parent);
  if (!st.isDirectory() || st.isSymbolicLink()) throw ioError(new Error('spool'), 'Preparing the bundle spool');
  const dir = path.join(parent, bundleId);
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

const createOwned = (file: string) => fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);

/** Copy one retained file to the spool through no-follow descriptors, rehashing every byte. */
function copyVerified(vault: OpenVault, f: FileRow, target: string, signal?: AbortSignal): void {
  let dirFd: number | undefined;
  let src: number | undefined;
  let dst: number | undefined;
  try {
    dirFd = openDirAt(vault.filesFd, f.file_id, `files/${f.file_id}`);
    const opened = openFileAt(dirFd, retainedName(f), f.relative_path);
    src = opened.fd;
    if (opened.stat.size !== f.byte_size) throw sizeMismatch();
    dst = createOwned(target);
    const hash = crypto.createHash('sha256');
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let position = 0;
    for (;;) {
      if (signal?.aborted) throw reasons.cancelled();
      const n = fs.readSync(src, buffer, 0, buffer.length, position);
      if (n === 0) break;
      position += n;
      if (position > f.byte_size) throw sizeMismatch();
      hash.update(buffer.subarray(0, n));
      writeAll(dst, buffer.subarray(0, n));
    }
    if (position !== f.byte_size) throw sizeMismatch();
    if (hash.digest('hex') !== f.sha256) throw hashMismatch();
    fs.fsyncSync(dst);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') throw fileMissing();
    throw ioError(err, 'Copying a file into the bundle');
  } finally {
    closeQuietly(dst);
    closeQuietly(src);
    closeQuietly(dirFd);
  }
}

async function writeZip(snap: Snapshot, manifest: Buffer, notes: Buffer, copies: Map<FileRow, string>, target: string, signal?: AbortSignal) {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  const mtime = new Date(snap.capturedAt);
  zip.addBuffer(manifest, 'manifest.json', { mtime, mode: 0o100644 });
  zip.addBuffer(notes, 'notes.md', { mtime, mode: 0o100644 });
  for (const [f, copy] of copies) {
    zip.addReadStreamLazy(contentPath(f), { mtime, mode: 0o100644, size: f.byte_size }, (cb) => cb(null, fs.createReadStream(copy)));
  }
  zip.end();
  const hash = crypto.createHash('sha256');
  let size = 0;
  const fd = createOwned(target);
  const out = fs.createWriteStream('', { fd, flush: true });
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      if (signal?.aborted) throw reasons.cancelled();
      hash.update(chunk);
      size += chunk.length;
      yield chunk;
    }
  };
  await pipeline(zip.outputStream as NodeJS.ReadableStream & AsyncIterable<Buffer>, counted, out);
  return { size, sha256: hash.digest('hex') };
}

/**
 * Build the bundle completely in the spool and answer it; the caller streams
 * `path` and then calls release().
 * @example const b = await buildBundle(ctx, { expectedVaultId, projectId, expectedRevision, files: [{ fileId, versionId }], includeFiles: false })
 */
export async function buildBundle(ctx: Context, req: BundleRequest): Promise<Bundle> {
  const limits = evidenceOf(ctx).limits;
  const snap = snapshot(ctx, req);
  if (snap.mode === 'files') {
    const total = snap.files.reduce((sum, f) => sum + f.byte_size, 0);
    if (total > limits.bundleBytes) throw reasons.bundleTooLarge('files', limits.bundleBytes);
  }
  const manifest = Buffer.from(JSON.stringify(manifestOf(snap), null, 2) + '\n', 'utf8');
  if (manifest.length > limits.bundleManifestBytes) throw reasons.bundleTooLarge('manifest.json', limits.bundleManifestBytes);
  const notes = Buffer.from(notesMarkdown(snap), 'utf8');
  if (notes.length > limits.bundleNotesBytes) throw reasons.bundleTooLarge('notes.md', limits.bundleNotesBytes);

  const dir = spoolDir(ctx, snap.bundleId);
  const release = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const copies = new Map<FileRow, string>();
    if (snap.mode === 'files') {
      const vault = openVault(requireVault(libraryOf(ctx), snap.vaultId));
      try {
        for (const [i, f] of snap.files.entries()) {
          const copy = path.join(dir, `file-${i}`);
          copyVerified(vault, f, copy, req.signal);
          copies.set(f, copy);
        }
      } finally {
        vault.close();
      }
    }
    if (req.signal?.aborted) throw reasons.cancelled();
    const zipPath = path.join(dir, 'bundle.zip');
    const { size, sha256 } = await writeZip(snap, manifest, notes, copies, zipPath, req.signal);
    for (const copy of copies.values()) fs.rmSync(copy, { force: true });
    return {
      bundleId: snap.bundleId,
      vaultId: snap.vaultId,
      projectId: snap.project.project_id,
      mode: snap.mode,
      filename: `evidence-${snap.project.project_id}-${snap.bundleId}.zip`,
      path: zipPath,
      byteSize: size,
      sha256,
      release,
    };
  } catch (err) {
    release();
    throw err;
  }
}
