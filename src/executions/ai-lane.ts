/**
 * The AI lane of one execution (executions.ai_lane_json, updated in place):
 * whether the run asked for a summary, whether one was written, by which
 * provider and model, from how many documents — or, when none was, the
 * reason with what to do about it. A summary is always labelled as the
 * model's, unchecked.
 */

/** Shown with every summary, wherever it appears. */
export const SUMMARY_CAVEAT = 'model-written, not checked against the papers';

import type { AiLane, LaneReasonCode as ReasonCode } from '../wire/executions.js';

export type { AiLane, LaneReasonCode as ReasonCode, LaneState } from '../wire/executions.js';

export const NOT_REQUESTED: AiLane = { requested: false, used: false };

/** The lane a run starts with: asked for, decided when the run settles. */
export function pendingLane(provider: string | null, model: string | null): AiLane {
  return { requested: true, used: false, state: 'pending', provider, model, reason_code: null, reason: 'The summary is written when the run settles.' };
}

export const RUN_INTERRUPTED_REASON = 'The run was interrupted before it settled, so no summary was written; restart it with `svc executions restart <id>` for a new run.';

/** Reasons that depend on the run, not on the settings. */
export function runReason(status: string, resultCount: number): { code: ReasonCode; reason: string } | null {
  if (status === 'failed') return { code: 'run_failed', reason: 'The run failed, so no summary was written; summaries are written for runs that complete with documents.' };
  if (status === 'cancelled') return { code: 'run_cancelled', reason: 'The run was cancelled, so no summary was written; summaries are written for runs that complete with documents.' };
  if (status === 'interrupted') return { code: 'run_interrupted', reason: RUN_INTERRUPTED_REASON };
  if (resultCount === 0) return { code: 'no_documents', reason: 'The run found no documents, so there was nothing to summarize.' };
  return null;
}

/** A settled run's lane still pending this long after settling was never picked up (the step starts at once). */
export const PENDING_GRACE_MS = 60_000;
/** A lane still writing this long past its deadline was left by a process that went away. */
export const WRITING_GRACE_MS = 5000;

/**
 * The lane as a read shows it. A lane left pending or writing on a settled run whose
 * attempt can no longer end (its process went away) says so rather than "being written".
 */
export function presentLane(raw: string | null, row: { status: string; finished_at_utc: string | null }, nowMs: number): AiLane {
  const lane = raw ? (JSON.parse(raw) as AiLane) : NOT_REQUESTED;
  if (!lane.requested || row.status === 'running') return lane;
  const settledAt = row.finished_at_utc ? Date.parse(row.finished_at_utc) : 0;
  const stale =
    (lane.state === 'pending' && settledAt + PENDING_GRACE_MS < nowMs) ||
    (lane.state === 'writing' && lane.deadline_utc !== undefined && Date.parse(lane.deadline_utc) + WRITING_GRACE_MS < nowMs);
  if (!stale) return lane;
  return { ...lane, state: 'not_used', used: false, reason_code: 'not_written', reason: "svc stopped before the summary was written (the process that ran it went away); the run's results are kept." };
}

/** One line for a digest, a log or a terminal: what the lane did. */
export function laneLine(lane: AiLane): string {
  if (!lane.requested) return 'AI summary: none, AI was off for this run.';
  if (lane.used) return `AI summary by ${lane.provider ?? '?'} / ${lane.model ?? '?'} (${SUMMARY_CAVEAT}; ${lane.documents_considered ?? 0} of ${lane.documents_total ?? 0} documents considered)`;
  if (lane.state === 'pending' || lane.state === 'writing') return 'AI summary: being written.';
  return `AI summary: none — ${lane.reason ?? 'no reason was recorded.'}`;
}
