import type { Command } from 'commander';
import { SvcError } from '../../src/errors.js';
import { findCredentialName } from '../../src/credentials/names.js';
import { checkCredentialValue } from '../../src/credentials/store.js';
import { refusalOf } from '../lib/prompt-check.js';
import { usageError } from '../lib/flags.js';
import { confirmDestructive, declined, promptCancelled } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { emit, table, type Io } from '../lib/io.js';
import { count } from '../lib/words.js';

/**
 * A credential name is one of a closed list: anything else is a usage error (exit 2) for set, delete and
 * validate alike, with the reason the HTTP routes answer (credential_unknown).
 */
function nameArg(name: string): string {
  if (!findCredentialName(name)) throw usageError(`No credential is called "${name.slice(0, 64)}"; \`svc credentials list\` shows the names.`, 'credential_unknown');
  return name;
}

/**
 * The secret comes from stdin or a hidden prompt, never from argv (argv is visible to other
 * processes). At the prompt an empty or too long value is refused as typed, and asked again.
 */
async function readSecret(io: Io, name: string): Promise<string> {
  if (io.stdinIsTTY) {
    const { password, isCancel } = await import('@clack/prompts');
    const answer = await password({ message: `Value for ${name} (Ctrl-C stores nothing)`, mask: '•', clearOnError: true, validate: (value) => refusalOf(() => checkCredentialValue(name, value ?? '')) });
    if (isCancel(answer)) throw promptCancelled('Nothing stored.');
    return String(answer);
  }
  const value = (await io.readStdin()).replace(/\r?\n$/, '');
  try {
    checkCredentialValue(name, value);
  } catch (err) {
    throw err instanceof SvcError && err.reason === 'empty_value' ? new SvcError(400, err.reason, `${err.message.replace(/\.$/, '')}; pipe it on stdin, or type it at the prompt on a terminal.`) : err;
  }
  return value;
}

export function register(program: Command, io: Io): void {
  const credentials = program.command('credentials').description('store API keys and passwords; values are never printed');
  credentials
    .command('list')
    .description('every credential name with its status: present, absent or unreadable')
    .action(() =>
      withContext(io, (ctx) => {
        const rows = ctx.credentials.statuses();
        emit(io, { credentials: rows }, () => table([['NAME', 'STATUS', 'FOR'], ...rows.map((r) => [r.name, r.status, r.label])]));
      }),
    );
  credentials
    .command('set')
    .description('store a value read from stdin, or from a hidden prompt on a terminal')
    .argument('<name>', 'credential name (see `svc credentials list`)')
    .action((name: string) =>
      withContext(io, async (ctx) => {
        nameArg(name); // unknown names fail before asking for a secret
        ctx.credentials.set(name, await readSecret(io, name));
        emit(io, { name, status: ctx.credentials.status(name) }, () => `${name}: stored`);
      }),
    );
  credentials
    .command('delete')
    .description('remove a stored value')
    .argument('<name>', 'credential name')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((name: string, opts: { yes?: boolean }) =>
      withContext(io, async (ctx) => {
        nameArg(name);
        // Nothing stored: nothing to confirm, and "deleted" would be untrue.
        if (ctx.credentials.status(name) === 'absent') return emit(io, { name, status: 'absent', deleted: false }, () => `${name} is not stored; nothing deleted.`);
        if (!(await confirmDestructive(io, `Delete the stored ${name}?`, opts.yes))) return declined(io, { name });
        ctx.credentials.remove(name);
        emit(io, { name, status: ctx.credentials.status(name), deleted: true }, () => `${name}: deleted`);
      }),
    );
  credentials
    .command('validate')
    .description('check a stored AI key against its provider\'s models endpoint and print the models it reaches (spends no tokens)')
    .argument('<name>', 'credential name, e.g. openai_api_key')
    .option('--base-url <url>', 'send to this endpoint instead of the configured one')
    .action((name: string, opts: { baseUrl?: string }) =>
      withContext(io, async (ctx) => {
        nameArg(name);
        const { validateStoredCredential } = await import('../../src/assistant/ai-admin.js');
        const result = await validateStoredCredential(ctx, name, opts.baseUrl);
        const models = 'models' in result ? result.models : undefined;
        emit(io, result, () => [`${name}: ${result.status} (${result.message})`, ...(models ? [`${count(models.length, 'model')} the key reaches:`, ...models.map((m) => `  ${m}`)] : [])].join('\n'));
        if (!result.valid) io.exitCode = 1;
      }),
    );
}
