/**
 * The after-run step that writes a run's AI summary when the run asked for
 * one (ai_enabled): it runs after the run has settled (its status is stored
 * and never changed here), before the routine's deliveries are built, so a
 * digest can carry it. One request, bounded by ctx.tuning.aiSummaryTimeoutMs;
 * whatever happens is recorded in the execution's ai_lane, with a reason that
 * says what to do when no summary was written.
 */
import type { Context } from '../context.js';
import { scrub, UpstreamError } from '../providers/index.js';
import { askModel, resolveSummaryConnection, type SummaryConnection } from './ai-connection.js';
import { PENDING_GRACE_MS, SUMMARY_CAVEAT, WRITING_GRACE_MS, laneLine, runReason, type AiLane, type ReasonCode } from './ai-lane.js';
import { SUMMARY_DOCUMENT_LIMIT, SUMMARY_SYSTEM, summaryPrompt } from './ai-prompt.js';
import { quotableKey, storedAiSettings, UNQUOTED_KEY, type AiSettings } from './ai-settings.js';
import type { SettledExecution } from './after-run.js';
import { summaryCandidates } from './documents.js';
import { appendEvent } from './events.js';
import { claimAiLane, getExecution, setAiLane, type ExecutionRow } from './repo.js';
import { REPORT_DOCUMENT_LIMIT, writeReportFile } from './report.js';
import type { RunSpec } from './request.js';
import { plainText } from '../util/plain-text.js';
import { abortWhen } from '../util/abort-when.js';

/** Stored summary text at most (characters); a longer answer is cut and marked. */
export const SUMMARY_TEXT_LIMIT = 6000;


/** A reason is one line: no key, no URL user name or password, not too long. */
function scrubbed(text: string, secrets: readonly (string | undefined)[]): string {
  return scrub(text, secrets)
    .replace(/\s+/g, ' ')
    .slice(0, 400);
}

function failureReason(err: unknown, c: SummaryConnection, timedOut: boolean, timeoutMs: number): { code: ReasonCode; reason: string } {
  const secrets = c.kind === 'api' ? [c.key] : [];
  if (timedOut) return { code: 'timeout', reason: `The model did not finish within ${Math.round(timeoutMs / 1000)} s, so no summary was written; the run's results are unaffected.` };
  if (err instanceof UpstreamError) {
    const said = scrubbed(err.message, secrets);
    if (err.kind === 'unauthorized' && c.kind === 'api') {
      const name = c.provider.credential;
      return { code: 'upstream_refused', reason: `${said} Store a working key with \`svc credentials set ${name}\` (\`svc credentials validate ${name}\` checks it).` };
    }
    if (err.kind === 'not_found') return { code: 'upstream_failed', reason: `${said} If the model "${c.model ?? 'default'}" is not one the provider serves, set another with \`svc settings set ai model <id>\` or the run's ai_settings.model.` };
    return { code: 'upstream_failed', reason: said };
  }
  const name = err instanceof Error ? err.name : 'Error';
  const message = err instanceof Error ? scrubbed(err.message, secrets) : '';
  return { code: 'upstream_failed', reason: `The model request failed (${name}${message ? `: ${message}` : ''}).` };
}

const notUsed = (base: AiLane, code: ReasonCode, reason: string, extra: Partial<AiLane> = {}): AiLane => ({ ...base, ...extra, used: false, state: 'not_used', summary: null, reason_code: code, reason });

/** What a writer that has taken the lane may not overwrite: a lane another writer holds (presentLane's grace). */
export function heldCutoffs(ctx: Context, pendingIsMine: boolean): { writingAfter: string; pendingSettledAfter: string | null } {
  const now = ctx.clock.now().getTime();
  return { writingAfter: new Date(now - WRITING_GRACE_MS).toISOString(), pendingSettledAfter: pendingIsMine ? null : new Date(now - PENDING_GRACE_MS).toISOString() };
}

/**
 * Take the lane (state writing, with its deadline) and ask the model once: the lane decided, or
 * null when the lane could not be taken (another writer holds it, the run is gone or has no
 * documents) or the run was deleted while the model was asked. The automatic step and
 * `svc executions summarize` both write through here: the same prompt, limits and scrubbing.
 */
