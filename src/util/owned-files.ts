/**
 * Files svc owns (token files, the port file, credentials): created owner-only,
 * written whole through a temporary file and a rename, and never reached
 * through a symbolic link.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { SvcError } from '../errors.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_RDONLY, O_NOFOLLOW } = fs.constants;

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

/** Remove a file if present; a missing file is not an error. */
export function removeOwnedFile(file: string): void {
  fs.rmSync(file, { force: true });
}
