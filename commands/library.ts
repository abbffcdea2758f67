/**
 * `svc library …`: the owned-file Library from the command line. It calls the
 * service layer directly (no server needed) and shares the vault's import lock
 * with a running server.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../src/context.js';
import { SvcError } from '../src/errors.js';
import { checkLibrary, createVault, exportInventory, fileMetadata, libraryStatus, linkPaper, listFiles, readText, resolveFileId } from '../src/library/index.js';
import { DEFAULT_LIMITS } from '../src/library/limits.js';
import { vaultExists, vaultNotConfigured } from '../src/library/reasons.js';
import { isUuid4 } from '../src/random.js';
import { inCliWords } from './lib/cli-words.js';
import { withContext } from './lib/context.js';
import { idArg, intFlag, given, usageError } from './lib/flags.js';
import { EXIT } from './lib/exit-codes.js';
import { emit, table, type Io } from './lib/io.js';
import { nextPageHint } from './lib/hints.js';
import { runImport } from './library-import.js';
import { replaceableWithForce, writeOutputFile } from './lib/output-file.js';
import { sha256Hex } from '../src/answers/canonical-json.js';
import { count } from './lib/words.js';

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

/** The same refusals the HTTP door gives, worded for the command line (arguments and commands, not body fields). */
function libraryWords(err: unknown): unknown {
  // A version_id given for a file already names the file it belongs to: keep that message.
  if (err instanceof SvcError && err.extra.version_id !== undefined) return err;
  return inCliWords('library', err);
}

const ID = { min: 1, max: Number.MAX_SAFE_INTEGER };

function vaultId(ctx: Context): string {
  const vault = libraryStatus(ctx).vault;
  if (!vault) throw vaultNotConfigured();
  return vault.vault_id;
}

const statusText = (s: ReturnType<typeof libraryStatus>) =>
  s.vault
    ? `vault ${s.vault.vault_id} (${s.vault.label})\n${count(s.counts.files, 'file')}, ${count(s.counts.retained_bytes, 'byte')}, ${count(s.counts.paper_links, 'paper link')}`
    : 'No vault yet: run `svc library init <folder>`.';

export function register(program: Command, io: Io): void {
  const library = program.command('library').description('the owned-file Library: read-only copies of PDF, TXT and MD files in one vault');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander passes positional arguments untyped
  const action = (fn: (ctx: Context, ...args: any[]) => unknown) => async (...args: unknown[]): Promise<void> => {
    try {
      await withContext(io, (ctx) => fn(ctx, ...args));
    } catch (err) {
      throw libraryWords(err);
    }
  };

  library.command('status').description('the vault and its counts').action(action((ctx) => {
    const s = libraryStatus(ctx);
    emit(io, s, () => statusText(s));
  }));

  library.command('init').description('create the vault as a new folder svc-library-<uuid> inside <folder> (made first when missing)')
    .argument('<folder>', 'where the vault folder goes, e.g. ~/Papers').action(action(async (ctx, parent: string) => {
      const folder = path.resolve(parent);
      // Refused before making the folder: a second init leaves nothing behind.
      const configured = libraryStatus(ctx).vault;
      if (configured) throw vaultExists(configured.vault_id);
      if (!fs.existsSync(folder)) {
        fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
        io.err(`Created ${folder}`);
      }
      const s = await createVault(ctx, folder);
      emit(io, s, () => `Created ${s.vault!.label} in ${folder}`);
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
      const none = opts.q !== undefined ? `No file name contains "${opts.q}".` : 'No files yet; import some with `svc library import FILE...`.';
      emit(io, page, () => (page.items.length === 0 && !flags.beforeId ? none : table([['ID', 'FILE_ID', 'NAME', 'SIZE', 'IMPORTED'], ...page.items.map((f) => [String(f.id), f.file_id, f.original_name, String(f.byte_size), f.imported_at_utc])])));
      if (page.has_more && !io.json) io.err(nextPageHint('svc library list', [['--q', opts.q], ['--limit', flags.limit], ['--through', page.through_id], ['--before', page.next_before_id ?? undefined]]));
    }));

  library.command('show').description('one file with its paper links').argument('<file>', 'its ID or FILE_ID from `svc library list`').action(action((ctx, file: string) => {
    const m = fileMetadata(ctx, fileArg(ctx, file));
    const rows = Object.entries(m.file).map(([k, v]) => [k, String(v)]);
    emit(io, m, () => table([...rows, ['paper_links', m.paper_links.map((l) => `${l.document_id} (${l.basis})`).join(', ') || '-']]));
  }));

  library.command('link').description('link a file to an existing paper id').argument('<file>', 'its ID or FILE_ID from `svc library list`').argument('<paper>', 'a paper (document) id')
    .action(action((ctx, file: string, documentId: string) => {
      const paper = idArg(documentId, 'paper');
      const r = linkPaper(ctx, { ...fileArg(ctx, file), documentId: paper });
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
