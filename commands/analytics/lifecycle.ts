import { Help, type Command } from 'commander';
import { abandonCheck, abandonSlice, CHECK_LIMIT, startCheck, stopCheck, type CheckProgress } from '../../src/lifecycle/check.js';
import { credentialSkippedWithout, sourcesWithoutKey } from '../../src/lifecycle/lookups.js';
import type { Asked } from '../../src/wire/lifecycle.js';
import { documentLifecycle, EVENTS_LIMIT, lifecycleOverview, papersInCorpus, runView } from '../../src/lifecycle/service.js';
import { wordedContext } from '../lib/context.js';
import { utcMinute } from '../lib/dates.js';
import { EXIT } from '../lib/exit-codes.js';
import { idArg, intFlag, unknownSubcommand } from '../lib/flags.js';
import { drawsOnTerminal, emit, table, type Io } from '../lib/io.js';
import { statusLine } from '../lib/bar.js';
import { count, oneLine } from '../lib/words.js';
import { nextPageCommand } from '../lib/hints.js';

/** Refusals name the svc command, not the HTTP route the service words them for. */
const withContext = wordedContext('analytics');

const eventRows = (events: { kind: string; source: string; notice_url: string; label: string | null; document_id?: number }[], withDoc: boolean) =>
  table([[...(withDoc ? ['DOC'] : []), 'EVENT', 'SOURCE', 'NOTICE', 'LABEL'], ...events.map((e) => [...(withDoc ? [String(e.document_id)] : []), e.kind, e.source, e.notice_url, e.label ?? ''])]);

const NO_PAPERS_YET = 'The corpus has no papers yet; `svc dive` or `svc sweep` collects some.';
const NOTHING_TO_CHECK = 'The corpus has no papers yet, so there is nothing to check; `svc dive` or `svc sweep` collects some.';

/** The sources that failed at the last attempt, after its outcome; a source skipped is no failure. */
const failures = (asked: Asked[]) => {
  const failed = asked.filter((a) => a.outcome === 'failed').map((a) => `${a.source}: ${a.reason ?? 'no reason recorded'}`);
  return failed.length ? ` — ${failed.join('; ')}` : '';
};

/** A source not asked for want of its key, with the command that stores it (the key may be stored since). */
const skippedLine = (a: Asked) => {
  const key = credentialSkippedWithout(a.source);
  return oneLine(key ? `Skipped ${a.source}: ${key} was not stored; \`svc credentials set ${key}\` stores it for the next check.` : `Skipped ${a.source}${a.reason ? `: ${a.reason}` : ''}.`);
};

