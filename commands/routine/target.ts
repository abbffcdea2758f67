import type { Command } from 'commander';
import { DELIVERY_CHANNELS } from '../../src/delivery/summary.js';
import { TARGET_MODES } from '../../src/delivery/repo.js';
import { createTarget, deleteTarget, listTargets, requireTarget, revealWebhookSecret, updateTarget, type TargetView } from '../../src/delivery/targets.js';
import { confirmDestructive, notConfirmed } from '../lib/confirm.js';
import { emailNotReady } from '../../src/delivery/email-ready.js';
import { withContext } from '../lib/context.js';
import { enumFlag, given, idArg, usageError } from '../lib/flags.js';
import { ValidationError } from '../../src/errors.js';
import { emit, table, type Io } from '../lib/io.js';
import { count } from '../lib/words.js';

interface TargetFlags {
  channel?: string;
  target?: string;
  mode?: string;
  enable?: boolean;
  disable?: boolean;
}

/** `--target -` reads the destination from standard input (a webhook URL with a token in it stays out of argv). */
async function targetValue(io: Io, raw: string | undefined): Promise<string | undefined> {
  return raw === '-' ? (await io.readStdin()).trim() : raw;
}

/**
 * The service's refusal of a folder or feed destination keeps the spec's placeholder (<target>) and
 * input null; on the command line it names the path that was typed, as the flag it came from. An
 * email <address> and a webhook <url> stay placeholders, as they always have: a URL may carry a
 * token (the reason `--target -` exists).
 */
function inTargetWords(err: unknown, typed: string | undefined): unknown {
  if (!(err instanceof ValidationError) || typed === undefined) return err;
  return new ValidationError(
    err.issues.map((i) => (i.loc[i.loc.length - 1] === 'target' ? { ...i, loc: ['--target'], msg: i.msg.replace(/<target>/g, given(typed.trim())) } : i)),
  );
}

const describe = (t: TargetView) => `${t.id}  ${t.channel}  ${t.mode}  ${t.enabled ? 'enabled' : 'disabled'}  ${t.target || '(email settings recipient)'}`;

function enabledFrom(flags: TargetFlags): boolean | undefined {
  if (flags.enable && flags.disable) throw usageError('Give --enable or --disable, not both.');
  return flags.enable ? true : flags.disable ? false : undefined;
}

/** `svc routine target …`: the delivery destinations of a routine. */
export function addCommand(routine: Command, io: Io): void {
  const target = routine.command('target').description('delivery destinations of a routine: add, list, edit, remove, secret');
  target
    .command('add')
    .argument('<routine>', 'routine id')
    .requiredOption('--channel <channel>', DELIVERY_CHANNELS.join(', '))
    .option('--target <destination>', 'email address, directory (folder, feed) or URL (webhook); - reads it from standard input; empty email means the email settings recipient')
    .option('--mode <mode>', 'automatic (default) or review (waits for `svc deliveries release`)')
    .option('--disable', 'add it disabled')
    .description('add a destination; the report of every completed run goes there')
    .action((routineRaw: string, flags: TargetFlags) => {
      const routineId = idArg(routineRaw, 'routine');
      const channel = enumFlag(flags.channel, '--channel', DELIVERY_CHANNELS)!;
      const mode = enumFlag(flags.mode, '--mode', TARGET_MODES);
      return withContext(io, async (ctx) => {
        const destination = await targetValue(io, flags.target);
        let created: TargetView;
        try {
          created = createTarget(ctx, routineId, { channel, ...(destination !== undefined ? { target: destination } : {}), ...(mode ? { mode } : {}), enabled: !flags.disable });
        } catch (err) {
          throw inTargetWords(err, destination);
        }
        emit(io, created, () => `Added destination ${describe(created)}${created.signed ? `\nWebhook requests are signed; \`svc routine target secret ${routineId} ${created.id}\` prints the secret for the receiver.` : ''}`);
        // Said now, not at the first run: the destination is kept either way.
        const notReady = created.channel === 'email' && created.enabled ? emailNotReady(ctx, created.target) : null;
        if (notReady) io.err(`Note: ${notReady}.`);
      });
    });
  target
    .command('list')
    .argument('<routine>', 'routine id')
    .description('the destinations of a routine')
    .action((routineRaw: string) => {
      const routineId = idArg(routineRaw, 'routine');
      return withContext(io, (ctx) => {
        const list = listTargets(ctx, routineId);
        emit(io, list, () =>
          list.targets.length
            ? table([['ID', 'CHANNEL', 'MODE', 'STATE', 'TARGET'], ...list.targets.map((t) => [String(t.id), t.channel, t.mode, t.enabled ? 'enabled' : 'disabled', t.target || '(email settings recipient)'])])
            : `Routine ${routineId} has no delivery destinations; add one with \`svc routine target add ${routineId} --channel …\`.`,
        );
      });
    });
  target
    .command('edit')
    .argument('<routine>', 'routine id')
    .argument('<target>', 'destination id')
    .option('--target <destination>', 'a new destination of the same channel (- reads it from standard input)')
    .option('--mode <mode>', 'automatic or review')
    .option('--enable', 'enable it')
    .option('--disable', 'disable it (no deliveries are created for it)')
    .description('change a destination; only the flags given change (the channel cannot)')
    .action((routineRaw: string, targetRaw: string, flags: TargetFlags) => {
      const routineId = idArg(routineRaw, 'routine');
      const targetId = idArg(targetRaw, 'destination');
      const mode = enumFlag(flags.mode, '--mode', TARGET_MODES);
      const enabled = enabledFrom(flags);
      return withContext(io, async (ctx) => {
        const destination = await targetValue(io, flags.target);
        let updated: TargetView;
        try {
          updated = updateTarget(ctx, routineId, targetId, { enabled, mode, target: destination });
        } catch (err) {
          throw inTargetWords(err, destination);
        }
        emit(io, updated, () => `Destination ${describe(updated)}`);
      });
    });
  target
    .command('remove')
    .argument('<routine>', 'routine id')
    .argument('<target>', 'destination id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('remove a destination (its past deliveries stay, without it; those still waiting are skipped)')
    .action((routineRaw: string, targetRaw: string, opts: { yes?: boolean }) => {
      const routineId = idArg(routineRaw, 'routine');
      const targetId = idArg(targetRaw, 'destination');
      return withContext(io, async (ctx) => {
        const row = requireTarget(ctx, routineId, targetId);
        if (!(await confirmDestructive(io, `Remove the ${row.channel} destination ${row.id} of routine ${routineId}?`, opts.yes))) return notConfirmed(io, { id: row.id, removed: false }, 'Nothing removed.');
        const removed = deleteTarget(ctx, routineId, targetId);
        emit(io, removed, () => `Destination ${targetId} removed.${removed.deliveries_skipped ? ` ${count(removed.deliveries_skipped, 'delivery', 'deliveries')} still waiting for it ${removed.deliveries_skipped === 1 ? 'was' : 'were'} skipped.` : ''}`);
      });
    });
  target
    .command('secret')
    .argument('<routine>', 'routine id')
    .argument('<target>', 'webhook destination id')
    .description('print the signing secret of a webhook destination, for configuring the receiver (never shown elsewhere)')
    .action((routineRaw: string, targetRaw: string) => {
      const routineId = idArg(routineRaw, 'routine');
      const targetId = idArg(targetRaw, 'destination');
      return withContext(io, (ctx) => {
        const secret = revealWebhookSecret(ctx, routineId, targetId);
        emit(io, { routine_id: routineId, target_id: targetId, secret }, () => secret);
      });
    });
}
