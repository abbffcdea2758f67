/**
 * Arguments and refusals of `svc evidence` worded for the command line: a
 * file named either way `svc library list` prints it, and refusals that name
 * flags instead of body fields, with the command that helps next.
 */
import { SvcError } from '../../src/errors.js';
import { isUuid4 } from '../../src/random.js';
import { usageError } from './flags.js';

/** A Library file as `svc library list` names it: the ID column (a number) or the FILE_ID column (a UUID). */
export function fileRef(value: string, what: string): string {
  if (/^[1-9]\d{0,14}$/.test(value) || isUuid4(value)) return value;
  throw usageError(`${what} must be the ID (a number) or FILE_ID (a canonical lowercase UUID) that \`svc library list\` prints, not "${value}".`);
}

/** Refusals worded for the command line: flags instead of body fields, and the command that helps next. */
export function inCliWords(err: unknown): unknown {
  if (!(err instanceof SvcError)) return err;
  const x = err.extra ?? {};
  const words: Record<string, string | undefined> = {
    revision_conflict: `The project changed: it is at revision ${x.revision} now, not the one this command expected. \`svc evidence show PROJECT\` shows it; run again (with no --revision the current one is used).`,
    note_revision_conflict: `The note changed: it is at revision ${x.note_revision} now, not the --note-revision given. \`svc evidence notes PROJECT\` shows it; run again.`,
    vault_not_configured: 'No Library vault yet: create one with `svc library init <folder>` and import files with `svc library import`; evidence projects pin those files.',
    not_a_member: 'That file version is not in this project; add it with `svc evidence add PROJECT FILE` (`svc evidence show PROJECT` lists the members).',
  };
  const message = words[err.reason];
  return message ? new SvcError(err.status, err.reason, message, err.extra) : err;
}

