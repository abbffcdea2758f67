/**
 * Files svc owns (token files, the port file, credentials): created owner-only,
 * written whole through a temporary file and a rename, and never reached
 * through a symbolic link.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { SvcError } from '../errors.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY, O_NOFOLLOW, O_APPEND } = fs.constants;

const unsafeFile = () => new SvcError(500, 'unsafe_file', 'A file svc owns is a link or not a regular file; remove it and try again.');
const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Create a directory (and parents) owner-only; refuse a symlink in its place. */
export function ensureOwnedDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new SvcError(500, 'unsafe_directory', 'A directory svc owns is a link or not a directory; remove it and try again.');
  }
}

/** Write a file atomically with mode 0600. A symlink at the target is replaced, never followed. */
export function writeOwnerOnlyFile(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(file);
  ensureOwnedDir(dir);
  const temp = path.join(dir, `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeSync(fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/** Read a regular file without following a symlink; undefined when absent. */
export function readOwnedFile(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) throw new SvcError(500, 'unsafe_file', 'A file svc owns is not a regular file.');
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Make sure a file svc owns exists, created owner-only when absent, for a
 * library that then opens it by name (SQLite, which also gives its -wal and
 * -shm files the main file's mode). An existing file is only checked, never
 * opened: closing a descriptor would drop another connection's locks. One
 * of ours that others may read (a database made before svc created it 0600)
 * loses the group and other bits.
 */
export function ensureOwnedFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600));
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw err;
  }
  const stat = fs.lstatSync(file);
  if (!stat.isFile()) throw unsafeFile();
  if (stat.mode & 0o077 && stat.uid === process.getuid?.()) fs.chmodSync(file, stat.mode & 0o700);
}

/** Open a file svc owns for appending (a log): created 0600, never through a link. */
export function openOwnedAppend(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
  } catch (err) {
    if (errno(err) === 'ELOOP') throw unsafeFile();
    throw err;
  }
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw unsafeFile();
  }
  return fd;
}

/** Remove a file if present; a missing file is not an error. */
export function removeOwnedFile(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Create `file` owner-only with `text`, only if nothing is there yet (O_EXCL, never
 * through a link): of several processes racing for a lock or lease, exactly one
 * gets true; the others get false.
 */
export function createOwnedFileExclusive(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}