export async function writeSummary(
  ctx: Context,
  row: ExecutionRow,
  base: AiLane,
  spec: RunSpec,
  settings: AiSettings,
  c: SummaryConnection,
  options: { signal?: AbortSignal; pendingIsMine: boolean },
): Promise<AiLane | null> {
  const id = row.id;
  const { signal } = options;
  const docs = summaryCandidates(ctx, id, REPORT_DOCUMENT_LIMIT, SUMMARY_DOCUMENT_LIMIT);
  const prompt = summaryPrompt(spec, { results: row.result_count, fresh: row.new_count }, docs, settings.instructions);
  const asked = { provider: c.kind === 'api' ? c.provider.id : c.cli.id, requested_model: c.model, model: c.model, documents_considered: prompt.considered };
  const timeoutMs = ctx.tuning.aiSummaryTimeoutMs;
  const writing = { ...base, ...asked, state: 'writing' as const, reason: 'The summary is being written.', deadline_utc: new Date(ctx.clock.now().getTime() + timeoutMs).toISOString() };
  // One writer at a time, across processes; a run deleted meanwhile is not claimed either (the model is not asked).
  if (!claimAiLane(ctx.db, id, writing, heldCutoffs(ctx, options.pendingIsMine))) return null;
  const timeout = AbortSignal.timeout(timeoutMs);
  // A delete here aborts `signal`; one from another process (the CLI while the server writes, or the
  // other way) is seen by looking at the row every few seconds, so the request does not run on to its timeout.
  const gone = abortWhen(() => !getExecution(ctx.db, id), ctx.tuning.aiSummaryGonePollMs);
  const started = Date.now();
  try {
    const answer = await askModel(ctx, c, { system: SUMMARY_SYSTEM, user: prompt.user, signal: AbortSignal.any([timeout, gone.signal, ...(signal ? [signal] : [])]), maxChars: SUMMARY_TEXT_LIMIT });
    // Kept as lines of plain text (util/plain-text.ts): `svc executions show` and the report print it as it is.
    const text = plainText(scrub(answer.text, c.kind === 'api' ? [c.key] : [])).trim();
    const metered = { input_tokens: answer.inputTokens, output_tokens: answer.outputTokens, ms: Date.now() - started };
    if (!text) return notUsed(base, 'empty_answer', 'The model answered with no text, so no summary was written; try again with another model (`svc settings set ai model <id>`).', { ...asked, ...metered });
    const truncated = answer.truncated || text.length > SUMMARY_TEXT_LIMIT;
    return {
      ...base,
      ...asked,
      ...metered,
      used: true,
      state: 'written',
      model: answer.reportedModel ?? c.model,
      model_reported: answer.reportedModel !== null,
      summary: truncated ? `${text.slice(0, SUMMARY_TEXT_LIMIT - 1).trimEnd()}…` : text,
      summary_truncated: truncated,
      caveat: SUMMARY_CAVEAT,
      reason_code: null,
      reason: null,
    };
  } catch (err) {
    if (gone.signal.aborted) return null;
    if (signal?.aborted && !timeout.aborted) return notUsed(base, 'shutdown', 'svc shut down before the summary was written; the run\'s results are kept.', asked);
    const { code, reason } = failureReason(err, c, timeout.aborted, timeoutMs);
    return notUsed(base, code, reason, { ...asked, ms: Date.now() - started });
  } finally {
    gone.stop();
  }
}

/** The lane decided; null when the run was deleted before the model was asked. */
async function decide(ctx: Context, id: number, base: AiLane, spec: RunSpec, signal: AbortSignal | undefined): Promise<AiLane | null> {
  const row = getExecution(ctx.db, id)!;
  const early = runReason(row.status, row.result_count);
  if (early) return notUsed(base, early.code, early.reason);
  const { settings } = storedAiSettings(spec.aiSettings);
  const resolved = resolveSummaryConnection(ctx, settings);
  if (!resolved.ok) return notUsed(base, resolved.code, resolved.reason);
  return writeSummary(ctx, row, base, spec, settings, resolved.connection, { signal, pendingIsMine: true });
}

/** The lane a writer starts from: what the run asked, before the model is. */
export function baseLane(row: ExecutionRow, spec: RunSpec, settings: AiSettings, ignored: string[]): AiLane {
  const stored = row.ai_lane_json ? (JSON.parse(row.ai_lane_json) as AiLane) : { requested: true, used: false };
  return {
    requested: true,
    used: false,
    provider: stored.provider ?? null,
    model: stored.model ?? null,
    documents_considered: 0,
    documents_total: row.result_count,
    instructions_given: settings.instructions !== undefined,
    ...(ignored.length || spec.aiSettingsIgnored?.length ? { ignored_ai_settings: [...new Set([...(spec.aiSettingsIgnored ?? []).map((k) => quotableKey(k) ?? UNQUOTED_KEY), ...ignored])] } : {}),
  };
}

/** Store a decided lane, write the report again and log the line; false when the run is gone. */
export function recordLane(ctx: Context, id: number, lane: AiLane): boolean {
  lane.decided_at_utc = ctx.nowIso();
  // A run deleted while its summary was written (from any process) has no lane, report or log to record it in.
  if (!setAiLane(ctx.db, id, lane)) return false;
  // The report written at settling said "being written": it now says what happened.
  writeReportFile(ctx, id);
  appendEvent(ctx, id, 'log', laneLine(lane), {
    level: lane.used || lane.reason_code === 'no_documents' || lane.reason_code === 'run_cancelled' ? 'info' : 'warn',
    data: { ai_lane: { used: lane.used, reason_code: lane.reason_code ?? null, provider: lane.provider ?? null, model: lane.model ?? null, documents_considered: lane.documents_considered ?? 0, ...(lane.on_request ? { on_request: true } : {}) } },
  });
  return true;
}

/**
 * @example await summarizeAfterRun(ctx, { id: 12, status: 'completed' }) // writes ai_lane, then the report again
 */
export async function summarizeAfterRun(ctx: Context, settled: SettledExecution): Promise<void> {
  const row = getExecution(ctx.db, settled.id);
  if (!row || row.ai_enabled !== 1) return;
  const spec = JSON.parse(row.parameters_json) as RunSpec;
  const { settings, ignored } = storedAiSettings(spec.aiSettings);
  const base = baseLane(row, spec, settings, ignored);
  let lane: AiLane | null;
  try {
    lane = await decide(ctx, row.id, base, spec, settled.signal);
  } catch (err) {
    // A bug here must not leave the lane "writing" forever, nor reach the run.
    lane = { ...base, used: false, state: 'not_used', reason_code: 'upstream_failed', reason: `svc could not write the summary (${err instanceof Error ? err.name : 'Error'}).` };
  }
  if (lane === null) return;
  recordLane(ctx, row.id, lane);
}
