import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { DELIVERY_STATES, getTarget } from '../../src/delivery/repo.js';
import { deliveryDetail, deliveryView, executionDeliveries, recentDeliveryViews, releaseDelivery, requireDelivery, retryDelivery, ROUTINE_DELIVERIES_LIMIT, routineDeliveries, skipDelivery, type DeliveryView } from '../../src/delivery/service.js';
import { attemptNow } from '../../src/delivery/worker.js';
import { confirmDestructive, notConfirmed } from '../lib/confirm.js';
import { utcMinute } from '../lib/dates.js';
import { count, oneLine } from '../lib/words.js';
import { destinationGone, errorClause } from './format.js';
import { addEmailTest } from './email-test.js';
import { withContext } from '../lib/context.js';
import { EXIT } from '../lib/exit-codes.js';
import { enumFlag, idArg, intFlag, usageError } from '../lib/flags.js';
import { emit, table, type Io } from '../lib/io.js';

const rows = (list: DeliveryView[]) =>
  list.length
    ? table([
        ['ID', 'STATE', 'CHANNEL', 'ROUTINE', 'RUN', 'DESTINATION', 'ATTEMPTS', 'NEXT ATTEMPT (UTC)', 'LAST ERROR'],
        ...list.map((d) => [
          String(d.id),
          d.state,
          d.channel,
          String(d.routine_id ?? '-'),
          String(d.execution_id),
          d.target_id !== null ? String(d.target_id) : d.origin === 'routine_email' ? 'routine email' : '-',
          `${d.attempts}/${d.max_attempts}`,
          // When a retry comes (made by a running server or daemon); '-' when none is due.
          utcMinute(d.next_attempt_at_utc),
          d.last_error ?? '',
        ]),
      ])
    : 'No deliveries.';

/** One delivery in one sentence: its state, its last error, and what comes next (the retry a server makes, or the command that tries again). */
const line = (d: DeliveryView) => {
  const tries = d.attempts ? ` after ${count(d.attempts, 'attempt')}` : '';
  const error = d.last_error ? `: ${errorClause(d.last_error)}` : '';
  const next = d.next_attempt_at_utc && d.state === 'queued' ? `; next attempt ${utcMinute(d.next_attempt_at_utc)} UTC` : '';
  const gone = destinationGone(d) && (d.state === 'awaiting_review' || d.state === 'queued' || d.state === 'failed');
  const retry = gone ? `${d.last_error ? '' : ' Its destination was removed:'} \`svc deliveries skip ${d.id} --yes\` clears it.` : d.state === 'failed' ? ` \`svc deliveries retry ${d.id}\` tries again.` : '';
  return oneLine(`Delivery ${d.id} (${d.channel}) is ${d.state}${tries}${error}${next}.${retry}`);
};

/** Move a delivery to queued, attempt it now in this process, and answer exit 1 unless it arrived. */
async function moveAndSend(ctx: Context, io: Io, id: number, move: (ctx: Context, id: number) => DeliveryView): Promise<void> {
  move(ctx, id);
  const after = await attemptNow(ctx, id);
  const view = deliveryView(ctx, after ?? requireDelivery(ctx, id));
  emit(io, view, () => (after ? line(view) : `${line(view)} A running svc server is delivering it.`));
  if (after && view.state !== 'delivered') io.exitCode = EXIT.failed;
}

/**
 * The destination by id and where it points (its folder, address or URL, as `svc routine target list`
 * shows its owner on their own terminal); the stored errors never quote it.
 */
function destinationNamed(ctx: Context, d: DeliveryView): string {
  if (d.target_id === null) return d.origin === 'routine_email' ? '(routine email)' : '(removed)';
  const target = getTarget(ctx.db, d.target_id);
  return target ? `${d.target_id} (${target.channel} ${target.target || 'to the email settings recipient'})` : String(d.target_id);
}

