/**
 * One answer's run: admitted → running → exactly one terminal state. The
 * model text streams into a durable prefix; at the end the whole text is
 * validated strictly (no repair request). Cancellation (route, disconnect,
 * overflow, missed attach) is saved at once and wins; the lane's cleanup is
 * recorded when it is confirmed. A shutdown saves interrupted.
 */
import type { Context } from '../context.js';
import { isSvcError } from '../errors.js';
import { scrub, UpstreamError } from '../providers/errors.js';
import type { Lane, LaneEvent } from './lane.js';
import { LaneError } from './lane.js';
import { LiveRun, type StopReason } from './live.js';
import { validateAnswerOutput } from './output-validate.js';
import { SYSTEM_PROMPT, userPrompt } from './prompt.js';
import { answersRepo, type Terminal } from './repo.js';
import { answersOf } from './service.js';
import type { AnswerOutputRecord, AnswerUsage, AnswerView, ModelObservation, RequestPayload } from './types.js';
import { answerView } from './views.js';

const CANCEL_MESSAGES: Record<StopReason, string> = {
  cancel_requested: 'Cancelled on request.',
  subscriber_disconnected: 'Cancelled: the subscriber went away.',
  queue_overflow: 'Cancelled: the subscriber did not keep up with the event queue.',
  attach_timeout: 'Cancelled: nobody watched the answer within the attach window.',
  shutdown: 'svc shut down during the run; what streamed so far is kept.',
};

export interface RunJob {
  answerId: string;
  projectRow: number;
  payload: RequestPayload;
  requestSha: string;
  lane: Lane;
  secrets: readonly (string | undefined)[];
}

/** The saved public view of this answer now. */
export function currentView(ctx: Context, projectRow: number, answerId: string): AnswerView {
  return answerView(answersRepo(ctx.db).byId(projectRow, answerId)!);
}

/** Start the run in the background; answers its live handle. */
export function startRun(ctx: Context, job: RunJob, live: LiveRun): void {
  const answers = answersOf(ctx);
  answers.live.set(job.answerId, live);
  live.done = execute(ctx, job, live).finally(() => answers.live.delete(job.answerId));
}

