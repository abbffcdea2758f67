/**
 * A settled run's AI summary written again on request (`svc executions
 * summarize`), after the researcher fixed what stopped the automatic one (a
 * key stored, summaries turned on, another model). It goes through the same
 * writer as the automatic step (ai-summary.ts writeSummary: the same provider
 * lookup, prompt, limits, scrubbing and lane claim), so the two can never
 * write one run's lane at once. A run that did not ask for AI may be
 * summarized too: the command is the request (the lane says `on_request`;
 * the run's own ai_enabled and parameters are left as they were, so a
 * restart asks what the run asked).
 */
import type { Context } from '../context.js';
import { conflict, notFound, SvcError } from '../errors.js';
import { resolveSummaryConnection } from './ai-connection.js';
import { presentLane, type AiLane } from './ai-lane.js';
import { storedAiSettings, type AiSettings } from './ai-settings.js';
import { baseLane, recordLane, writeSummary } from './ai-summary.js';
import { getExecution, restoreAiLane, type ExecutionRow } from './repo.js';
import type { RunSpec } from './request.js';

/** Why this run's lane cannot be written now, or null. */
function refusal(ctx: Context, id: number, row: ExecutionRow | undefined): SvcError | null {
  if (!row) return notFound('execution_not_found', `No execution ${id}; \`svc executions list\` shows them.`);
  if (row.status === 'running') return conflict('execution_running', `Execution ${id} is still running; its summary is written when it settles (\`svc executions show ${id}\`).`);
  if (row.result_count === 0) return conflict('no_documents', `Execution ${id} found no documents, so there is nothing to summarize.`);
  const lane = presentLane(row.ai_lane_json, row, ctx.clock.now().getTime());
  if (lane.state === 'writing' || lane.state === 'pending') return conflict('summary_being_written', `The summary of execution ${id} is being written right now; see it with \`svc executions show ${id}\` when it is done.`);
  return null;
}

/**
 * Write the summary of a settled run with documents now, in this process, and answer its lane
 * (written, or not_used with the reason). `asked` replaces the run's own ai_settings keys for this
 * attempt only. Refused (nothing sent) when the run is unknown, running, has no documents, or
 * its lane is being written by any process; a provider that cannot be reached as configured
 * (summaries off, no provider, no key) is a 422 with the lane's reason, the lane left as it was.
 * A `signal` aborted (Ctrl-C) leaves the lane as it was too and throws `cancelled`.
 * @example const lane = await summarizeOnRequest(ctx, 12, { model: 'gpt-4o-mini' }); lane.summary
 */
export async function summarizeOnRequest(ctx: Context, id: number, asked: AiSettings = {}, signal?: AbortSignal): Promise<AiLane> {
  const row = getExecution(ctx.db, id);
  const refused = refusal(ctx, id, row);
  if (refused) throw refused;
  const spec = JSON.parse(row!.parameters_json) as RunSpec;
  const stored = storedAiSettings(spec.aiSettings);
  const settings: AiSettings = { ...stored.settings, ...asked };
  const resolved = resolveSummaryConnection(ctx, settings);
  if (!resolved.ok) throw new SvcError(422, resolved.code, resolved.reason);
  const base: AiLane = { ...baseLane(row!, spec, settings, stored.ignored), on_request: true };
  const lane = await writeSummary(ctx, row!, base, spec, settings, resolved.connection, { signal, pendingIsMine: false });
  if (signal?.aborted && !lane?.used) {
    // Stopped by the researcher: nothing was decided, the lane says what it said before.
    if (lane !== null) restoreAiLane(ctx.db, id, row!.ai_lane_json);
    throw new SvcError(499, 'cancelled', 'Stopped before the summary was written; the run and its lane are as they were.');
  }
  if (lane === null) {
    // Not taken, or the run deleted meanwhile: say which, as for a refusal before.
    throw refusal(ctx, id, getExecution(ctx.db, id)) ?? conflict('summary_being_written', `The summary of execution ${id} is being written right now; see it with \`svc executions show ${id}\` when it is done.`);
  }
  if (!recordLane(ctx, id, lane)) throw refusal(ctx, id, undefined)!;
  return lane;
}
