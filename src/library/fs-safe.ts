/**
 * Managed access to the vault through no-follow directory descriptors.
 *
 * Node has no openat(2), so a name is reached relative to an open directory
 * through /proc/self/fd/<fd>/<name>: the kernel resolves the descriptor (not a
 * path that could have been swapped since) and then looks up exactly one
 * component, which O_NOFOLLOW refuses when it is a symlink. A platform without
 * that facility is refused: there is no path-based fallback.
 *
 * Errors never carry a path: Node's errno messages do, so only the code is kept.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { SvcError } from '../errors.js';

const C = fs.constants;
const FD_ROOT = '/proc/self/fd';

let supported: boolean | undefined;

/** Refuse, once and for all, a platform where descriptor-relative no-follow access is impossible. */
export function assertSafeAccess(): void {
  supported ??= C.O_NOFOLLOW !== undefined && C.O_DIRECTORY !== undefined && fs.existsSync(`${FD_ROOT}/0`);
  if (!supported) {
    throw new SvcError(501, 'platform_unsupported', 'This platform offers no descriptor-relative no-follow file access, which the Library requires; it has no unsafe fallback.');
  }
}

/** An unsafe object in the vault: a symlink, a non-regular file, or a hard-linked one. */
export class UnsafeObject extends SvcError {
  constructor(readonly what: 'symlink' | 'not_regular' | 'not_directory' | 'hard_linked', where: string) {
    const text = { symlink: 'is a symbolic link', not_regular: 'is not a regular file', not_directory: 'is not a directory', hard_linked: 'has more than one hard link' }[what];
    super(409, 'unsafe_path', `${where} ${text}; the Library refuses it and does not follow or copy it.`, { unsafe: what });
  }
}

/** The descriptor-relative spelling of one component inside an open directory. */
export function at(dirFd: number, name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new SvcError(500, 'vault_name_invalid', 'An internal vault name was not a single path component.');
  }
  return `${FD_ROOT}/${dirFd}/${name}`;
}

export function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** A file-system failure without its path. */
export function ioError(err: unknown, what: string): SvcError {
  if (err instanceof SvcError) return err;
  return new SvcError(500, 'vault_io_error', `${what} failed (${codeOf(err) ?? 'unknown error'}).`);
}

export function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    fs.closeSync(fd);
  } catch {
    // Closing is best effort; the descriptor is gone either way.
  }
}

function openDir(target: string, where: string): number {
  let fd: number;
  try {
    fd = fs.openSync(target, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'ELOOP') throw new UnsafeObject('symlink', where);
    if (code === 'ENOTDIR') {
      // O_DIRECTORY|O_NOFOLLOW on a symlink reports ENOTDIR on Linux: tell them apart.
      const link = safeLstat(target)?.isSymbolicLink();
      throw new UnsafeObject(link ? 'symlink' : 'not_directory', where);
    }
    throw err;
  }
  return fd;
}

function safeLstat(target: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(target);
  } catch {
    return undefined;
  }
}

/** Open a directory by absolute path; its last component must not be a symlink. */
export function openDirPath(absolute: string, where: string): number {
  return openDir(absolute, where);
}

/** Open the directory `name` inside `dirFd`, never following a symlink. */
export function openDirAt(dirFd: number, name: string, where: string): number {
  return openDir(at(dirFd, name), where);
}

export interface OpenedFile {
  fd: number;
  stat: fs.Stats;
}

/**
 * Open the regular file `name` inside `dirFd` for reading. O_NONBLOCK keeps a
 * FIFO planted in the vault from blocking the open; fstat then refuses it.
 */
export function openFileAt(dirFd: number, name: string, where: string): OpenedFile {
  let fd: number;
  try {
    fd = fs.openSync(at(dirFd, name), C.O_RDONLY | C.O_NOFOLLOW | C.O_NONBLOCK);
  } catch (err) {
    if (codeOf(err) === 'ELOOP') throw new UnsafeObject('symlink', where);
    throw err;
  }
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    closeQuietly(fd);
    throw new UnsafeObject('not_regular', where);
  }
  if (stat.nlink !== 1) {
    closeQuietly(fd);
    throw new UnsafeObject('hard_linked', where);
  }
  return { fd, stat };
}

