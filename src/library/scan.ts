/**
 * Compare the vault folder with its catalog. Nothing here changes the vault.
 *
 * The import runs the quick form before every write: the entries of files/
 * (leftover temporary copies, unrecorded folders, links) and one lstat per
 * recorded file (type, link count, size). Every interrupted import leaves its
 * bytes at that level, since each publication makes a fresh folder. The deep
 * form of `svc library check` also lists every recorded folder's contents and
 * hashes every retained file through a no-follow descriptor.
 */
import type { RetainedRow } from './repo.js';
import { UnsafeObject, closeQuietly, codeOf, listDir, lstatAt, lstatBelow, openDirAt, openFileAt, sha256OfFd } from './fs-safe.js';
import { isUuid4 } from '../random.js';
import { LOCK_NAME, type OpenVault } from './vault.js';
import { identityIn, ownerStands } from '../claims/owner.js';

export type ProblemKind = 'lock_present' | 'temp_leftover' | 'orphan' | 'missing' | 'size_mismatch' | 'hash_mismatch' | 'unsafe';

export interface Problem {
  kind: ProblemKind;
  /** Relative to the vault folder. */
  path: string;
  file_id?: string;
  message: string;
}

export interface ScanOptions {
  /** Look inside every recorded folder and hash every retained file. */
  deep: boolean;
  /** Report a present import lock (check does; the import holds its own). */
  lock: boolean;
}

export const retainedName = (row: Pick<RetainedRow, 'version_id' | 'format'>) => `${row.version_id}.${row.format}`;

function problem(kind: ProblemKind, path: string, message: string, fileId?: string): Problem {
  return { kind, path, message, ...(fileId ? { file_id: fileId } : {}) };
}

const UNSAFE_TEXT = { symlink: 'is a symbolic link', not_regular: 'is not a regular file', not_directory: 'is not a folder', hard_linked: 'has more than one hard link' };

function unsafeProblem(err: UnsafeObject, path: string, fileId?: string): Problem {
  return problem('unsafe', path, `${path} ${UNSAFE_TEXT[err.what]}.`, fileId);
}

function checkRetained(dirFd: number, row: RetainedRow): Problem | undefined {
  const rel = row.relative_path;
  let fd: number | undefined;
  try {
    const opened = openFileAt(dirFd, retainedName(row), rel);
    fd = opened.fd;
    if (opened.stat.size !== row.byte_size) return problem('size_mismatch', rel, `${rel} has ${opened.stat.size} bytes; the catalog records ${row.byte_size}.`, row.file_id);
    if (sha256OfFd(fd).sha256 !== row.sha256) return problem('hash_mismatch', rel, `${rel} no longer matches its recorded SHA-256.`, row.file_id);
    return undefined;
  } catch (err) {
    if (err instanceof UnsafeObject) return unsafeProblem(err, rel, row.file_id);
    if (codeOf(err) === 'ENOENT') return problem('missing', rel, `${rel} is missing.`, row.file_id);
    throw err;
  } finally {
    closeQuietly(fd);
  }
}

/** Type, link count and size of a recorded file, from one lstat. */
function quickCheck(ov: OpenVault, row: RetainedRow): Problem | undefined {
  const rel = row.relative_path;
  const stat = lstatBelow(ov.filesFd, row.file_id, retainedName(row));
  if (!stat) return problem('missing', rel, `${rel} is missing.`, row.file_id);
  if (stat.isSymbolicLink()) return unsafeProblem(new UnsafeObject('symlink', rel), rel, row.file_id);
  if (!stat.isFile()) return unsafeProblem(new UnsafeObject('not_regular', rel), rel, row.file_id);
  if (stat.nlink !== 1) return unsafeProblem(new UnsafeObject('hard_linked', rel), rel, row.file_id);
  if (stat.size !== row.byte_size) return problem('size_mismatch', rel, `${rel} has ${stat.size} bytes; the catalog records ${row.byte_size}.`, row.file_id);
  return undefined;
}

