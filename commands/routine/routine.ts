import type { Command } from 'commander';
import { COVERAGE_DEFAULT_LIMIT, COVERAGE_MAX_LIMIT, routineCoverage } from '../../src/routines/coverage.js';
import { runRoutineNow } from '../../src/routines/dispatch.js';
import { getRoutine } from '../../src/routines/repo.js';
import { activateRoutine, deactivateRoutine, deleteRoutine, getRoutineView, listRoutineViews, requireRoutine, updateRoutine } from '../../src/routines/service.js';
import { schedulerJobs } from '../../src/routines/jobs-view.js';
import { schedulerLease } from '../../src/routines/scheduler-lease.js';
import { confirmDestructive, declined } from '../lib/confirm.js';
import { idArg, intFlag } from '../lib/flags.js';
import { withContext } from '../lib/context.js';
import { emit, type Io } from '../lib/io.js';
import { oneLine } from '../lib/words.js';
import { addCommand, asFlagError, checkRoutineBody, followAfterEdit, routineFlags, routineUpdateBody, type RoutineFlags } from './add.js';
import { checkRoutineWindow } from './checks.js';
import { namingFollowFlags } from './follow-flags.js';
import { followedProfile } from '../../src/routines/entity.js';
import { coverageText, fireTime, jobsTable, routineDetail, routineTable } from './format.js';
import { runInForeground } from '../lib/run-foreground.js';
import { EXIT } from '../lib/exit-codes.js';
import { executionDeliveries } from '../../src/delivery/service.js';
import { getSources } from '../../src/executions/repo.js';
import { addCommand as addTargetCommands } from './target.js';
import { listTargets } from '../../src/delivery/targets.js';
import { emailNotReady } from '../../src/delivery/email-ready.js';
import { destinationsText, lastReportText, runDeliveriesText } from '../deliveries/format.js';