export function register(program: Command, io: Io): void {
  const lifecycle = program.command('lifecycle')
    // The default subcommand's [unknown] argument only catches a mistyped subcommand: not shown in help.
    .configureHelp({ subcommandTerm: (cmd) => new Help().subcommandTerm(cmd).replace(' [unknown]', '') })
    .description('retractions, preprints published, new versions: checks and recorded events');
  lifecycle
    .command('status', { isDefault: true })
    .argument('[unknown]', 'not a lifecycle command', undefined)
    .description('recorded events and corpus coverage (how many papers were checked and when)')
    .option('--limit <n>', `events shown, newest first (${EVENTS_LIMIT.min} to ${EVENTS_LIMIT.max}, default 20)`)
    .option('--offset <n>', 'skip this many of the newest events (default 0)')
    .action((unknown: string | undefined, opts: { limit?: string; offset?: string }) => unknown !== undefined ? unknownSubcommand('lifecycle', unknown, ['status', 'check', 'stop', 'show']) : withContext(io, (ctx) => {
      const limit = intFlag(opts.limit, '--limit', EVENTS_LIMIT, 20);
      const offset = intFlag(opts.offset, '--offset', { min: 0, max: Number.MAX_SAFE_INTEGER }, 0);
      const o = lifecycleOverview(ctx, { limit, offset });
      emit(io, o, () => {
        const c = o.coverage;
        const coverage = c.checked
          ? `${c.checked} of ${c.documents_total} papers checked (last ${utcMinute(c.last_checked_at_utc)}, oldest ${utcMinute(c.oldest_checked_at_utc)}); ${c.never_checked} never checked; ${c.failed_last_attempt} failed last time; ${c.nothing_to_ask} with no DOI, arXiv id or PMID.`
          : c.documents_total
            ? `None of the ${c.documents_total} papers has been checked yet; \`svc lifecycle check\` asks the sources.`
            : NO_PAPERS_YET;
        return [
          coverage,
          `${count(o.events_total, 'event')}: ${count(o.by_kind.retraction, 'retraction')}, ${count(o.by_kind.preprint_to_published, 'preprint', 'preprints')} published, ${count(o.by_kind.version_change, 'version change')}.`,
          o.check.running ? `A check is running (run ${o.check.current!.run_id}, ${o.check.current!.checked} checked so far).` : '',
          o.events.length ? eventRows(o.events, true) : '',
          o.next_offset !== null ? `Events ${offset + 1} to ${offset + o.events.length} of ${o.events_total} shown, newest first; \`${nextPageCommand('svc lifecycle', [['--limit', opts.limit], ['--offset', o.next_offset]])}\` shows the next ones.` : '',
        ].filter(Boolean).join('\n');
      });
    }));
  lifecycle
    .command('check')
    .option('--limit <n>', `papers per pass, least recently checked first (${CHECK_LIMIT.min} to ${CHECK_LIMIT.max}, default ${CHECK_LIMIT.default})`)
    .option('--until-done', 'keep going, pass after pass, until every paper was checked')
    .description('ask Crossref, arXiv, OpenAlex and PubMed about papers (foreground, progress; Ctrl-C stops after the slice in flight, a second Ctrl-C abandons it)')
    .action((opts: { limit?: string; untilDone?: boolean }) => {
      const limit = intFlag(opts.limit, '--limit', CHECK_LIMIT, CHECK_LIMIT.default);
      return withContext(io, async (ctx) => {
        // A check of an empty corpus would start, ask nobody and record a run of 0 papers.
        if (papersInCorpus(ctx) === 0) return emit(io, { run_id: null, documents_total: 0, checked: 0, message: NOTHING_TO_CHECK }, () => NOTHING_TO_CHECK);
        const status = statusLine(io);
        const showProgress = (p: CheckProgress) => status(`pass ${p.pass}, slice ${p.slice}: ${p.checked} checked, ${p.failed} failed, ${p.events} new events, ${p.remaining} still to check`);
        const { run, done } = startCheck(ctx, { limit, runUntilDone: Boolean(opts.untilDone) }, showProgress);
        if (!io.json) io.err(`Lifecycle check ${run.id}: up to ${limit} papers${opts.untilDone ? ' per pass, until done' : ''}.`);
        // Said before the wait rather than found later in `svc lifecycle show`: a key stored now counts from the next check.
        if (!io.json) for (const { source, credential } of sourcesWithoutKey(ctx)) io.err(`${source} is not asked: ${credential} is not stored; \`svc credentials set ${credential}\` adds it to later checks.`);
        // Progress comes after each slice, and a slice of 50 can take a minute: on a terminal, say the first is under way.
        if (drawsOnTerminal(io)) status('pass 1, slice 1: asking the sources…');
        // First Ctrl-C: finish the slice and stop. Second: abandon the slice now, keeping what the
        // sources answered. Third: quit at once, should abandoning hang.
        let interrupts = 0;
        const onSigint = () => {
          interrupts++;
          if (interrupts === 1) {
            io.err('\nStopping after the slice in flight… (Ctrl-C again abandons it now, keeping what the sources have answered)');
            stopCheck(ctx);
          } else if (interrupts === 2 && abandonSlice(ctx, run.id)) {
            io.err('\nAbandoning the slice in flight… (Ctrl-C again to quit at once)');
          } else {
            abandonCheck(ctx, run.id);
            io.leave?.(EXIT.interrupted);
          }
        };
        process.on('SIGINT', onSigint);
        try {
          const ended = runView(await done)!;
          emit(io, ended, () => oneLine(`Check ${ended.run_id} ${ended.status}: ${count(ended.checked, 'paper')} checked, ${ended.failed} failed, ${count(ended.events, 'new event')}.${ended.error ? ` ${ended.error}` : ''}`));
          io.exitCode = ended.status === 'completed' ? EXIT.ok : ended.status === 'stopped' || ended.status === 'interrupted' ? EXIT.interrupted : EXIT.failed;
        } finally {
          process.off('SIGINT', onSigint);
        }
      });
    });
  lifecycle
    .command('stop')
    .description('ask a running check (of any svc process) to stop after its current slice')
    .action(() => withContext(io, (ctx) => {
      const answer = stopCheck(ctx);
      emit(io, answer, () => answer.message);
    }));
  lifecycle
    .command('show')
    .argument('<doc_id>', 'document id')
    .description('the lifecycle of one paper: its events with notice links and when it was last checked')
    .action((raw: string) => withContext(io, (ctx) => {
      const d = documentLifecycle(ctx, idArg(raw, 'document'));
      emit(io, d, () =>
        [
          // The title comes from a source, the error from a lookup: each on its line.
          oneLine(`${d.document_id}  ${d.title}${d.is_retracted ? '  [RETRACTED]' : ''}`),
          oneLine(`Last checked: ${utcMinute(d.checked_at_utc, 'never')}${d.last_attempt ? ` (last attempt ${utcMinute(d.last_attempt.at_utc)}: ${d.last_attempt.outcome}${failures(d.last_attempt.asked)})` : ''}${d.askable ? '' : '; no DOI, arXiv id or PMID to ask about'}`),
          ...(d.last_attempt?.asked ?? []).filter((a: Asked) => a.outcome === 'skipped').map(skippedLine),
          d.events.length ? eventRows(d.events, false) : 'No lifecycle event recorded.',
        ].join('\n'),
      );
    }));
}
