/**
 * Runs a dive, sweep or restart in this process, in the foreground: live
 * progress, Ctrl-C cancels cleanly (status cancelled, results kept; a second
 * Ctrl-C stops at once), and a closing summary naming every zero reason and
 * where the report is.
 */
import type { Context } from '../../src/context.js';
import { ValidationError } from '../../src/errors.js';
import { executionManager, type Submitted } from '../../src/executions/manager.js';
import { getExecution } from '../../src/executions/repo.js';
import { getRoutine } from '../../src/routines/repo.js';
import { executionDetail } from '../../src/executions/views.js';
import { nothingReason } from '../../src/executions/zero-reasons.js';
import { count, oneLine, plainText } from './words.js';
import { laneLine, type AiLane } from '../../src/executions/ai-lane.js';
import { followSection } from '../../src/follow/report.js';
import { EXIT } from './exit-codes.js';
import type { Io } from './io.js';
import { drawsInPlace, showProgress } from './progress.js';

const FLAG_FOR: Record<string, string> = { date_from: '--from', date_to: '--to', max_results: '--max', keywords: '--keywords', repositories: '--sources', request_id: '--request-id', model: '--ai-model', instructions: '--ai-instructions' };

/** Name the flag, not the HTTP body field, in a refusal. */
export function asFlagError(err: unknown): unknown {
  if (!(err instanceof ValidationError)) return err;
  return new ValidationError(err.issues.map((i) => ({ ...i, loc: i.loc.filter((p) => p !== 'body').map((p) => FLAG_FOR[String(p)] ?? p) })));
}

export function summary(detail: ReturnType<typeof executionDetail>): string {
  const lines = [`Execution ${detail.id} ${detail.status}${detail.interrupted_reason ? ` (${detail.interrupted_reason})` : ''}: ${count(detail.result_count, 'document')} (${detail.new_count} new)`];
  const width = Math.max(...detail.sources.map((s) => s.source.length));
  for (const s of detail.sources) {
    lines.push(s.record_count > 0 ? `  ${s.source.padEnd(width)}  ${count(s.record_count, 'record')} (${s.new_count} new)` : `  ${s.source.padEnd(width)}  nothing: ${nothingReason(s.zero_reason, s.status)}${s.message ? ` — ${s.message}` : ''}`);
  }
  if (detail.error) lines.push(`  ${detail.error}`);
  // A routine following a profile for retractions: the notices are its news (as in its report and digest).
  const after = [...(detail.follow ? followSection(detail.follow) : []), ...(detail.report_path ? [`Report: ${detail.report_path}`] : [])];
  // Source messages, errors and the notices' titles come from outside: each stays on its line.
  // The AI summary keeps its lines (stored as plain text, and made plain again on the way out).
  return [...lines.map(oneLine), ...aiLaneText(detail.ai_lane).map(plainText), ...after.map(oneLine)].join('\n');
}

/** The AI lane in a terminal summary: nothing when AI was not asked for, else the summary or why there is none. */
export function aiLaneText(lane: AiLane): string[] {
  if (!lane.requested) return [];
  if (!lane.used || !lane.summary) return [laneLine(lane)];
  return [`${laneLine(lane)}:`, ...lane.summary.split(/\r?\n/).map((l) => (l.trim() ? `  ${l.trimEnd()}` : ''))];
}

/** What a caller adds after the summary: fields of the JSON document and lines of the text. */
export type AfterRun = (detail: ReturnType<typeof executionDetail>) => { fields: Record<string, unknown>; text: string };

/** What the run is: a dive or sweep by its query; a routine's run by the routine's name too, as several routines may share a query. */
function runLabel(ctx: Context, row: { type: string; query: string; routine_id: number | null }): string {
  const routine = row.routine_id === null ? undefined : getRoutine(ctx.db, row.routine_id);
  if (!routine) return `${row.type} "${oneLine(row.query)}"`;
  return `routine ${row.routine_id} "${oneLine(routine.name)}" (query "${oneLine(row.query)}")`;
}

export async function runInForeground(ctx: Context, io: Io, submit: () => Submitted, after?: AfterRun): Promise<number> {
  const manager = executionManager(ctx);
  manager.role = 'cli';
  manager.recover();
  const submitted = submit();
  const row = getExecution(ctx.db, submitted.id)!;
  if (!io.json) io.err(`Execution ${submitted.id}${submitted.replayed ? ' (already running, following it)' : ''}: ${runLabel(ctx, row)}`);
  const stopFollowing = new AbortController();
  let interrupts = 0;
  const cancelling = 'Cancelling… (Ctrl-C again to stop at once)';
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      if (!drawsInPlace(io)) io.err(`\n${cancelling}`);
      try {
        manager.cancel(submitted.id);
      } catch {
        // already finished
      }
    } else io.leave?.(EXIT.interrupted);
  };
  process.on('SIGINT', onSigint);
  try {
    await showProgress(ctx, io, submitted.id, JSON.parse(row.repositories_json), stopFollowing.signal, () => (interrupts > 0 ? cancelling : undefined));
    await manager.wait(submitted.id);
  } finally {
    process.off('SIGINT', onSigint);
    stopFollowing.abort();
  }
  const detail = executionDetail(ctx, getExecution(ctx.db, submitted.id)!);
  const more = after?.(detail);
  if (io.json) io.out(JSON.stringify(more ? { ...detail, ...more.fields } : detail, null, 2));
  else io.out(plainText(more ? `${summary(detail)}\n${more.text}` : summary(detail)));
  return detail.status === 'completed' ? EXIT.ok : detail.status === 'cancelled' ? EXIT.interrupted : EXIT.failed;
}
