/**
 * Writing a command's output file (-o): created 0600 under a temporary name
 * in the same folder and then linked or renamed into place, so a failure
 * leaves no partial file; an existing file is kept unless the command allows
 * replacing it, and a symbolic link or folder at the path is never written
 * through. A file-system failure is one line naming the file the person gave
 * and what to do, never an internal (spool) path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SvcError } from '../../src/errors.js';
import { usageError } from './flags.js';

export interface OutputOptions {
  /** Replace an existing regular file (--force). */
  force?: boolean;
  /** What to tell a person when the file exists and may not be replaced. */
  existsHint: string;
}

/**
 * The options of an -o that `--force` lets replace an existing file; the hint says so.
 * @example writeOutputFile(o.output, text, replaceableWithForce(o.force))
 */
export function replaceableWithForce(force: boolean | undefined): OutputOptions {
  return { force, existsHint: 'add --force to replace it' };
}

function refusal(given: string, err: unknown): SvcError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return usageError(`Cannot write ${given}: its folder does not exist; create the folder first or choose another output file.`, 'output_unwritable');
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return usageError(`Cannot write ${given}: permission denied; choose an output file in a folder you may write to.`, 'output_unwritable');
  if (code === 'EISDIR') return usageError(`Cannot write ${given}: it is a folder; name a file inside it.`, 'output_unwritable');
  if (code === 'ENOSPC' || code === 'EDQUOT') return new SvcError(507, 'output_no_space', `Cannot write ${given}: no space left on that disk; free some space or choose another disk.`);
  return new SvcError(500, 'output_failed', `Cannot write ${given} (${code ?? 'unknown error'}); nothing was written.`);
}

/**
 * Refuse, before any work, an output path that writeOutputFile would refuse:
 * a link, a folder, an existing file without `force`, a missing folder.
 * Answers what is at the path now (undefined when nothing).
 * @example checkOutputFile(o.output, replaceableWithForce(o.force))
 */
export function checkOutputFile(given: string, options: OutputOptions): fs.Stats | undefined {
  const target = path.resolve(given);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw refusal(given, err);
  }
  if (existing?.isDirectory()) throw refusal(given, Object.assign(new Error(), { code: 'EISDIR' }));
  if (existing?.isSymbolicLink()) throw usageError(`${given} is a symbolic link; svc does not write through links. Choose another output file.`, 'output_unwritable');
  if (existing && !options.force) throw usageError(`${given} already exists; ${options.existsHint}.`, 'output_exists');
  if (!existing) {
    // A missing folder is said before the work, not after it.
    try {
      if (!fs.statSync(path.dirname(target)).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
    } catch (err) {
      throw refusal(given, err);
    }
  }
  return existing;
}

/** What link() answers on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Copy the finished temporary file to a name that must not exist yet (O_EXCL: never over a file
 * that appeared meanwhile, never through a link), removing what it made if the copy fails.
 */
function copyExclusive(from: string, to: string): void {
  try {
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') fs.rmSync(to, { force: true });
    throw err;
  }
}

/**
 * Write `content` (bytes, text, or a file to copy) to the path a person gave;
 * answers the absolute path written.
 * @example writeOutputFile('inventory.json', text, { existsHint: 'choose another --output' })
 */
export function writeOutputFile(given: string, content: Buffer | string | { copyFrom: string }, options: OutputOptions): string {
  const target = path.resolve(given);
  const existing = checkOutputFile(given, options);
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  let created = false;
  let linking = false;
  try {
    if (typeof content === 'string' || Buffer.isBuffer(content)) {
      fs.writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
      created = true;
    } else {
      fs.copyFileSync(content.copyFrom, tmp, fs.constants.COPYFILE_EXCL);
      created = true;
      fs.chmodSync(tmp, 0o600);
    }
    if (existing) fs.renameSync(tmp, target);
    else {
      // link() refuses an existing name atomically: a file that appeared meanwhile is kept.
      linking = true;
      try {
        fs.linkSync(tmp, target);
      } catch (err) {
        if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        copyExclusive(tmp, target); // a disk without hard links (FAT, exFAT, some network shares)
      }
      fs.rmSync(tmp, { force: true });
    }
  } catch (err) {
    if (created) fs.rmSync(tmp, { force: true });
    if (linking && (err as NodeJS.ErrnoException).code === 'EEXIST') throw usageError(`${given} already exists; ${options.existsHint}.`, 'output_exists');
    throw refusal(given, err);
  }
  return target;
}