/** Everything inside a folder no catalog entry claims is an orphan. */
function orphansIn(ov: OpenVault, name: string, problems: Problem[]): void {
  const rel = `files/${name}`;
  let dirFd: number | undefined;
  try {
    dirFd = openDirAt(ov.filesFd, name, rel);
    const entries = listDir(dirFd);
    if (entries.length === 0) problems.push(problem('orphan', `${rel}/`, `${rel}/ is an empty folder no catalog entry records.`));
    for (const entry of entries) {
      const path = `${rel}/${entry.name}`;
      if (entry.isSymbolicLink() || !entry.isFile()) problems.push(problem('unsafe', path, `${path} is not a regular file and no catalog entry records it.`));
      else if (entry.name.startsWith('.tmp-')) problems.push(problem('temp_leftover', path, `${path} is an unpublished copy left by an interrupted import.`));
      else problems.push(problem('orphan', path, `${path} is not recorded in the catalog (an interrupted import?).`));
    }
  } catch (err) {
    if (err instanceof UnsafeObject) problems.push(unsafeProblem(err, rel));
    else throw err;
  } finally {
    closeQuietly(dirFd);
  }
}

export function scanVault(ov: OpenVault, rows: RetainedRow[], options: ScanOptions): Problem[] {
  const problems: Problem[] = [];
  if (options.lock && lstatAt(ov.rootFd, LOCK_NAME)) {
    problems.push(problem('lock_present', LOCK_NAME, `${LOCK_NAME} is present: an import is running or was interrupted.`));
  }
  const byFileId = new Map(rows.map((r) => [r.file_id, r]));
  const seen = new Set<string>();
  for (const entry of listDir(ov.filesFd)) {
    const name = entry.name;
    const rel = `files/${name}`;
    if (name.startsWith('.tmp-')) {
      problems.push(problem('temp_leftover', rel, `${rel} is an unpublished copy left by an interrupted import.`));
      continue;
    }
    const row = byFileId.get(name);
    if (entry.isSymbolicLink()) {
      if (row) seen.add(name); // unsafe, not missing: one problem is enough
      problems.push(problem('unsafe', rel, `${rel} is a symbolic link.`, row?.file_id));
      continue;
    }
    if (!entry.isDirectory() || !isUuid4(name) || !row) {
      if (entry.isDirectory()) orphansIn(ov, name, problems);
      else problems.push(problem(entry.isFile() ? 'orphan' : 'unsafe', rel, `${rel} is not recorded in the catalog.`));
      continue;
    }
    seen.add(name);
    if (!options.deep) {
      const found = quickCheck(ov, row);
      if (found) problems.push(found);
      continue;
    }
    let dirFd: number | undefined;
    try {
      dirFd = openDirAt(ov.filesFd, name, rel);
      const expected = retainedName(row);
      for (const inner of listDir(dirFd)) {
        if (inner.name === expected) continue;
        const path = `${rel}/${inner.name}`;
        problems.push(problem(inner.isFile() ? 'orphan' : 'unsafe', path, `${path} is not recorded in the catalog.`));
      }
      const found = checkRetained(dirFd, row);
      if (found) problems.push(found);
    } catch (err) {
      if (err instanceof UnsafeObject) problems.push(unsafeProblem(err, rel, row.file_id));
      else throw err;
    } finally {
      closeQuietly(dirFd);
    }
  }
  for (const row of rows) {
    if (!seen.has(row.file_id)) problems.push(problem('missing', row.relative_path, `${row.relative_path} is missing.`, row.file_id));
  }
  return problems;
}

/**
 * Whether the process that wrote a lock still runs (null when the lock names none): its pid, and
 * who that process is where the lock says (claims/owner.ts), so a pid now run by another process does not.
 */
export function lockHolderRunning(content: { pid?: unknown; boot_id?: unknown; pid_start?: unknown }): boolean | null {
  const { pid } = content;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  return ownerStands({ pid, ...identityIn(content) });
}