async function execute(ctx: Context, job: RunJob, live: LiveRun): Promise<void> {
  const { limits, spawn } = answersOf(ctx);
  const repo = answersRepo(ctx.db);
  const now = () => ctx.nowIso();
  const terminal = (t: Terminal): boolean => {
    const won = repo.finish(job.answerId, t, now());
    if (won) {
      live.push('terminal', currentView(ctx, job.projectRow, job.answerId));
      live.end();
    }
    return won;
  };
  let text = '';
  // A cancellation is saved at once: further publication stops; the lane's cleanup follows.
  const onStop = () => {
    const reason = live.stopReason ?? 'cancel_requested';
    if (reason === 'shutdown') {
      terminal({ state: 'interrupted', completion: 'unknown', cleanup: 'unknown', error_reason: 'interrupted', error_message: CANCEL_MESSAGES.shutdown, partial_text: text });
    } else {
      if (terminal({ state: 'cancelled', completion: 'unknown', cleanup: 'pending', error_reason: reason, error_message: CANCEL_MESSAGES[reason], partial_text: text })) answersOf(ctx).cleaning.add(job.answerId);
    }
  };
  live.controller.signal.addEventListener('abort', onStop, { once: true });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.deadlineMs);
  const signal = AbortSignal.any([live.controller.signal, deadline.signal]);
  let usage: AnswerUsage | null = null;
  let model: ModelObservation | null = null;
  let done = false;
  let lastSave = 0;
  try {
    // Admitted until the one subscriber attaches (or the attach window cancels it).
    await Promise.race([live.attachedOnce, new Promise((resolve) => live.controller.signal.addEventListener('abort', resolve, { once: true }))]);
    if (live.controller.signal.aborted) return;
    if (!repo.start(job.answerId, now())) return;
    live.push('progress', { state: 'running', stage: 'started' });
    const events = job.lane({ ctx, limits, payload: job.payload, system: SYSTEM_PROMPT, user: userPrompt(job.payload, job.requestSha), signal, spawn });
    for await (const e of events as AsyncIterable<LaneEvent>) {
      if (signal.aborted) break;
      switch (e.type) {
        case 'text': {
          const safe = scrub(e.text, job.secrets);
          if (Buffer.byteLength(text + safe, 'utf8') > limits.modelTextBytes) throw new LaneError('output_too_large', `The model text exceeds ${limits.modelTextBytes} bytes.`);
          text += safe;
          live.push('partial', { text: safe });
          if (Date.now() - lastSave > 200) {
            repo.prefix(job.answerId, text, now());
            lastSave = Date.now();
          }
          break;
        }
        case 'model':
          model = { model: e.model, source: e.source };
          repo.reports(job.answerId, null, JSON.stringify(model), now());
          live.push('report', { reported_model: model });
          break;
        case 'usage':
          usage = { input_tokens: e.inputTokens, output_tokens: e.outputTokens, provenance: e.inputTokens === null && e.outputTokens === null ? 'not_reported' : 'reported', source: e.source, billing: 'unknown' };
          repo.reports(job.answerId, JSON.stringify(usage), null, now());
          live.push('report', { usage });
          break;
        case 'native_session':
          repo.session(job.answerId, e.id, now());
          break;
        case 'progress':
          live.push('progress', { state: 'running', stage: e.stage });
          break;
        case 'done':
          done = true;
          break;
      }
    }
    if (signal.aborted) throw new LaneError('aborted', 'aborted');
    repo.prefix(job.answerId, text, now());
    if (!done) throw new LaneError('no_completion', 'The runtime ended without reporting completion.');
    const checked = validateAnswerOutput(text, { request_sha256: job.requestSha, mode: job.payload.mode, sources: job.payload.sources, notes: job.payload.notes });
    const output: AnswerOutputRecord = checked.ok ? { validated: true, result: checked.result } : { validated: false, text, reason: checked.reason, detail: checked.detail };
    terminal({
      state: checked.ok ? 'succeeded' : 'failed',
      output_json: JSON.stringify(output),
      error_reason: checked.ok ? null : 'output_invalid',
      error_message: checked.ok ? null : `The output failed strict validation (${checked.reason}); it is kept unvalidated.`,
      completion: 'completed',
      cleanup: 'confirmed',
      partial_text: text,
    });
  } catch (err) {
    if (live.controller.signal.aborted) return; // saved by onStop
    const [reason, message] = failure(err, deadline.signal.aborted, limits.deadlineMs, job.secrets);
    if (!(err instanceof LaneError || err instanceof UpstreamError || isSvcError(err) || deadline.signal.aborted)) ctx.log.error('answer run failed', { answer_id: job.answerId, error: scrub(String(err), job.secrets) });
    const output: AnswerOutputRecord | null = text ? { validated: false, text, reason, detail: message } : null;
    terminal({ state: 'failed', output_json: output ? JSON.stringify(output) : null, error_reason: reason, error_message: message, completion: done ? 'completed' : 'unknown', cleanup: 'confirmed', partial_text: text });
  } finally {
    clearTimeout(timer);
    live.controller.signal.removeEventListener('abort', onStop);
    // The lane's generator has returned (its child or request is gone): cleanup is confirmed.
    if (answersOf(ctx).cleaning.delete(job.answerId)) repo.cleanup(job.answerId, 'confirmed', now());
    live.end();
  }
}

function failure(err: unknown, deadline: boolean, deadlineMs: number, secrets: readonly (string | undefined)[]): [string, string] {
  if (deadline) return ['deadline_exceeded', `The answer was not complete within ${deadlineMs} ms.`];
  if (err instanceof LaneError) return [err.reason, scrub(err.message, secrets)];
  if (err instanceof UpstreamError) return [`upstream_${err.kind}`, scrub(err.message, secrets)];
  if (isSvcError(err)) return [err.reason, scrub(err.message, secrets)];
  return ['runtime_failed', 'The runtime failed unexpectedly.'];
}