export function register(program: Command, io: Io): void {
  const routine = program.command('routine').description('saved searches on a cron schedule: add, list, show, edit, run, activate, deactivate, delete, coverage, jobs, target');
  addCommand(routine, io);
  routine
    .command('list')
    .description('every routine with its schedule, next run and missed fires')
    .option('--active', 'only active routines')
    .action((opts: { active?: boolean }) => withContext(io, (ctx) => {
      const page = listRoutineViews(ctx, Boolean(opts.active));
      emit(io, page, () => routineTable(page.routines, (r) => followedProfile(ctx, r.entity)));
    }));
  routine
    .command('show')
    .argument('<id>', 'routine id')
    .description('one routine: search, schedule and next fires, last run, missed fires with details')
    .action((id: string) => withContext(io, (ctx) => {
      const view = getRoutineView(ctx, idArg(id, 'routine'));
      // The destinations with their addresses, for their owner (the HTTP read keeps only the summary by channel).
      const targets = listTargets(ctx, view.id).targets;
      const emailIssue = (target: string) => emailNotReady(ctx, target);
      const lastRun = view.last_execution?.id ?? null;
      const report = () => lastReportText(view.id, lastRun, lastRun === null ? [] : executionDeliveries(ctx, lastRun).deliveries, view.delivery_summary?.awaiting_review ?? 0);
      const detail = routineDetail(view, followedProfile(ctx, view.entity), lastRun === null ? [] : getSources(ctx.db, lastRun));
      emit(io, { ...view, delivery_targets: targets }, () => [detail, '  delivers to', ...destinationsText(targets, view.email_enabled, emailIssue), ...report()].join('\n'));
    }));
  routineFlags(routine.command('edit').argument('<id>', 'routine id').description('change a routine; only the flags given change'))
    .option('--no-intent', 'remove the intent')
    .option('--no-follow', 'stop following the watch profile (the routine then needs a --query)')
    .option('--no-ai', 'stop asking for AI summaries')
    .option('--no-ai-instructions', 'remove the summary instructions')
    .option('--no-email-ai-summary', "leave the AI summary out of the routine's email")
    .action((id: string, flags: RoutineFlags) => withContext(io, (ctx) => {
      const current = requireRoutine(ctx, idArg(id, 'routine'));
      const body = routineUpdateBody(current, flags);
      checkRoutineBody(ctx, flags.sources === undefined ? { name: body.name } : body, current.id, followAfterEdit(current, body));
      // --window-days none on a routine asking bioRxiv leaves it nothing to ask (its sources are checked above when given).
      const edited = body.parameters as { repositories: string[]; window_days: number | null } | undefined;
      if (flags.windowDays !== undefined && edited) checkRoutineWindow(edited.repositories, edited.window_days);
      let view;
      try {
        view = namingFollowFlags(body.entity, () => updateRoutine(ctx, current.id, body));
      } catch (err) {
        throw asFlagError(err); // --schedule "" is a --schedule refusal, not schedule_cron's
      }
      emit(io, view, () => routineDetail(view, followedProfile(ctx, view.entity)));
    }));
  routine
    .command('run')
    .argument('<id>', 'routine id')
    .description('run now, in the foreground, outside the schedule (also an inactive routine)')
    .action((id: string) => withContext(io, async (ctx) => {
      let executionId = 0;
      let delivered: ReturnType<typeof executionDeliveries>['deliveries'] | undefined;
      const routineId = idArg(id, 'routine');
      // Where the report went, in the summary (and the JSON document): every destination with its outcome.
      const deliveries = (detail: { id: number; status: string }) => {
        const list = (delivered = executionDeliveries(ctx, detail.id).deliveries);
        // The routine may have been deleted while it ran (its run goes on): the summary still prints.
        const row = getRoutine(ctx.db, routineId);
        if (!row) return { fields: { deliveries: list }, text: list.length ? runDeliveriesText(routineId, detail.status, list, [], false) : `Deliveries: none (routine ${routineId} was deleted during the run; its report goes nowhere).` };
        return { fields: { deliveries: list }, text: runDeliveriesText(routineId, detail.status, list, listTargets(ctx, routineId).targets, row.email_enabled === 1) };
      };
      io.exitCode = await runInForeground(ctx, io, () => {
        const run = runRoutineNow(ctx, routineId);
        if (run.note) io.err(run.note);
        executionId = run.execution_id;
        return { id: run.execution_id, status: 'running', replayed: false };
      }, deliveries);
      // A run that found papers nobody received failed its purpose: exit 1 and say which delivery.
      const failing = (delivered ?? executionDeliveries(ctx, executionId).deliveries).filter((d) => d.state === 'failed' || (d.state === 'queued' && d.last_error));
      for (const d of failing) io.err(`Delivery ${d.id} (${d.channel}) ${d.state === 'failed' ? 'failed' : 'failed and will be retried'}: ${oneLine(d.last_error ?? '')}`);
      if (failing.length && io.exitCode === EXIT.ok) io.exitCode = EXIT.failed;
    }));
  for (const [name, description, fn] of [
    ['activate', 'put a routine on the schedule (fires from now on)', activateRoutine],
    ['deactivate', 'take a routine off the schedule; it keeps its runs and findings', deactivateRoutine],
  ] as const) {
    routine
      .command(name)
      .argument('<id>', 'routine id')
      .description(description)
      .action((id: string) => withContext(io, (ctx) => {
        const answer = fn(ctx, idArg(id, 'routine'));
        // The routine's zone is read for the text only: --json prints the answer as it is.
        const next = () => ('next_run_at_utc' in answer && answer.next_run_at_utc ? `; next fire ${fireTime(new Date(answer.next_run_at_utc), getRoutineView(ctx, answer.id).schedule.timezone)}` : '');
        emit(io, answer, () => `Routine ${answer.id} is ${answer.is_active ? `active${next()}` : 'inactive'}.`);
      }));
  }
  routine
    .command('delete')
    .argument('<id>', 'routine id')
    .option('-y, --yes', 'do not ask for confirmation')
    .description('delete a routine and its scheduled job (its runs and the corpus stay)')
    .action((id: string, opts: { yes?: boolean }) => withContext(io, async (ctx) => {
      const row = requireRoutine(ctx, idArg(id, 'routine'));
      if (!(await confirmDestructive(io, `Delete routine ${row.id} (${row.name})?`, opts.yes))) return declined(io, { id: row.id });
      const answer = deleteRoutine(ctx, row.id);
      emit(io, answer, () =>
        answer.running_execution_id === null
          ? `Routine ${row.id} deleted.`
          : `Routine ${row.id} deleted. Its run, execution ${answer.running_execution_id}, goes on and keeps what it finds, but its report goes nowhere (the destinations went with the routine); \`svc executions cancel ${answer.running_execution_id}\` stops it.`,
      );
    }));
  routine
    .command('coverage')
    .argument('<id>', 'routine id')
    .option('--limit <n>', `examples per side (default ${COVERAGE_DEFAULT_LIMIT}, at most ${COVERAGE_MAX_LIMIT})`)
    .option('--offset <n>', 'skip this many examples per side')
    .description('compare what the routine found with its intent: off target, missed in the corpus')
    .action((id: string, opts: { limit?: string; offset?: string }) => withContext(io, (ctx) => {
      const page = { limit: intFlag(opts.limit, '--limit', { min: 1, max: COVERAGE_MAX_LIMIT }, COVERAGE_DEFAULT_LIMIT), offset: intFlag(opts.offset, '--offset', { min: 0, max: Number.MAX_SAFE_INTEGER }, 0) };
      const row = requireRoutine(ctx, idArg(id, 'routine'));
      const audit = routineCoverage(ctx, row, page);
      emit(io, audit, () => coverageText(audit));
    }));
  routine
    .command('jobs')
    .description('the scheduled jobs with their next run times (the server or daemon runs them)')
    .action(() => withContext(io, (ctx) => {
      const view = schedulerJobs(ctx, 'not_in_this_process', schedulerLease(ctx).holder());
      emit(io, view, () => jobsTable(view));
    }));
  addTargetCommands(routine, io);
}