/** Create a new file `name` inside `dirFd`; an existing name (even a symlink) fails with EEXIST. */
export function createFileAt(dirFd: number, name: string, mode: number): number {
  return fs.openSync(at(dirFd, name), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, mode);
}

export function mkdirAt(dirFd: number, name: string, mode: number): void {
  fs.mkdirSync(at(dirFd, name), { mode });
}

export function renameAt(fromDir: number, fromName: string, toDir: number, toName: string): void {
  fs.renameSync(at(fromDir, fromName), at(toDir, toName));
}

export function unlinkAt(dirFd: number, name: string): void {
  fs.unlinkSync(at(dirFd, name));
}

export function rmdirAt(dirFd: number, name: string): void {
  fs.rmdirSync(at(dirFd, name));
}

export function lstatAt(dirFd: number, name: string): fs.Stats | undefined {
  return safeLstat(at(dirFd, name));
}

/**
 * lstat of `name` inside the folder `dirName` of `dirFd`, for the import's
 * quick scan. The folder component itself is resolved by path, so callers use
 * it only for a folder a listing of `dirFd` has just shown to be a real
 * directory, and only to read metadata: bytes are always read through
 * descriptors opened without following links.
 */
export function lstatBelow(dirFd: number, dirName: string, name: string): fs.Stats | undefined {
  at(dirFd, name);
  return safeLstat(`${at(dirFd, dirName)}/${name}`);
}

/** The entries of an open directory (the descriptor, not a path, names it). */
export function listDir(dirFd: number): fs.Dirent[] {
  return fs.readdirSync(`${FD_ROOT}/${dirFd}/`, { withFileTypes: true });
}

/** Write the whole buffer at the descriptor's position. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.byteLength) offset += fs.writeSync(fd, bytes, offset, bytes.byteLength - offset);
}

/**
 * Read at most `limit` bytes from offset 0 into a buffer of that size: the
 * bounded re-read. Answers the bytes read (a file that grew reads `limit`).
 */
export function readBounded(fd: number, limit: number): Buffer {
  const buffer = Buffer.allocUnsafe(limit);
  let total = 0;
  while (total < limit) {
    const n = fs.readSync(fd, buffer, total, limit - total, total);
    if (n === 0) break;
    total += n;
  }
  return buffer.subarray(0, total);
}

const HASH_STEP = 1024 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Everything readable from offset 0, 1 MiB at a time (each chunk valid until the next is read). */
function* chunksOfFd(fd: number): Generator<Buffer> {
  const buffer = Buffer.allocUnsafe(HASH_STEP);
  for (let position = 0; ; ) {
    const n = fs.readSync(fd, buffer, 0, buffer.length, position);
    if (n === 0) return;
    position += n;
    yield buffer.subarray(0, n);
  }
}

/** SHA-256 (hex) of everything readable from offset 0, in bounded chunks; also answers the bytes read. */
export function sha256OfFd(fd: number): { sha256: string; bytes: number } {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for (const chunk of chunksOfFd(fd)) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * sha256OfFd for the server's request path: the same reads of the same
 * descriptor, but the event loop gets a turn after every 1 MiB, so hashing a
 * 64 MiB file does not stall every other request.
 */
export async function sha256OfFdYielding(fd: number): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for (const chunk of chunksOfFd(fd)) {
    hash.update(chunk);
    bytes += chunk.length;
    await nextTurn();
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** SHA-256 (hex) of bytes already in memory, giving the event loop a turn after every 1 MiB. */
export async function sha256OfBytesYielding(bytes: Uint8Array): Promise<string> {
  const hash = crypto.createHash('sha256');
  for (let offset = 0; offset < bytes.byteLength; offset += HASH_STEP) {
    hash.update(bytes.subarray(offset, offset + HASH_STEP));
    if (offset + HASH_STEP < bytes.byteLength) await nextTurn();
  }
  return hash.digest('hex');
}
