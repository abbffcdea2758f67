import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { notFound } from '../../src/errors.js';
import { listEvents } from '../../src/executions/events.js';
import { EXECUTION_LIST_LIMIT, listExecutions, withSourceCounts } from '../../src/executions/list.js';
import { enumFlag, idArg, intFlag } from '../lib/flags.js';
import { renderLog } from '../../src/executions/log.js';
import { executionManager } from '../../src/executions/manager.js';
import { getExecution, type ExecutionRow } from '../../src/executions/repo.js';
import { renderReport } from '../../src/executions/report.js';
import { searchRecord } from '../../src/executions/search-record.js';
import { executionDetail } from '../../src/executions/views.js';
import { confirmDestructive, declined } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { emit, table, type Io } from '../lib/io.js';
import { runInForeground, summary } from '../lib/run-foreground.js';
import { askedSettings, summarizeInForeground } from './summarize-foreground.js';
import { MAX_INSTRUCTIONS_LENGTH } from '../../src/executions/ai-settings.js';

const STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'] as const;

function row(ctx: Context, raw: string): ExecutionRow {
  const id = idArg(raw, 'execution');
  const found = getExecution(ctx.db, id);
  if (!found) throw notFound('execution_not_found', `No execution ${id}; \`svc executions list\` shows them.`);
  return found;
}

export function register(program: Command, io: Io): void {
  const executions = program.command('executions').description('past and running dives, sweeps and routine runs');
  executions
    .command('list')
    .description('newest first')
    .option('--status <status>', 'running, completed, failed, cancelled or interrupted')
    .option('--limit <n>', `rows, ${EXECUTION_LIST_LIMIT.min} to ${EXECUTION_LIST_LIMIT.max} (default 20)`)
    .action((opts: { status?: string; limit?: string }) => {
      const status = enumFlag(opts.status, '--status', STATUSES);
      const limit = intFlag(opts.limit, '--limit', EXECUTION_LIST_LIMIT, 20);
      return withContext(io, (ctx) => {
        const listed = listExecutions(ctx, { status, limit, offset: 0 });
        const page = { ...listed, executions: withSourceCounts(ctx, listed.executions) };
        const perSource = (e: (typeof page.executions)[number]) =>
          e.sources.map((s) => `${s.source} ${s.record_count > 0 ? s.record_count : s.zero_reason && s.zero_reason !== 'not_recorded' ? `0 (${s.zero_reason})` : s.status === 'running' || s.status === 'pending' ? '…' : '0'}`).join(', ');
        emit(io, page, () =>
          page.executions.length === 0
            ? 'No runs yet; start one with `svc dive` or `svc sweep`.'
            : table([
                ['ID', 'TYPE', 'STATUS', 'RESULTS', 'STARTED (UTC)', 'QUERY', 'SOURCES'],
                ...page.executions.map((e) => [String(e.id), e.type, e.status + (e.interrupted_reason ? ` (${e.interrupted_reason})` : ''), String(e.result_count), e.started_at_utc.slice(0, 19).replace('T', ' '), e.query, perSource(e)]),
              ]),
        );
      });
    });
  executions
    .command('show')
    .argument('<id>', 'execution id')
    .description('one execution with its per-source account')
    .action((id: string) => withContext(io, (ctx) => {
      const detail = executionDetail(ctx, row(ctx, id));
      emit(io, detail, () => summary(detail));
    }));
  executions
    .command('log')
    .argument('<id>', 'execution id')
    .description('the dated log of a run')
    .action((id: string) => withContext(io, (ctx) => {
      const r = row(ctx, id);
      const events = listEvents(ctx, r.id, 0, 100_000);
      emit(io, { execution_id: r.id, events }, () => renderLog(events).trimEnd());
    }));
  executions
    .command('report')
    .argument('<id>', 'execution id')
    .description('the readable report of a run')
    .action((id: string) => withContext(io, (ctx) => {
      const r = row(ctx, id);
      const text = renderReport(ctx, r.id)!;
      emit(io, { execution_id: r.id, report_path: r.report_path, text }, () => text.trimEnd());
    }));
  executions
    .command('record')
    .argument('<id>', 'execution id')
    .description('the complete dated search record (JSON): per source the request, window, pages, counts, timings and zero reason')
    .action((id: string) => withContext(io, (ctx) => io.out(JSON.stringify(searchRecord(ctx, row(ctx, id).id), null, 2))));
  executions
    .command('summarize')
    .argument('<id>', 'execution id')
    .option('--ai-model <id>', 'the model to ask instead of the run\'s (or ai.model), for this summary')
    .option('--ai-instructions <text>', `what the summary should focus on, up to ${MAX_INSTRUCTIONS_LENGTH} characters, instead of the run's`)
    .description("write a settled run's AI summary now (after fixing what stopped it), in the foreground; the run need not have asked for AI")
    .action((id: string, opts: { aiModel?: string; aiInstructions?: string }) => {
      const asked = askedSettings(opts);
      const executionId = idArg(id, 'execution');
      return withContext(io, (ctx) => summarizeInForeground(ctx, io, executionId, asked));
    });
  executions
    .command('cancel')
    .argument('<id>', 'execution id')
    .description('ask a running execution to stop (it keeps what it found); works on runs of any svc process')
    .action((id: string) => withContext(io, (ctx) => {
      const answer = executionManager(ctx).cancel(idArg(id, 'execution'));
      emit(io, answer, () => `Cancel requested for execution ${answer.id}.`);
    }));
  executions
    .command('restart')
    .argument('<id>', 'execution id')
    .option('--request-id <id>', 'an id that makes resubmitting answer the running restart')
    .description('run the same search again in the foreground, linked to the original')
    .action((id: string, opts: { requestId?: string }) =>
      withContext(io, async (ctx) => {
        io.exitCode = await runInForeground(ctx, io, () => {
          const restarted = executionManager(ctx).restart(idArg(id, 'execution'), opts.requestId ?? null);
          if (restarted.note) io.err(`note: ${restarted.note}`);
          return restarted;
        });
      }),
    );
  executions
    .command('delete')
    .argument('<id>', 'execution id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('delete a finished execution (its documents stay in the corpus)')
    .action((id: string, opts: { yes?: boolean }) =>
      withContext(io, async (ctx) => {
        const r = row(ctx, id);
        if (!(await confirmDestructive(io, `Delete execution ${r.id} (${r.type} "${r.query}")?`, opts.yes))) return declined(io, { id: r.id });
        emit(io, executionManager(ctx).remove(r.id), () => `Execution ${r.id} deleted.`);
      }),
    );
}
