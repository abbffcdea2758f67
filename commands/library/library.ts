/**
 * `svc library …`: the owned-file Library from the command line. It calls the
 * service layer directly (no server needed) and shares the vault's import lock
 * with a running server.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { conflict } from '../../src/errors.js';
import { checkLibrary, createVault, exportInventory, fileMetadata, libraryStatus, linkPaper, listFiles, readText, resolveFileId, vaultFolder, type LibraryStatus, type VaultFolder } from '../../src/library/index.js';
import { DEFAULT_LIMITS } from '../../src/library/limits.js';
import { vaultExists, vaultNotConfigured } from '../../src/library/reasons.js';
import { isUuid4 } from '../../src/random.js';
import { folderGoneWords, restoreWaiting, withLibraryContext } from './state.js';
import { idArg, intFlag, given, usageError } from '../lib/flags.js';
import { EXIT } from '../lib/exit-codes.js';
import { emit, table, type Io } from '../lib/io.js';
import { nextPageHint } from '../lib/hints.js';
import { runImport } from './import.js';
import { replaceableWithForce, writeOutputFile } from '../lib/output-file.js';
import { sha256Hex } from '../../src/answers/canonical-json.js';
import { count } from '../lib/words.js';

/** A file as `svc library list` names it: the ID column (a number) or the FILE_ID column (a UUID). */
function fileArg(ctx: Context, raw: string): { expectedVaultId: string; fileId: string } {
  if (!/^[1-9]\d{0,14}$/.test(raw) && !isUuid4(raw)) throw usageError(`A Library file is named by the ID or FILE_ID that \`svc library list\` prints, not ${given(raw)}.`, 'invalid_id');
  const expectedVaultId = vaultId(ctx);
  return { expectedVaultId, fileId: resolveFileId(ctx, expectedVaultId, raw) };
}

/** What a person does about each kind of problem `check` finds (svc-library(1), WHEN IMPORTS ARE BLOCKED). */
const FIX: Record<string, string> = {
  lock_present: 'make sure no svc import is running, then delete .svc-import.lock in the vault folder.',
  temp_leftover: 'move the named files out of the vault folder (and remove their empty folders), then import them again.',
  orphan: 'move the named files out of the vault folder (and remove their empty folders), then import them again.',
  missing: 'restore the named files from a backup; svc never rewrites a retained file.',
  size_mismatch: 'restore the named files from a backup; svc never rewrites a retained file.',
  hash_mismatch: 'restore the named files from a backup; svc never rewrites a retained file.',
  unsafe: 'replace each named link, hard-linked or special file with the plain file.',
};

const ID = { min: 1, max: Number.MAX_SAFE_INTEGER };

function vaultId(ctx: Context): string {
  const vault = libraryStatus(ctx).vault;
  if (!vault) throw vaultNotConfigured();
  return vault.vault_id;
}

function statusText(s: LibraryStatus, folder: VaultFolder | null, waiting: string | null): string {
  if (!s.vault) return waiting ? `No vault yet. ${waiting}` : 'No vault yet: run `svc library init <folder>`.';
  return [
    `vault ${s.vault.vault_id} (${s.vault.label})`,
    `folder ${folder!.path}: ${folder!.reachable ? 'reachable' : folder!.reason === 'vault_marker_invalid' ? 'not this vault' : folder!.reason === 'vault_unavailable' ? 'missing or not reachable' : 'there, but refused (below)'}`,
    `${count(s.counts.files, 'file')}, ${count(s.counts.retained_bytes, 'byte')}, ${count(s.counts.paper_links, 'paper link')} (as the catalog records them)`,
  ].join('\n');
}

