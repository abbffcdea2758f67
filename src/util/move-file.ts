/**
 * Moving a file without ever replacing one: `rename` silently replaces
 * whatever is at the destination, which a restore must never do to a user's
 * file. A hard link fails when the name is taken; where there can be no link
 * (another filesystem, one without links) the bytes are copied exclusively.
 */
import fs from 'node:fs';

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;
/** Link failures that mean "no link here", not "the name is taken". */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'ENOSYS', 'EMLINK']);

const sameFile = (a: string, b: string) => {
  const [sa, sb] = [fs.lstatSync(a), fs.lstatSync(b)];
  return sa.dev === sb.dev && sa.ino === sb.ino;
};

/**
 * Move the file `from` to `to` unless something is already at `to`: answers false then, and both
 * stay as they were. A move cut short after the link (both names on one file) finishes here.
 */
export function moveFileNoReplace(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    if (errno(err) === 'EEXIST') {
      if (!sameFile(from, to)) return false;
    } else if (NO_LINK.has(errno(err)!)) {
      try {
        fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
      } catch (copyErr) {
        if (errno(copyErr) === 'EEXIST') return false;
        throw copyErr;
      }
    } else {
      throw err;
    }
  }
  fs.unlinkSync(from);
  return true;
}