/** `svc deliveries` (also `svc deliver`): list, show, release, retry, skip, email-test. */
export function buildDeliveries(cmd: Command, io: Io): void {
  cmd
    .command('list')
    .description('deliveries, newest first: all, or of one routine or run')
    .option('--routine <id>', 'deliveries of this routine')
    .option('--exec <id>', 'deliveries of this run')
    .option('--state <state>', DELIVERY_STATES.join(', '))
    .option('--limit <n>', `rows, ${ROUTINE_DELIVERIES_LIMIT.min} to ${ROUTINE_DELIVERIES_LIMIT.max} (default ${ROUTINE_DELIVERIES_LIMIT.default})`)
    .action((opts: { routine?: string; exec?: string; state?: string; limit?: string }) => {
      if (opts.routine && opts.exec) throw usageError('Give --routine or --exec, not both.');
      const routineId = opts.routine === undefined ? undefined : idArg(opts.routine, 'routine');
      const execId = opts.exec === undefined ? undefined : idArg(opts.exec, 'execution');
      const state = enumFlag(opts.state, '--state', DELIVERY_STATES);
      const limit = intFlag(opts.limit, '--limit', ROUTINE_DELIVERIES_LIMIT, ROUTINE_DELIVERIES_LIMIT.default);
      return withContext(io, (ctx) => {
        const answer =
          routineId !== undefined
            ? routineDeliveries(ctx, routineId, { state, limit, offset: 0 })
            : execId !== undefined
              ? executionDeliveries(ctx, execId)
              : recentDeliveryViews(ctx, { state }, limit);
        const list = state && execId !== undefined ? answer.deliveries.filter((d) => d.state === state) : answer.deliveries;
        emit(io, { ...answer, deliveries: list }, () => rows(list));
      });
    });
  cmd
    .command('show')
    .argument('<id>', 'delivery id')
    .description('one delivery with every attempt')
    .action((raw: string) => {
      const id = idArg(raw, 'delivery');
      return withContext(io, (ctx) => {
        const d = deliveryDetail(ctx, id);
        emit(io, d, () =>
          // Errors quote what a destination answered: each stays on its line.
          [line(d), `Routine ${d.routine_id ?? '-'}, run ${d.execution_id}, destination ${destinationNamed(ctx, d)}, mode ${d.mode}.`, ...d.attempt_log.map((a) => `  attempt ${a.seq}: ${a.started_at_utc} ${a.outcome ?? 'in progress'}${a.error ? ` — ${a.error}` : ''}`)].map(oneLine).join('\n'),
        );
      });
    });
  cmd
    .command('release')
    .argument('<id>', 'delivery id')
    .description('send a delivery awaiting review (the only way out of review); exit 1 if it fails')
    .action((raw: string) => withContext(io, (ctx) => moveAndSend(ctx, io, idArg(raw, 'delivery'), releaseDelivery)));
  cmd
    .command('retry')
    .argument('<id>', 'delivery id')
    .description('start the attempts of a failed delivery again, now; exit 1 if it fails again')
    .action((raw: string) => withContext(io, (ctx) => moveAndSend(ctx, io, idArg(raw, 'delivery'), retryDelivery)));
  cmd
    .command('skip')
    .argument('<id>', 'delivery id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('never send this delivery')
    .action((raw: string, opts: { yes?: boolean }) => {
      const id = idArg(raw, 'delivery');
      return withContext(io, async (ctx) => {
        // Looked up before asking: a wrong id is said as not found, not confirmed first.
        const d = requireDelivery(ctx, id);
        if (!(await confirmDestructive(io, `Skip delivery ${id} (${d.channel}, run ${d.execution_id})? It will not be sent.`, opts.yes))) return notConfirmed(io, { id, skipped: false }, 'Nothing skipped.');
        const view = skipDelivery(ctx, id);
        emit(io, view, () => line(view));
      });
    });
  addEmailTest(cmd.command('email-test'), io);
}

export function register(program: Command, io: Io): void {
  buildDeliveries(program.command('deliveries').description('deliveries of routine reports: list, show, release, retry, skip, email-test'), io);
}
