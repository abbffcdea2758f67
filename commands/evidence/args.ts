/**
 * Arguments of `svc evidence` as the command line gives them: a file named
 * either way `svc library list` prints it, a project any way `svc evidence list`
 * prints it. (Its refusals are worded in lib/refusals.ts.)
 */
import { checkProjectName, DEFAULT_EVIDENCE_LIMITS } from '../../src/evidence/index.js';
import { isUuid4 } from '../../src/random.js';
import { given, usageError } from '../lib/flags.js';

/** A Library file as `svc library list` names it: the ID column (a number) or the FILE_ID column (a UUID). */
export function fileRef(value: string, what: string): string {
  if (/^[1-9]\d{0,14}$/.test(value) || isUuid4(value)) return value;
  throw usageError(`${what} must be the ID (a number) or FILE_ID (a canonical lowercase UUID) that \`svc library list\` prints, not ${given(value)}.`);
}

/**
 * A project as `svc evidence list` names it: the ID column (a number), the PROJECT_ID
 * column (a UUID) or its exact NAME; refused here only when it can be none of them.
 */
export function projectRef(value: string): string {
  if (/^[1-9]\d{0,14}$/.test(value) || isUuid4(value)) return value;
  try {
    checkProjectName(value, DEFAULT_EVIDENCE_LIMITS.nameChars);
    return value;
  } catch {
    throw usageError(`A project is named by the ID, PROJECT_ID or NAME \`svc evidence list\` prints (a name: 1 to ${DEFAULT_EVIDENCE_LIMITS.nameChars} characters, one line), not ${given(value)}.`);
  }
}
