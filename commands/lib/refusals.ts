/**
 * Refusals the service words for the HTTP door (body fields), worded for the
 * command line instead: flags and arguments, and the command that helps next.
 * One table for every command group, so a reason's wording is written once
 * and its variants per group (`svc answer` previews again where `svc evidence`
 * runs again) sit side by side.
 */
import { SvcError } from '../../src/errors.js';
import { shellWord } from './hints.js';

/** The command groups that reword refusals. */
export type Door = 'evidence' | 'answer' | 'library' | 'analytics';

type Extra = Record<string, any>;
type Wording = Partial<Record<Door, (x: Extra) => string>>;

const noVault = 'No Library vault yet: create one with `svc library init <folder>`';

const WORDS: Record<string, Wording> = {
  revision_conflict: {
    evidence: (x) => `The project changed: it is at revision ${x.revision} now, not the one this command expected. \`svc evidence show PROJECT\` shows it; run again (with no --revision the current one is used).`,
    answer: (x) => `The project changed: it is at revision ${x.revision} now, not the --revision given; read \`svc evidence show PROJECT\` and preview again (with no --revision the current one is used).`,
  },
  note_revision_conflict: {
    evidence: (x) => `The note changed: it is at revision ${x.note_revision} now, not the --note-revision given. \`svc evidence notes PROJECT\` shows it; run again.`,
  },
  vault_not_configured: {
    evidence: () => `${noVault} and import files with \`svc library import\`; evidence projects pin those files.`,
    library: () => `${noVault}.`,
  },
  not_a_member: {
    evidence: () => 'That file version is not in this project; add it with `svc evidence add PROJECT FILE` (`svc evidence show PROJECT` lists the members).',
  },
  request_hash_mismatch: {
    answer: () => '--sha is not the request hash of this preview; copy the `svc answer send` line the preview printed, or preview again.',
  },
  body_empty: {
    evidence: () => 'A plain note needs text: give --body TEXT, not empty or only whitespace (only a passage note, added with --start and --end, may have an empty body).',
  },
  note_empty: {
    answer: (x) => `Note ${x.note_id} has no text to send (a passage note with an empty body); give it one with \`svc evidence note edit PROJECT ${x.note_id} --body TEXT\`, or leave out --note ${x.note_id}.`,
  },
  // The lifecycle service names its HTTP route, with no command beside it (hints.ts withoutRoute keeps the command of the others).
  lifecycle_check_running: { analytics: (x) => `Lifecycle check ${x.run_id} is running; \`svc lifecycle stop\` (or Ctrl-C in its terminal) stops it after the current slice.` },
  vault_mismatch: { library: () => 'The Library vault changed while this command ran; run it again.' },
  // The server's words name its route; `svc library status` says where the folder should be and the ways back.
  vault_unavailable: { answer: () => 'The Library vault folder is missing or not reachable; `svc library status` says where it should be and the ways back.' },
  parent_not_directory: { library: () => 'The <folder> given to `svc library init` is a file, not a folder.' },
  parent_not_writable: { library: () => 'svc may not create its vault folder inside the <folder> given to `svc library init`.' },
  file_not_found: { library: () => 'No such file in the Library; `svc library list` shows the ID and FILE_ID of each.' },
  vault_exists: { library: () => 'A vault is already configured and its root cannot be switched; `svc library status` names it, and it keeps every file.' },
  not_text: {
    library: () => 'Only TXT and MD files have a text read; this file is a PDF. Read its pages with `svc evidence read PROJECT FILE --page N` (add it to a project with `svc evidence add`).',
  },
};

/** What the person typed for the command's arguments, put in the words' place-holders (`PROJECT`). */
export interface Typed {
  project?: string;
}

/**
 * `err` worded for `door`'s command line when the table has words for it; anything else as it was.
 * The commands it names carry the project as typed, when the command was given one.
 */
export function inCliWords(door: Door, err: unknown, typed: Typed = {}): unknown {
  if (!(err instanceof SvcError)) return err;
  const words = WORDS[err.reason]?.[door];
  if (!words) return err;
  let text = words(err.extra ?? {});
  if (typed.project !== undefined) text = text.replace(/\bPROJECT\b/g, shellWord(typed.project));
  return new SvcError(err.status, err.reason, text, err.extra);
}

/** The project a commander action was given, when its first argument is `<project>` (the action's last argument is its Command). */
export function typedProject(args: readonly unknown[]): Typed {
  const command = args[args.length - 1] as { registeredArguments?: { name(): string }[] } | undefined;
  return command?.registeredArguments?.[0]?.name() === 'project' && typeof args[0] === 'string' ? { project: args[0] } : {};
}
