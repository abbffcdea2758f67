/**
 * `svc executions summarize`: the run's AI summary written in this process,
 * in the foreground. On a terminal a spinner line on stderr says who is
 * asked; piped or under --json nothing is drawn. Ctrl-C stops the request
 * and leaves the run's lane as it was (exit 130).
 */
import type { Context } from '../../src/context.js';
import { SvcError } from '../../src/errors.js';
import type { AiLane } from '../../src/executions/ai-lane.js';
import { parseAiSettings, type AiSettings } from '../../src/executions/ai-settings.js';
import { summarizeOnRequest } from '../../src/executions/ai-summary-on-request.js';
import { getExecution } from '../../src/executions/repo.js';
import { SPINNER } from '../lib/bar.js';
import { emit, drawsOnTerminal, type Io } from '../lib/io.js';
import { aiLaneText, asFlagError } from '../lib/run-foreground.js';

/** --ai-model and --ai-instructions, checked as the HTTP door checks ai_settings (the refusal names the flag). */
export function askedSettings(flags: { aiModel?: string; aiInstructions?: string }): AiSettings {
  const input: Record<string, unknown> = {};
  if (flags.aiModel !== undefined) input.model = flags.aiModel;
  if (flags.aiInstructions !== undefined) input.instructions = flags.aiInstructions;
  try {
    return parseAiSettings(input, ['body']) ?? {};
  } catch (err) {
    throw asFlagError(err);
  }
}

async function withSpinner<T>(io: Io, text: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  const tty = drawsOnTerminal(io);
  let frame = 0;
  const ticker = tty ? setInterval(() => process.stderr.write(`\r\x1b[2K${SPINNER[frame++ % SPINNER.length]} ${text}`), 120) : undefined;
  try {
    return await work(stop.signal);
  } finally {
    process.removeListener('SIGINT', onSigint);
    if (ticker) {
      clearInterval(ticker);
      process.stderr.write('\r\x1b[2K');
    }
  }
}

/** Write, then print the summary (text) or {execution_id, ai_lane} (--json); a summary not written fails (exit 1) with the lane's reason. */
export async function summarizeInForeground(ctx: Context, io: Io, id: number, asked: AiSettings): Promise<void> {
  const lane: AiLane = await withSpinner(io, `Writing the AI summary of execution ${id}…`, (signal) => summarizeOnRequest(ctx, id, asked, signal));
  // The provider's refusal or a timeout: recorded in the lane (and the report), and this command failed.
  if (!lane.used) throw new SvcError(502, lane.reason_code ?? 'upstream_failed', lane.reason ?? 'No summary was written.');
  const reportPath = getExecution(ctx.db, id)?.report_path ?? null;
  emit(io, { execution_id: id, ai_lane: lane }, () => [...aiLaneText(lane), ...(reportPath ? [`Report: ${reportPath}`] : [])].join('\n'));
}
