/**
 * `svc evidence …`: evidence projects from the command line, through the
 * same service functions as the HTTP routes (no server needed). Revisions
 * default to the current one; --revision pins the compare-and-swap.
 */
import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { SvcError } from '../../src/errors.js';
import * as ev from '../../src/evidence/index.js';
import { fileMetadata, libraryStatus, resolveFileId, vaultFolder } from '../../src/library/index.js';
import { vaultNotConfigured } from '../../src/library/reasons.js';
import { isUuid4 } from '../../src/random.js';
import { notesText, pageText } from './format.js';
import { idArg, intFlag, usageError, uuidArg } from '../lib/flags.js';
import { emit, table, type Io } from '../lib/io.js';
import { checkOutputFile, writeOutputFile } from '../lib/output-file.js';
import { folderGoneWords, withLibraryContext } from '../library/state.js';
import { typedProject } from '../lib/refusals.js';
import { nextPageHint, shellWord } from '../lib/hints.js';
import { fileRef, projectRef } from './args.js';

const uuid = (value: string, what: string) => uuidArg(value, what, isUuid4);
const FILE = 'the ID or FILE_ID `svc library list` prints';
const PROJECT = 'its ID, PROJECT_ID or exact NAME from `svc evidence list`';
const POS = { min: 1, max: Number.MAX_SAFE_INTEGER };
const vaultOf = (ctx: Context) => libraryStatus(ctx).vault?.vault_id ?? (() => { throw vaultNotConfigured(); })();

function refOf(ctx: Context, project: string) {
  const expectedVaultId = vaultOf(ctx);
  return { expectedVaultId, projectId: ev.resolveProjectId(ctx, expectedVaultId, projectRef(project)) };
}
const revisionOf = (ctx: Context, ref: ev.ProjectRef, raw?: string) => intFlag(raw, '--revision', POS) ?? ev.showProject(ctx, ref).project.revision;
/** A file and its one version: --version pins it, otherwise the catalog's. */
function versionOf(ctx: Context, expectedVaultId: string, raw: string, pinned?: string, what = 'file') {
  const fileId = resolveFileId(ctx, expectedVaultId, fileRef(raw, what));
  return { fileId, versionId: pinned !== undefined ? uuid(pinned, '--version') : fileMetadata(ctx, { expectedVaultId, fileId }).file.version_id };
}

/**
 * Arguments and flags checked before the vault is opened, so a bad one is a
 * usage error (exit 2) whether or not a vault exists. The actions check them
 * again where they use them.
 */
function precheck(command: Command): void {
  const values = command.processedArgs as unknown[];
  command.registeredArguments.forEach((arg, i) => {
    const value = values[i];
    if (arg.name() === 'project') projectRef(value as string);
    if (arg.name() === 'file') fileRef(value as string, 'file');
    if (arg.name() === 'files') for (const f of value as string[]) fileRef(f, 'file');
    if (arg.name() === 'note_id') idArg(value as string, 'note');
  });
  const o = command.opts() as Record<string, string | boolean | undefined>;
  const text = (key: string) => (typeof o[key] === 'string' ? (o[key] as string) : undefined);
  intFlag(text('revision'), '--revision', POS);
  intFlag(text('noteRevision'), '--note-revision', POS);
  intFlag(text('limit'), '--limit', { min: 1, max: 50 });
  intFlag(text('after'), '--after', { min: 0, max: Number.MAX_SAFE_INTEGER });
  intFlag(text('through'), '--through', { min: 0, max: Number.MAX_SAFE_INTEGER });
  intFlag(text('start'), '--start', { min: 0, max: Number.MAX_SAFE_INTEGER });
  intFlag(text('end'), '--end', { min: 1, max: Number.MAX_SAFE_INTEGER });
  // Any page from 1: one past the file's end is answered with its page count, however far past (--page 18 and --page 999 of 17 pages alike).
  intFlag(text('page'), '--page', POS);
  if (text('version') !== undefined) uuid(text('version')!, '--version');
  if (text('file') !== undefined) fileRef(text('file')!, '--file');
}

