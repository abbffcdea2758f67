/**
 * `svc library import <files…>`: one selection of at most 20 files, imported
 * one after another. Each file is reported as created, duplicate or refused
 * with its reason; a counter on stderr shows progress on a terminal.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../src/context.js';
import { SvcError } from '../../src/errors.js';
import { importFile, libraryOf, libraryStatus, requireDocument, vaultFolder } from '../../src/library/index.js';
import { vaultNotConfigured } from '../../src/library/reasons.js';
import { exitCodeFor } from '../lib/exit-codes.js';
import { vaultGone } from './state.js';
import { drawsOnTerminal, emit, table, type Io } from '../lib/io.js';

interface Outcome {
  source: string;
  name: string;
  outcome: 'created' | 'duplicate' | 'refused';
  file_id?: string;
  version_id?: string;
  original_name?: string;
  reason?: string;
  message?: string;
  status?: number;
}

function readOriginal(file: string, limit: number): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new SvcError(422, 'source_missing', 'The file does not exist or cannot be read; check the path.');
  }
  if (!stat.isFile()) throw new SvcError(422, 'source_not_file', 'Not a regular file (a folder?); name the files to import one by one.');
  if (stat.size > limit) throw new SvcError(413, 'file_too_large', `A Library file may have at most ${limit} bytes; split it or import a smaller version.`);
  return fs.readFileSync(file);
}

async function importOne(ctx: Context, vaultId: string, file: string, documentId: number | undefined): Promise<Outcome> {
  const name = path.basename(file);
  try {
    const bytes = readOriginal(file, libraryOf(ctx).limits.fileBytes);
    const receipt = await importFile(ctx, { expectedVaultId: vaultId, filename: name, bytes, documentId });
    const { file_id, version_id, original_name } = receipt.file;
    return { source: file, name, outcome: receipt.outcome, file_id, version_id, original_name };
  } catch (err) {
    if (!(err instanceof SvcError)) throw err;
    return { source: file, name, outcome: 'refused', reason: err.reason, message: err.message, status: err.status };
  }
}

function describe(r: Outcome): string[] {
  if (r.outcome === 'refused') return ['refused', r.name, `${r.reason}: ${r.message}`];
  const note = r.outcome === 'duplicate' && r.original_name !== r.name ? ` (same bytes as ${r.original_name})` : '';
  return [r.outcome, r.name, `${r.file_id}${note}`];
}

export async function runImport(ctx: Context, io: Io, files: string[], documentId: number | undefined): Promise<void> {
  const lib = libraryOf(ctx);
  if (files.length > lib.limits.selectionFiles) {
    throw new SvcError(422, 'selection_too_large', `One import takes at most ${lib.limits.selectionFiles} files; split the selection.`);
  }
  const vault = libraryStatus(ctx).vault;
  if (!vault) throw vaultNotConfigured();
  // A folder that is gone would refuse every file alike: refuse the selection once, with the ways back.
  const folder = vaultFolder(ctx);
  if (folder && !folder.reachable) throw vaultGone(folder);
  // A paper that does not exist would refuse every file alike: refuse the selection once, before any import.
  if (documentId !== undefined) requireDocument(ctx, documentId);
  const progress = drawsOnTerminal(io) && files.length > 1;
  const results: Outcome[] = [];
  for (const [i, file] of files.entries()) {
    if (progress) io.err(`[${i + 1}/${files.length}] ${path.basename(file)}`);
    results.push(await importOne(ctx, vault.vault_id, file, documentId));
  }
  const count = (o: Outcome['outcome']) => results.filter((r) => r.outcome === o).length;
  const counts = { created: count('created'), duplicate: count('duplicate'), refused: count('refused') };
  emit(io, { vault_id: vault.vault_id, counts, results }, () => table(results.map(describe)));
  if (!io.json) io.err(`${counts.created} imported, ${counts.duplicate} duplicate, ${counts.refused} refused`);
  const first = results.find((r) => r.outcome === 'refused');
  if (first) {
    // The report above is the one document on stdout; the exit status follows the first refusal.
    io.err(`svc: ${counts.refused} of ${files.length} file(s) refused; the first: ${first.reason}.`);
    io.exitCode = exitCodeFor(new SvcError(first.status ?? 422, first.reason ?? 'refused', first.message ?? ''));
  }
}
