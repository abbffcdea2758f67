/**
 * Arguments of `svc evidence` as the command line gives them: a file named
 * either way `svc library list` prints it. (Its refusals are worded in cli-words.ts.)
 */
import { isUuid4 } from '../../src/random.js';
import { given, usageError } from './flags.js';

/** A Library file as `svc library list` names it: the ID column (a number) or the FILE_ID column (a UUID). */
export function fileRef(value: string, what: string): string {
  if (/^[1-9]\d{0,14}$/.test(value) || isUuid4(value)) return value;
  throw usageError(`${what} must be the ID (a number) or FILE_ID (a canonical lowercase UUID) that \`svc library list\` prints, not ${given(value)}.`);
}