export function register(program: Command, io: Io): void {
  const cmd = program.command('evidence').description('evidence projects: pinned file versions, anchored notes, a page reader, bundles');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander passes positional arguments untyped
  const action = (fn: (ctx: Context, ...args: any[]) => unknown) => async (...args: unknown[]): Promise<void> => {
    precheck(args[args.length - 1] as Command);
    await withLibraryContext(io, 'evidence', (ctx) => fn(ctx, ...args), typedProject(args));
  };

  cmd.command('new').alias('create').description('create a project').argument('<name>').action(action((ctx, name: string) => {
    const r = ev.createProject(ctx, { expectedVaultId: vaultOf(ctx), name });
    emit(io, r, () => `${r.project.project_id}  ${r.project.name} (revision 1)`);
  }));

  cmd.command('list').description('projects, oldest first').option('--limit <n>', 'page size, 1 to 50').option('--after <id>', 'ids above this').option('--through <id>', 'the ceiling of the first page')
    .action(action((ctx, o: { limit?: string; after?: string; through?: string }) => {
      const r = ev.listProjects(ctx, { expectedVaultId: vaultOf(ctx), limit: intFlag(o.limit, '--limit', { min: 1, max: 50 }), afterId: intFlag(o.after, '--after', { min: 0, max: Number.MAX_SAFE_INTEGER }), throughId: intFlag(o.through, '--through', { min: 0, max: Number.MAX_SAFE_INTEGER }) });
      emit(io, r, () => (r.total === 0 ? 'No evidence projects yet; create one with `svc evidence new NAME`.' : table([['ID', 'PROJECT_ID', 'REV', 'NAME'], ...r.items.map((p) => [String(p.id), p.project_id, String(p.revision), p.name])])));
      if (r.has_more && !io.json) io.err(nextPageHint('svc evidence list', [['--limit', o.limit], ['--through', r.through_id], ['--after', r.next_after_id ?? undefined]]));
    }));

  cmd.command('show').description('a project, its counts and its files').argument('<project>', PROJECT).action(action((ctx, project: string) => {
    const ref = refOf(ctx, project);
    const r = { ...ev.showProject(ctx, ref), files: ev.listMembers(ctx, ref) };
    const members = () => (r.files.items.length === 0 ? `No files yet; add one with \`svc evidence add ${project} FILE\` (FILE from \`svc library list\`).` : table([['FILE_ID', 'VERSION_ID', 'NAME'], ...r.files.items.map((m) => [m.file_id, m.version_id, m.original_name])]));
    emit(io, r, () => [`${r.project.name} · revision ${r.project.revision} · ${r.counts.files} file(s), ${r.counts.notes} note(s)`, members()].join('\n'));
  }));

  cmd.command('rename').description('rename (compare-and-swap on the revision)').argument('<project>', PROJECT).argument('<name>').option('--revision <n>', 'the revision you saw')
    .action(action((ctx, project: string, name: string, o: { revision?: string }) => {
      const ref = refOf(ctx, project);
      const r = ev.renameProject(ctx, { ...ref, expectedRevision: revisionOf(ctx, ref, o.revision), name });
      emit(io, r, () => `${r.changed ? 'renamed' : 'unchanged'}: ${r.project.name} (revision ${r.project.revision})`);
    }));

  for (const [verb, fn] of [['add', ev.addMember], ['remove', ev.removeMember]] as const) {
    cmd.command(verb).description(verb === 'add' ? 'pin a Library file version in the project' : 'remove a membership (files and notes stay)').argument('<project>', PROJECT).argument('<file>', FILE)
      .option('--version <uuid>', 'the exact version (default: the file\'s version)').option('--revision <n>', 'the revision you saw')
      .action(action((ctx, project: string, fileId: string, o: { version?: string; revision?: string }) => {
        const ref = refOf(ctx, project);
        const r = fn(ctx, { ...ref, ...versionOf(ctx, ref.expectedVaultId, fileId, o.version), expectedRevision: revisionOf(ctx, ref, o.revision) });
        emit(io, r, () => `${r.changed ? (verb === 'add' ? 'added' : 'removed') : 'no change'}: ${r.file_id} (revision ${r.project.revision})`);
      }));
  }

  cmd.command('notes').description('saved notes').argument('<project>', PROJECT).option('--file <file>', 'only this file\'s version (ID or FILE_ID)').option('--limit <n>', 'page size, 1 to 50').option('--after <id>', 'ids above this')
    .option('--through <id>', 'the ceiling of the first page')
    .action(action((ctx, project: string, o: { file?: string; limit?: string; after?: string; through?: string }) => {
      const ref = refOf(ctx, project);
      const file = o.file !== undefined ? versionOf(ctx, ref.expectedVaultId, o.file, undefined, '--file') : undefined;
      const r = ev.listNotes(ctx, { ...ref, file, limit: intFlag(o.limit, '--limit', { min: 1, max: 50 }), afterId: intFlag(o.after, '--after', { min: 0, max: Number.MAX_SAFE_INTEGER }), throughId: intFlag(o.through, '--through', { min: 0, max: Number.MAX_SAFE_INTEGER }) });
      emit(io, r, () => notesText(r.items));
      if (r.has_more && !io.json) io.err(nextPageHint(`svc evidence notes ${project}`, [['--file', o.file], ['--limit', o.limit], ['--through', r.through_id], ['--after', r.next_after_id ?? undefined]]));
    }));

  const note = cmd.command('note').description('add or edit a note');
  note.command('add').description('a plain note, or a passage note with --start and --end (codepoints from `svc evidence read`)').argument('<project>', PROJECT).argument('<file>', FILE)
    .option('--body <text>', 'the note text (a passage note may leave it empty)').option('--page <n>', 'the page of the passage', '1')
    .option('--start <n>', 'first codepoint of the passage').option('--end <n>', 'codepoint after the passage (exclusive)').option('--revision <n>', 'the revision you saw')
    .action(action(async (ctx, project: string, fileId: string, o: { body?: string; page: string; start?: string; end?: string; revision?: string }) => {
      const ref = refOf(ctx, project);
      const sel = versionOf(ctx, ref.expectedVaultId, fileId);
      const expectedRevision = revisionOf(ctx, ref, o.revision);
      const start = intFlag(o.start, '--start', { min: 0, max: Number.MAX_SAFE_INTEGER });
      const end = intFlag(o.end, '--end', { min: 1, max: Number.MAX_SAFE_INTEGER });
      if ((start === undefined) !== (end === undefined)) throw usageError('A passage needs both --start and --end.');
      let anchor: ev.AnchorInput | null = null;
      if (start !== undefined && end !== undefined) {
        const page = await ev.readPage(ctx, { ...ref, ...sel, page: intFlag(o.page, '--page', POS)! });
        if (page.text === null) throw new SvcError(409, 'page_unreadable', `The page could not be read (${page.status}${page.reason ? `: ${page.reason}` : ''}), so no passage can be anchored on it; \`svc evidence read ${shellWord(project)} ${shellWord(fileId)} --page ${page.requested_page}\` says why and what to do.`);
        anchor = { page_basis: page.page_basis, page: page.requested_page, extraction_contract: page.extraction_contract, page_sha256: page.page_sha256!, start, end, quote: ev.sliceCodepoints(page.text, start, end) };
      } else if (o.body === undefined) throw usageError('A plain note needs --body.');
      const r = await ev.createNote(ctx, { ...ref, ...sel, expectedRevision, kind: anchor ? 'passage' : 'plain', body: o.body ?? '', anchor });
      emit(io, r, () => `note #${r.note.note_id} saved (project revision ${r.project.revision})${r.note.anchor ? `: “${r.note.anchor.quote}”` : ''}`);
    }));
  note.command('edit').description('replace a note\'s body').argument('<project>', PROJECT).argument('<note_id>').requiredOption('--body <text>', 'the new body')
    .option('--note-revision <n>', 'the note revision you saw').option('--revision <n>', 'the project revision you saw')
    .action(action((ctx, project: string, noteIdRaw: string, o: { body: string; noteRevision?: string; revision?: string }) => {
      const ref = refOf(ctx, project);
      const noteId = idArg(noteIdRaw, 'note');
      const current = ev.listNotes(ctx, { ...ref, afterId: noteId - 1, throughId: noteId, limit: 1 }).items[0];
      const r = ev.editNote(ctx, { ...ref, expectedRevision: revisionOf(ctx, ref, o.revision), noteId, expectedNoteRevision: intFlag(o.noteRevision, '--note-revision', POS) ?? current?.revision ?? 1, body: o.body });
      emit(io, r, () => `${r.changed ? 'edited' : 'unchanged'}: note #${r.note.note_id} revision ${r.note.revision}`);
    }));

  cmd.command('read').description('print one page with the codepoint offsets of each line').argument('<project>', PROJECT).argument('<file>', FILE).option('--page <n>', 'the page (1 for text files)', '1')
    .action(action(async (ctx, project: string, fileId: string, o: { page: string }) => {
      const ref = refOf(ctx, project);
      const file = versionOf(ctx, ref.expectedVaultId, fileId);
      const page = await ev.readPage(ctx, { ...ref, ...file, page: intFlag(o.page, '--page', POS)! });
      // A vault folder that is gone is said with its path and the ways back, as every Library command says it.
      const gone = page.reason === 'vault_unavailable' || page.reason === 'vault_marker_invalid' ? vaultFolder(ctx) : null;
      const said = gone ? { message: folderGoneWords({ path: gone.path, reason: page.reason }) } : {};
      // The saved passages of this page travel with it, as the desktop reader highlights them.
      const r = { ...page, ...said, ...ev.pageHighlights(ctx, { ...ref, file }, page) };
      emit(io, r, () => pageText(r));
      if (r.status !== 'extracted' && r.status !== 'no_text') io.exitCode = 1;
    }));

  cmd.command('bundle').description('write a ZIP of manifest.json and notes.md (with --files, the files too, rehashed)').argument('<project>', PROJECT).argument('<files...>', 'files by ID or FILE_ID from `svc library list`')
    .requiredOption('-o, --output <file>', 'the ZIP to write (must not exist)').option('--files', 'include the file bytes, verified').option('--revision <n>', 'the revision you saw')
    .action(action(async (ctx, project: string, fileIds: string[], o: { output: string; files?: boolean; revision?: string }) => {
      const into = { existsHint: 'choose another --output' };
      // Refused before the bundle is built (with --files every file is rehashed), not after.
      checkOutputFile(o.output, into);
      const ref = refOf(ctx, project);
      const files = fileIds.map((f) => versionOf(ctx, ref.expectedVaultId, f));
      const b = await ev.buildBundle(ctx, { ...ref, expectedRevision: revisionOf(ctx, ref, o.revision), files, includeFiles: Boolean(o.files) });
      let output: string;
      try {
        output = writeOutputFile(o.output, { copyFrom: b.path }, into);
      } finally {
        b.release();
      }
      const r = { output, bundle_id: b.bundleId, mode: b.mode, byte_size: b.byteSize, sha256: b.sha256 };
      const what = b.mode === 'files' ? 'with the files, each rehashed while copied' : 'metadata only: the file bytes were not checked (--files includes and verifies them)';
      emit(io, r, () => `Wrote ${o.output} (${what}; ${b.byteSize} bytes, sha256 ${b.sha256})`);
    }));
}