export function register(program: Command, io: Io): void {
  const library = program.command('library').description('the owned-file Library: read-only copies of PDF, TXT and MD files in one vault');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander passes positional arguments untyped
  const action = (fn: (ctx: Context, ...args: any[]) => unknown) => async (...args: unknown[]): Promise<void> => {
    await withLibraryContext(io, 'library', (ctx) => fn(ctx, ...args));
  };
  /** The commands that read only the catalog still answer when the folder is gone, and say so with the ways back. */
  const noteFolderGone = (ctx: Context) => {
    const folder = vaultFolder(ctx);
    if (folder && !folder.reachable) io.err(`svc: note: ${folderGoneWords(folder)}`);
  };

  library.command('status').description('the vault, where its folder is and whether it is reachable, and its counts').action(action((ctx) => {
    const s = libraryStatus(ctx);
    const folder = vaultFolder(ctx);
    const waiting = restoreWaiting(ctx);
    // The absolute path is this person's own information on their own terminal (GET /api/library never names it).
    // The folder's message is this terminal's: the ways back as commands, not as HTTP routes.
    const said = folder && { ...folder, message: folder.reachable ? null : folderGoneWords(folder) };
    emit(io, { ...s, folder: said, restore_waiting: waiting !== null }, () => statusText(s, folder, waiting));
    if (s.vault && waiting) io.err(waiting);
    if (folder && !folder.reachable) {
      io.err(`svc: ${folderGoneWords(folder)}`);
      io.exitCode = EXIT.failed;
    }
  }));

  library.command('init').description('create the vault as a new folder svc-library-<uuid> inside <folder> (made first when missing)')
    .argument('<folder>', 'where the vault folder goes, e.g. ~/Papers').action(action(async (ctx, parent: string) => {
      // Quoted, ~ reaches svc as is and would become a folder named ~ here.
      if (/^~(\/|$)/.test(parent)) throw usageError(`${given(parent)} starts with ~, which the shell expands only outside quotes: write ~/"My Papers" or the whole path.`);
      const folder = path.resolve(parent);
      // Refused before making the folder: a second init leaves nothing behind.
      const configured = libraryStatus(ctx).vault;
      if (configured) throw vaultExists(configured.vault_id);
      const waiting = restoreWaiting(ctx);
      if (waiting) throw conflict('restore_waiting', `${waiting} A vault made now would be replaced by the restored database at that start: apply or cancel the restore first.`);
      if (!path.isAbsolute(parent)) io.err(`The vault goes inside ${folder} (${given(parent)} is taken from the current folder).`);
      if (!fs.existsSync(folder)) {
        fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
        io.err(`Created ${folder}`);
      }
      const s = await createVault(ctx, folder);
      emit(io, { ...s, folder: vaultFolder(ctx) }, () => `Created the Library vault ${vaultFolder(ctx)!.path}`);
    }));

  library.command('import').description(`copy up to 20 files (.pdf, .txt, .md, each at most 64 MiB) into the vault`)
    .argument('<files...>', 'files to import').option('--document <id>', 'also link each file to this paper id')
    .action(action((ctx, files: string[], opts: { document?: string }) => runImport(ctx, io, files, intFlag(opts.document, '--document', ID))));

  library.command('list').description('files, newest first (a page at a time)')
    .option('--q <text>', 'literal name substring, ASCII case-insensitive').option('--limit <n>', `page size, 1 to ${DEFAULT_LIMITS.listMax} (default ${DEFAULT_LIMITS.listDefault})`)
    .option('--through <id>', 'the ceiling of the first page').option('--before <id>', 'the next page: ids below this')
    .action(action((ctx, opts: { q?: string; limit: string; through?: string; before?: string }) => {
      const flags = { q: opts.q, limit: intFlag(opts.limit, '--limit', { min: 1, max: DEFAULT_LIMITS.listMax }), throughId: intFlag(opts.through, '--through', { min: 0, max: Number.MAX_SAFE_INTEGER }), beforeId: intFlag(opts.before, '--before', ID) };
      const page = listFiles(ctx, { expectedVaultId: vaultId(ctx), ...flags });
      noteFolderGone(ctx);
      const none = opts.q !== undefined ? `No file name contains "${opts.q}".` : 'No files yet; import some with `svc library import FILE...`.';
      emit(io, page, () => (page.items.length === 0 && !flags.beforeId ? none : table([['ID', 'FILE_ID', 'NAME', 'SIZE', 'IMPORTED'], ...page.items.map((f) => [String(f.id), f.file_id, f.original_name, String(f.byte_size), f.imported_at_utc])])));
      if (page.has_more && !io.json) io.err(nextPageHint('svc library list', [['--q', opts.q], ['--limit', flags.limit], ['--through', page.through_id], ['--before', page.next_before_id ?? undefined]]));
    }));

  library.command('show').description('one file with its paper links').argument('<file>', 'its ID or FILE_ID from `svc library list`').action(action((ctx, file: string) => {
    const m = fileMetadata(ctx, fileArg(ctx, file));
    noteFolderGone(ctx);
    const rows = Object.entries(m.file).map(([k, v]) => [k, String(v)]);
    emit(io, m, () => table([...rows, ['paper_links', m.paper_links.map((l) => `${l.document_id} (${l.basis})`).join(', ') || '-']]));
  }));

  library.command('link').description('link a file to an existing paper id').argument('<file>', 'its ID or FILE_ID from `svc library list`').argument('<paper>', 'a paper (document) id')
    .action(action((ctx, file: string, documentId: string) => {
      const paper = idArg(documentId, 'paper');
      const r = linkPaper(ctx, { ...fileArg(ctx, file), documentId: paper });
      noteFolderGone(ctx);
      emit(io, r, () => `${r.created ? 'linked' : 'already linked'}: ${r.file_id} → paper ${r.link.document_id}`);
    }));

  library.command('text').description('print a TXT or MD file (verified, newlines normalized to LF)').argument('<file>', 'its ID or FILE_ID from `svc library list`')
    .action(action(async (ctx, ref: string) => {
      const { expectedVaultId, fileId } = fileArg(ctx, ref);
      const { file } = fileMetadata(ctx, { expectedVaultId, fileId });
      const envelope = await readText(ctx, { expectedVaultId, fileId, expectedVersionId: file.version_id });
      emit(io, envelope, () => envelope.text);
    }));

  library.command('export').description('the inventory (JSON): files, digests, relative paths and paper ids').option('-o, --output <file>', 'write it to this file (mode 0600)')
    .option('--force', 'replace an existing output file')
    .action(action((ctx, opts: { output?: string; force?: boolean }) => {
      const envelope = exportInventory(ctx, { expectedVaultId: vaultId(ctx) });
      noteFolderGone(ctx);
      if (!opts.output) return emit(io, envelope, () => envelope.text);
      const output = writeOutputFile(opts.output, envelope.text, replaceableWithForce(opts.force));
      const r = { output, bytes: Buffer.byteLength(envelope.text), file_count: (JSON.parse(envelope.text) as { file_count: number }).file_count, sha256: sha256Hex(envelope.text) };
      emit(io, r, () => `Wrote ${opts.output} (${count(r.file_count, 'file')}, ${count(r.bytes, 'byte')}, sha256 ${r.sha256})`);
    }));

  library.command('check').description('verify every retained file (size and SHA-256) and list what is wrong; changes nothing')
    .action(action((ctx) => {
      const report = checkLibrary(ctx);
      emit(io, report, () => [`${count(report.files_checked, 'file')} checked${report.ok ? ': all as recorded' : ''}`, ...report.problems.map((p) => `${p.kind}: ${p.message}`)].join('\n'));
      if (report.ok) return;
      io.err(`svc: ${count(report.problems.length, 'problem')} found in the vault; nothing was changed.`);
      for (const fix of new Set(report.problems.map((p) => FIX[p.kind]))) io.err(`To fix: ${fix}`);
      io.exitCode = EXIT.conflict;
    }));
}
