import { Help, type Command } from 'commander';
import { getQueueEntry, listQueue, QUEUE_FILTERS, QUEUE_LIST_LIMIT, removeFromQueue, saveToQueue, setQueueStatus } from '../../src/queue/service.js';
import { confirmDestructive, notConfirmed } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { enumFlag, idArg, intFlag, unknownSubcommand } from '../lib/flags.js';
import { emit, table, type Io } from '../lib/io.js';
import { nextPageHint } from '../lib/hints.js';
import { clip } from '../lib/words.js';

export function register(program: Command, io: Io): void {
  const queue = program
    .command('queue')
    // The default subcommand's [unknown] argument only catches a mistyped subcommand: not shown in help.
    .configureHelp({ subcommandTerm: (cmd) => new Help().subcommandTerm(cmd).replace(' [unknown]', '') })
    .description('the reading queue: papers saved to read (`svc queue` alone lists them)');
  queue
    .command('list', { isDefault: true })
    .argument('[unknown]', 'not a queue command', undefined)
    .description('saved papers, newest saved first (the default)')
    .option('--status <status>', `${QUEUE_FILTERS.join(', ')} (default all)`)
    .option('--limit <n>', `rows, ${QUEUE_LIST_LIMIT.min} to ${QUEUE_LIST_LIMIT.max} (default ${QUEUE_LIST_LIMIT.default})`)
    .option('--offset <n>', 'rows to skip (default 0)')
    .action((unknown: string | undefined, o: { status?: string; limit?: string; offset?: string }) => {
      if (unknown !== undefined) unknownSubcommand('queue', unknown, ['list', 'add', 'read', 'unread', 'remove']);
      const status = enumFlag(o.status, '--status', QUEUE_FILTERS);
      const limit = intFlag(o.limit, '--limit', QUEUE_LIST_LIMIT, QUEUE_LIST_LIMIT.default);
      const offset = intFlag(o.offset, '--offset', { min: 0, max: Number.MAX_SAFE_INTEGER }, 0);
      return withContext(io, (ctx) => {
        const page = listQueue(ctx, { status, limit, offset });
        // With a status filter the total is that status's: "1 unread of 3 saved", not "1 saved (1 unread, 2 read)".
        const saved = page.counts.unread + page.counts.read;
        const totals = `${page.status === 'all' ? `${page.total} saved` : `${page.total} ${page.status} of ${saved} saved`} (${page.counts.unread} unread, ${page.counts.read} read)`;
        emit(io, page, () =>
          page.entries.length
            ? `${table([['ID', 'STATUS', 'SAVED', 'TITLE'], ...page.entries.map((e) => [String(e.document_id), e.status, e.saved_at_utc.slice(0, 10), e.paper?.title ?? '(paper gone)'])])}\n${totals}`
            : page.counts.unread + page.counts.read === 0
              ? 'The reading queue is empty; `svc queue add DOC_ID` saves a paper (the ID column of `svc explore`).'
              : page.entries.length === 0 && page.total > 0
                ? `No entry from offset ${page.offset}; ${page.total} ${page.status === 'all' ? 'saved' : page.status}.`
                : `No saved paper is ${page.status}.`,
        );
        if (!io.json && page.next_offset !== null) io.err(nextPageHint('svc queue list', [['--status', o.status], ['--limit', o.limit], ['--offset', page.next_offset]]));
      });
    });
  queue
    .command('add')
    .argument('<doc_id>', 'document id (from svc explore)')
    .description('save a paper (saving it again changes nothing)')
    .action((raw: string) => {
      const id = idArg(raw, 'document');
      return withContext(io, (ctx) => {
        const { created, entry } = saveToQueue(ctx, id);
        emit(io, { ...entry, created }, () => (created ? `Saved ${id}: ${entry.paper?.title ?? ''}` : `${id} was already saved (${entry.status}) on ${entry.saved_at_utc.slice(0, 10)}.`));
      });
    });
  for (const status of ['read', 'unread'] as const) {
    queue
      .command(status)
      .argument('<doc_id>', 'document id')
      .description(`mark a saved paper ${status}`)
      .action((raw: string) => {
        const id = idArg(raw, 'document');
        return withContext(io, (ctx) => {
          const answer = setQueueStatus(ctx, id, status);
          emit(io, answer, () => (answer.changed ? `Marked ${id} ${status}.` : `${id} was already ${status}.`));
        });
      });
  }
  queue
    .command('remove')
    .argument('<doc_id>', 'document id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('take a paper off the queue (the paper stays in the corpus)')
    .action((raw: string, o: { yes?: boolean }) => {
      const id = idArg(raw, 'document');
      return withContext(io, async (ctx) => {
        // An unknown or unsaved paper fails (exit 3) before any question; the question names the title.
        const saved = getQueueEntry(ctx, id);
        const named = saved.paper ? `${id} (${clip(saved.paper.title, 80)})` : String(id);
        if (!(await confirmDestructive(io, `Remove ${named} from the reading queue?`, o.yes))) return notConfirmed(io, { document_id: id, removed: false }, 'Nothing removed.');
        emit(io, removeFromQueue(ctx, id), () => `Removed ${id} from the reading queue; the paper stays in the corpus.`);
      });
    });
}
