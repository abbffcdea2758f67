import type { Command } from 'commander';
import { ERASE_SCOPES, SCOPES, eraseScope, isEraseScope } from '../src/admin/erase.js';
import { eraseText } from './lib/admin-format.js';
import { confirmByTyping, notConfirmed } from './lib/confirm.js';
import { withContext } from './lib/context.js';
import { given, usageError } from './lib/flags.js';
import { EXIT } from './lib/exit-codes.js';
import { emit, type Io } from './lib/io.js';

export function register(program: Command, io: Io): void {
  program
    .command('erase')
    .description(`erase one scope of data: ${ERASE_SCOPES.join(', ')} (see svc-admin(1) for what each keeps)`)
    .argument('<scope>', 'what to erase')
    .option('-y, --yes', 'do not ask for the typed confirmation')
    .action((scope: string, opts: { yes?: boolean }) =>
      withContext(io, async (ctx) => {
        if (!isEraseScope(scope)) {
          // `svc erase corpus` is the natural guess: name the scope it probably meant.
          const meant = isEraseScope(`erase-${scope}`) ? ` (did you mean erase-${scope}?)` : '';
          throw usageError(`SCOPE must be one of ${ERASE_SCOPES.join(', ')}, not ${given(scope)}${meant}.`);
        }
        const question = `This cannot be undone. Keeps: ${SCOPES[scope].keeps}.`;
        const refusal = () => usageError(`svc erase ${scope} is irreversible; add --yes to confirm when not on a terminal.`, 'confirmation_required');
        if (!(await confirmByTyping(io, question, scope, opts.yes, refusal))) {
          io.exitCode = EXIT.failed;
          // A failure (exit 1): under --json the document has the error shape of svc(1).
          return notConfirmed(io, { error: 'not_confirmed', message: `The typed name did not match ${scope}; nothing erased.` }, `svc: The typed name did not match ${scope}; nothing erased.`);
        }
        const r = eraseScope(ctx, scope, scope);
        emit(io, r, () => eraseText(r));
      }),
    );
}
