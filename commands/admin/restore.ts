import path from 'node:path';
import type { Command } from 'commander';
import { cancelRestore, prepareRestore, type PreparedRestore } from '../../src/admin/restore/stage.js';
import type { RestoreStaged } from '../../src/wire/admin.js';
import { acknowledgeRestore, restoreStatus } from '../../src/admin/restore/status.js';
import { UNDO_DELETE_CONFIRM, deleteUndoCopies } from '../../src/admin/restore/undo.js';
import { stagedText, verifyText } from './format.js';
import { confirmDestructive, notConfirmed } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { usageError } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';
import { count } from '../lib/words.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Killed while its person is at the question (SIGTERM, a closed terminal): what was extracted for
 * the checks — a whole copy of the vault beside the user's folders among it — is removed, then the
 * signal ends the process as it would have. Answers the function that stops listening.
 */
function discardOnSignal(prepared: PreparedRestore): () => void {
  const off = () => {
    for (const signal of SIGNALS) process.off(signal, on);
  };
  const on = (signal: NodeJS.Signals) => {
    off();
    try {
      prepared.discard();
    } finally {
      if (process.stdin.isTTY) process.stdin.setRawMode(false); // the prompt had the terminal in raw mode
      process.kill(process.pid, signal);
    }
  };
  for (const signal of SIGNALS) process.on(signal, on);
  return off;
}

export function register(program: Command, io: Io): void {
  const restore = program
    .command('restore')
    .description('verify a bundle and stage it; the restore happens at the next start of the server or daemon')
    .argument('[file]', 'the bundle to restore')
    .option('--vault-parent <dir>', 'existing folder to put the Library vault in (needed when the bundle has one)')
    .option('--accept-fk-violations', 'restore a database whose foreign keys do not all hold')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((file: string | undefined, opts: { vaultParent?: string; acceptFkViolations?: boolean; yes?: boolean }) =>
      withContext(io, async (ctx) => {
        if (!file) throw usageError('Name the bundle: svc restore FILE --vault-parent DIR (or: svc restore status|cancel).', 'missing_argument');
        // Every check a restore makes (bundle, flags, hashes, database) runs before the question, so a
        // "yes" is never followed by a refusal; the answer to it only decides whether the plan is written.
        const prepared = await prepareRestore(ctx, {
          path: path.resolve(file),
          vault_parent: opts.vaultParent ? path.resolve(opts.vaultParent) : '',
          accept_fk_violations: Boolean(opts.acceptFkViolations),
        });
        let staged: RestoreStaged;
        const asks = !opts.yes && io.stdinIsTTY && io.stdoutIsTTY;
        const offSignals = discardOnSignal(prepared);
        try {
          if (asks) io.err(verifyText(prepared.verify));
          const question = `Stage the restore of ${path.basename(file)}? At the next start of \`svc serve\` or the daemon it replaces the database (the current one is kept as an undo copy).`;
          if (!(await confirmDestructive(io, question, opts.yes))) {
            prepared.discard();
            return notConfirmed(io, { staged: false }, 'Nothing staged.');
          }
          staged = prepared.commit();
        } catch (err) {
          prepared.discard();
          throw err;
        } finally {
          offSignals();
        }
        emit(io, staged, () => stagedText(staged, !asks));
      }),
    );
  restore.command('status').description('the staged restore, the last restore and the undo copies').action(() =>
    withContext(io, async (ctx) => {
      const s = restoreStatus(ctx);
      const { restoreStatusText } = await import('./format.js');
      emit(io, s, () => restoreStatusText(s));
    }),
  );
  restore.command('cancel').description('forget the staged restore (nothing had moved)').action(() =>
    withContext(io, (ctx) => {
      const r = cancelRestore(ctx);
      emit(io, r, () => `Staged restore of ${r.bundle_path} forgotten; nothing had moved.`);
    }),
  );
  restore.command('acknowledge').description('dismiss the one-time note about what was not restored').action(() =>
    withContext(io, (ctx) => {
      const r = acknowledgeRestore(ctx);
      emit(io, r, () => (r.acknowledged ? 'Dismissed.' : 'Nothing to dismiss.'));
    }),
  );
  restore
    .command('delete-undo')
    .description('delete the databases and vault folders a restore set aside (irreversible)')
    .option('-y, --yes', 'do not ask for confirmation')
    // `restore` has its own --yes and commander gives a parent's option to the parent wherever it stands,
    // so `restore delete-undo --yes` sets restore's: read both.
    .action((_opts: { yes?: boolean }, cmd: Command) =>
      withContext(io, async (ctx) => {
        const yes = Boolean(cmd.optsWithGlobals().yes);
        if (!(await confirmDestructive(io, 'Delete every undo copy? This cannot be undone.', yes))) return notConfirmed(io, { deleted: 0 }, 'Nothing deleted.');
        const r = deleteUndoCopies(ctx, UNDO_DELETE_CONFIRM);
        emit(io, r, () => (r.deleted ? `Deleted ${count(r.deleted, 'undo copy', 'undo copies')}.` : 'No undo copies to delete.'));
      }),
    );
}
