import type { Command } from 'commander';
import { SCOPES, eraseScope } from '../../src/admin/erase.js';
import { eraseText } from './format.js';
import { confirmByTyping, notConfirmed } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { ERASE_WORD_LIST, ERASE_WORDS, eraseWordOf, type EraseWord } from './erase-scopes.js';
import { given, usageError } from '../lib/flags.js';
import { EXIT } from '../lib/exit-codes.js';
import { emit, type Io } from '../lib/io.js';

/** `text` in lines of at most 80 columns, each after `indent`. */
function wrapped(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > 80) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, indent + line];
}

/** Every scope with what it erases and what it keeps, for `svc erase --help`. */
function scopesHelp(): string {
  const width = Math.max(...ERASE_WORD_LIST.map((w) => w.length)) + 2;
  const pad = ' '.repeat(width + 2);
  const lines = ERASE_WORD_LIST.flatMap((w) => {
    const def = SCOPES[ERASE_WORDS[w]];
    const [first, ...rest] = wrapped(`erases ${def.erases}; keeps ${def.keeps}.`, pad);
    return [`  ${w.padEnd(width)}${first!.trimStart()}`, ...rest];
  });
  return ['', 'Scopes:', ...lines, '', "No scope deletes the bytes in the Library's vault folder, the backup bundles or", 'the record of backups and restores.'].join('\n');
}

export function register(program: Command, io: Io): void {
  program
    .command('erase')
    .description('erase one scope of data; on a terminal you type the scope to confirm')
    .argument('<scope>', `one of ${ERASE_WORD_LIST.join(', ')} (below)`)
    .option('-y, --yes', 'do not ask for the typed confirmation')
    .addHelpText('after', scopesHelp())
    .action((raw: string, opts: { yes?: boolean }) =>
      withContext(io, async (ctx) => {
        const word = eraseWordOf(raw);
        if (!word) throw usageError(`The scope must be one of ${ERASE_WORD_LIST.join(', ')} (svc erase --help says what each erases and keeps), not ${given(raw)}.`);
        const def = SCOPES[ERASE_WORDS[word]];
        const question = `This erases ${def.erases}, and cannot be undone. Keeps: ${def.keeps}.`;
        const refusal = () => usageError(`svc erase ${word} is irreversible; add --yes to confirm when not on a terminal.`, 'confirmation_required');
        if (!(await confirmByTyping(io, question, word, opts.yes, refusal))) {
          io.exitCode = EXIT.failed;
          // A failure (exit 1): under --json the document has the error shape of svc(1).
          return notConfirmed(io, { error: 'not_confirmed', message: `${word} was not typed; nothing erased.` }, `svc: ${word} was not typed; nothing erased.`);
        }
        const scope = ERASE_WORDS[word];
        const r = eraseScope(ctx, scope, scope);
        emit(io, r, () => eraseText(word, r));
      }),
    );
}
