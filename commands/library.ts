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
import { checkLibrary, createVault, exportInventory, fileMetadata, libraryStatus, linkPaper, listFiles, readText } from '../src/library/index.js';
import { DEFAULT_LIMITS } from '../src/library/limits.js';
import { vaultNotConfigured } from '../src/library/reasons.js';
import { isUuid4 } from '../src/random.js';
import { withContext } from './lib/context.js';
import { idArg, intFlag } from './lib/flags.js';
import { EXIT } from './lib/exit-codes.js';
import { emit, table, type Io } from './lib/io.js';
import { runImport } from './library-import.js';

function uuidArg(value: string, what: string): string {
  if (!isUuid4(value)) throw new SvcError(422, 'invalid_uuid', `${what} must be a canonical lowercase UUID.`);
  return value;
}

const ID = { min: 1, max: Number.MAX_SAFE_INTEGER };

function vaultId(ctx: Context): string {
  const vault = libraryStatus(ctx).vault;
  if (!vault) throw vaultNotConfigured();
  return vault.vault_id;
}

const statusText = (s: ReturnType<typeof libraryStatus>) =>
  s.vault
    ? `vault ${s.vault.vault_id} (${s.vault.label})\n${s.counts.files} file(s), ${s.counts.retained_bytes} bytes, ${s.counts.paper_links} paper link(s)`
    : 'No vault yet: run `svc library init <parent folder>`.';

export function register(program: Command, io: Io): void {
  const library = program.command('library').description('the owned-file Library: read-only copies of PDF, TXT and MD files in one vault');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander passes positional arguments untyped
  const action = (fn: (ctx: Context, ...args: any[]) => unknown) => async (...args: unknown[]): Promise<void> => {
    await withContext(io, (ctx) => fn(ctx, ...args));
  };

  library.command('status').description('the vault and its counts').action(action((ctx) => {
    const s = libraryStatus(ctx);
    emit(io, s, () => statusText(s));
  }));

  library.command('init').description('create the vault as a new folder svc-library-<uuid> inside an existing folder')
    .argument('<parent>', 'an existing folder').action(action(async (ctx, parent: string) => {
      const s = await createVault(ctx, path.resolve(parent));
      emit(io, s, () => `Created ${s.vault!.label} in ${path.resolve(parent)}`);
    }));

  library.command('import').description(`copy up to 20 files (.pdf, .txt, .md, each at most 64 MiB) into the vault`)
    .argument('<files...>', 'files to import').option('--document <id>', 'also link each file to this paper id')
    .action(action((ctx, files: string[], opts: { document?: string }) => runImport(ctx, io, files, intFlag(opts.document, '--document', ID))));

  library.command('list').description('files, newest first (a page at a time)')
    .option('--q <text>', 'literal name substring, ASCII case-insensitive').option('--limit <n>', 'page size, 1 to 100')
    .option('--through <id>', 'the ceiling of the first page').option('--before <id>', 'the next page: ids below this')
    .action(action((ctx, opts: { q?: string; limit: string; through?: string; before?: string }) => {
      const page = listFiles(ctx, { expectedVaultId: vaultId(ctx), q: opts.q, limit: intFlag(opts.limit, '--limit', { min: 1, max: DEFAULT_LIMITS.listMax }), throughId: intFlag(opts.through, '--through', { min: 0, max: Number.MAX_SAFE_INTEGER }), beforeId: intFlag(opts.before, '--before', ID) });
      emit(io, page, () => table([['ID', 'FILE_ID', 'NAME', 'SIZE', 'IMPORTED'], ...page.items.map((f) => [String(f.id), f.file_id, f.original_name, String(f.byte_size), f.imported_at_utc])]));
      if (page.has_more && !io.json) io.err(`more: svc library list --through ${page.through_id} --before ${page.next_before_id}`);
    }));

  library.command('show').description('one file with its paper links').argument('<file_id>').action(action((ctx, fileId: string) => {
    const m = fileMetadata(ctx, { expectedVaultId: vaultId(ctx), fileId: uuidArg(fileId, 'file_id') });
    const rows = Object.entries(m.file).map(([k, v]) => [k, String(v)]);
    emit(io, m, () => table([...rows, ['paper_links', m.paper_links.map((l) => `${l.document_id} (${l.basis})`).join(', ') || '-']]));
  }));

  library.command('link').description('link a file to an existing paper id').argument('<file_id>').argument('<document_id>')
    .action(action((ctx, fileId: string, documentId: string) => {
      const r = linkPaper(ctx, { expectedVaultId: vaultId(ctx), fileId: uuidArg(fileId, 'file_id'), documentId: idArg(documentId, 'paper') });
      emit(io, r, () => `${r.created ? 'linked' : 'already linked'}: ${r.file_id} → paper ${r.link.document_id}`);
    }));

  library.command('text').description('print a TXT or MD file (verified, newlines normalized to LF)').argument('<file_id>')
    .action(action((ctx, fileId: string) => {
      const expectedVaultId = vaultId(ctx);
      const { file } = fileMetadata(ctx, { expectedVaultId, fileId: uuidArg(fileId, 'file_id') });
      const envelope = readText(ctx, { expectedVaultId, fileId, expectedVersionId: file.version_id });
      emit(io, envelope, () => envelope.text);
    }));

  library.command('export').description('the inventory (JSON): files, digests, relative paths and paper ids').option('-o, --output <file>', 'write it to this file')
    .action(action((ctx, opts: { output?: string }) => {
      const envelope = exportInventory(ctx, { expectedVaultId: vaultId(ctx) });
      if (!opts.output) return emit(io, envelope, () => envelope.text);
      fs.writeFileSync(opts.output, envelope.text);
      emit(io, { output: path.resolve(opts.output), bytes: Buffer.byteLength(envelope.text) }, () => `Wrote ${opts.output}`);
    }));

  library.command('check').description('verify every retained file (size and SHA-256) and list what is wrong; changes nothing')
    .action(action((ctx) => {
      const report = checkLibrary(ctx);
      emit(io, report, () => [`${report.files_checked} file(s) checked`, ...report.problems.map((p) => `${p.kind}: ${p.message}`)].join('\n'));
      if (report.ok) return;
      io.err(`svc: ${report.problems.length} problem(s) found in the vault; nothing was changed.`);
      io.exitCode = EXIT.conflict;
    }));
}
