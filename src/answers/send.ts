/**
 * Send: hash-bound consent to a live preview. The selection is read again
 * and rebuilt; the request must hash to the consented value, the route and
 * rules must still allow it, then the answer is admitted and its run starts.
 * An identical repeated consent returns the answer it already admitted.
 */
import type { Context } from '../context.js';
import { availabilityOf, routeDigest } from '../assistant/connections.js';
import { requireProject } from '../evidence/service.js';
import { assemble } from './assemble.js';
import { LaneError, type Lane } from './lane.js';
import { LiveRun } from './live.js';
import { dropPreview, livePreview } from './previews.js';
import * as reasons from './reasons.js';
import { answersRepo } from './repo.js';
import { startRun } from './run.js';
import { apiLane, apiRoute } from './runtime-api.js';
import { cliLane, cliRoute } from './runtime-cli.js';
import { answersOf } from './service.js';
import type { AnswerChoices, AnswerView } from './types.js';
import { answerView } from './views.js';

export interface SendInput {
  expectedVaultId: string;
  projectId: string;
  expectedRuntimeId: string;
  previewId: string;
  requestSha256: string;
  confirmed: boolean;
  signal?: AbortSignal;
}

function laneFor(ctx: Context, choices: AnswerChoices): { lane: Lane; secrets: (string | undefined)[] } {
  try {
    if (choices.runtime === 'api_key') {
      const route = apiRoute(ctx, choices.provider);
      return { lane: apiLane(route), secrets: [route.key] };
    }
    return { lane: cliLane(cliRoute(ctx, choices.provider)), secrets: [] };
  } catch (err) {
    if (err instanceof LaneError) throw reasons.connectionUnavailable(err.message);
    throw err;
  }
}

/**
 * @example const { answer, replayed } = await sendAnswer(ctx, { expectedVaultId, projectId, expectedRuntimeId, previewId, requestSha256, confirmed: true })
 */
export async function sendAnswer(ctx: Context, input: SendInput): Promise<{ answer: AnswerView; replayed: boolean }> {
  if (input.confirmed !== true) throw reasons.notConfirmed();
  if (input.expectedRuntimeId !== ctx.runtimeId) throw reasons.runtimeMismatch(ctx.runtimeId);
  const answers = answersOf(ctx);
  const repo = answersRepo(ctx.db);
  const { project } = requireProject(ctx, { expectedVaultId: input.expectedVaultId, projectId: input.projectId });
  const existing = repo.byPreview(project.id, input.previewId);
  if (existing) {
    if (existing.request_sha256 !== input.requestSha256) throw reasons.requestHashMismatch();
    return { answer: answerView(existing), replayed: true };
  }
  const preview = livePreview(ctx, input.previewId);
  if (preview.projectRow !== project.id || preview.view.vault_id !== input.expectedVaultId) throw reasons.previewNotFound();
  if (preview.view.request_sha256 !== input.requestSha256) throw reasons.requestHashMismatch();
  if (answers.cleaning.size > 0) throw reasons.cleanupPending();
  const { runtime, provider } = preview.view.payload.choices;
  const status = availabilityOf(ctx, runtime, provider);
  if (!status.available) throw reasons.connectionUnavailable(status.reason ?? 'unavailable.');
  const route = routeDigest(ctx, runtime, provider);
  if (route !== preview.routeDigest) throw reasons.routeChanged();
  // Re-extract and recheck: the same selection must give the same request now.
  const again = await assemble(ctx, answers.limits, { ...preview.input, signal: input.signal });
  if (again.facts.request_sha256 !== input.requestSha256) throw reasons.requestChanged();
  const { lane, secrets } = laneFor(ctx, again.payload.choices);
  const answerId = ctx.random.uuid();
  const row = repo.transaction(() => {
    const raced = repo.byPreview(project.id, input.previewId);
    if (raced) return { row: raced, replayed: true };
    if (repo.count(project.id).n >= answers.limits.answersPerProject) throw reasons.answerLimit(answers.limits.answersPerProject);
    repo.insert({
      answer_id: answerId,
      project_row: project.id,
      preview_id: input.previewId,
      request_sha256: again.facts.request_sha256,
      request_json: JSON.stringify(again.payload),
      owner_runtime_id: ctx.runtimeId,
      route_digest: route,
      created_at_utc: ctx.nowIso(),
    });
    return { row: repo.byId(project.id, answerId)!, replayed: false };
  });
  if (row.replayed) return { answer: answerView(row.row), replayed: true };
  dropPreview(ctx, input.previewId);
  const live = new LiveRun(
    { answer_id: answerId, request_sha256: again.facts.request_sha256, project_id: project.project_id, vault_id: again.vault.vault_id, runtime_id: ctx.runtimeId },
    answers.limits,
  );
  const view = answerView(row.row);
  startRun(ctx, { answerId, projectRow: project.id, payload: again.payload, requestSha: again.facts.request_sha256, lane, secrets }, live);
  return { answer: view, replayed: false };
}
