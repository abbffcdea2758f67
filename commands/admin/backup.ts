import type { Command } from 'commander';
import { createBackup, verifyBackup } from '../../src/admin/backup.js';
import { withContext } from '../lib/context.js';
import { backupText, progressLine, verifyText } from './format.js';
import { emit, type Io } from '../lib/io.js';
import { onInterrupt } from '../lib/bar.js';
import { promptCancelled } from '../lib/confirm.js';
import { checkOutputFile } from '../lib/output-file.js';

export function register(program: Command, io: Io): void {
  const backup = program
    .command('backup')
    .description('write one bundle: a snapshot of the database, the vault bytes and (unless --no-reports) the report files')
    .option('--no-reports', 'leave the report files out')
    .option('-o, --output <file>', 'where to write the bundle (default: <data dir>/backups/svc-backup-<time>.tar)')
    .action((opts: { reports: boolean; output?: string }) =>
      withContext(io, async (ctx) => {
        // Refused before the snapshot, as every command's -o file is (exit 2, output_exists or output_unwritable).
        if (opts.output) checkOutputFile(opts.output, { existsHint: 'choose another name (a bundle never replaces a file)' });
        const progress = progressLine(io, 'Backing up:');
        if (progress) io.err('');
        // Ctrl-C stops the writing and removes the partial bundle (killed outright, it stayed behind).
        const stop = new AbortController();
        const release = onInterrupt(io, 'Stopping the backup; the partial bundle is removed…', () => stop.abort(promptCancelled('The backup was interrupted; no bundle was written.')));
        try {
          const answer = await createBackup(ctx, { includeReports: opts.reports, output: opts.output, onProgress: progress, signal: stop.signal });
          emit(io, answer, () => backupText(answer));
        } finally {
          release();
        }
      }),
    );
  backup
    .command('verify')
    .description('recompute every hash of a bundle and say what a restore would and would not do')
    .argument('[file]', 'the bundle (default: the last backup written)')
    .action((file: string | undefined) =>
      withContext(io, async (ctx) => {
        const answer = await verifyBackup(ctx, file ?? '');
        emit(io, answer, () => verifyText(answer));
      }),
    );
}
