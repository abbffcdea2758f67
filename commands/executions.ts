import type { Command } from 'commander';
import type { Context } from '../src/context.js';
import { notFound } from '../src/errors.js';
import { listEvents } from '../src/executions/events.js';
import { listExecutions } from '../src/executions/list.js';
import { renderLog } from '../src/executions/log.js';
import { executionManager } from '../src/executions/manager.js';
import { getExecution, type ExecutionRow } from '../src/executions/repo.js';
import { renderReport } from '../src/executions/report.js';
import { searchRecord } from '../src/executions/search-record.js';
import { executionDetail } from '../src/executions/views.js';
import { confirmDestructive } from './confirm.js';
import { withContext } from './context.js';
import { emit, table, type Io } from './io.js';
import { runInForeground, summary } from './run-foreground.js';
import { SvcError } from '../src/errors.js';

function idArg(raw: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new SvcError(400, 'invalid_id', `An execution id is a positive whole number, not "${raw}".`);
  return Number(raw);
}

function row(ctx: Context, raw: string): ExecutionRow {
  const id = idArg(raw);
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
    .option('--limit <n>', 'rows (default 20)', '20')
    .action((opts: { status?: string; limit: string }) =>
      withContext(io, (ctx) => {
        const status = opts.status as ExecutionRow['status'] | undefined;
        if (status && !['running', 'completed', 'failed', 'cancelled', 'interrupted'].includes(status)) throw new SvcError(400, 'invalid_status', `Unknown status "${status}".`);
        const page = listExecutions(ctx, { status, limit: Math.min(200, Math.max(1, Number(opts.limit) || 20)), offset: 0 });
        emit(io, page, () =>
          table([
            ['ID', 'TYPE', 'STATUS', 'RESULTS', 'STARTED', 'QUERY'],
            ...page.executions.map((e) => [String(e.id), e.type, e.status + (e.interrupted_reason ? ` (${e.interrupted_reason})` : ''), String(e.result_count), e.started_at_utc.slice(0, 19).replace('T', ' '), e.query]),
          ]),
        );
      }),
    );
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
    .command('cancel')
    .argument('<id>', 'execution id')
    .description('ask a running execution to stop (it keeps what it found); works on runs of any svc process')
    .action((id: string) => withContext(io, (ctx) => {
      const answer = executionManager(ctx).cancel(idArg(id));
      emit(io, answer, () => `Cancel requested for execution ${answer.id}.`);
    }));
  executions
    .command('restart')
    .argument('<id>', 'execution id')
    .option('--request-id <id>', 'an id that makes resubmitting answer the running restart')
    .description('run the same search again in the foreground, linked to the original')
    .action((id: string, opts: { requestId?: string }) =>
      withContext(io, async (ctx) => {
        io.exitCode = await runInForeground(ctx, io, () => executionManager(ctx).restart(idArg(id), opts.requestId ?? null));
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
        if (!(await confirmDestructive(io, `Delete execution ${r.id} (${r.type} "${r.query}")?`, opts.yes))) return io.err('Nothing deleted.');
        emit(io, executionManager(ctx).remove(r.id), () => `Execution ${r.id} deleted.`);
      }),
    );
}
