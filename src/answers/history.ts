/**
 * Reading saved answers (history and one answer), cancelling a live one,
 * watching it, and marking runs a previous process left behind interrupted.
 */
import type { Context } from '../context.js';
import { requireProject, type ProjectRef } from '../evidence/service.js';
import type { Subscriber } from './live.js';
import { selectionLimits } from './limits.js';
import * as reasons from './reasons.js';
import { answersRepo } from './repo.js';
import { answersOf } from './service.js';
import type { AnswerPage, AnswerView } from './types.js';
import { answerSummary, answerView } from './views.js';

export function listAnswers(ctx: Context, req: ProjectRef & { afterId?: number; throughId?: number; limit?: number }): AnswerPage {
  const repo = answersRepo(ctx.db);
  return repo.transaction(() => {
    const { vault, project } = requireProject(ctx, req);
    const limits = answersOf(ctx).limits;
    const max = limits.historyPage;
    const afterId = req.afterId ?? 0;
    const throughId = req.throughId ?? repo.count(project.id).max_id;
    const limit = Math.min(req.limit ?? max, max);
    const rows = repo.page({ projectRow: project.id, afterId, throughId, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return {
      contract_version: 1,
      vault_id: vault.vault_id,
      project_id: project.project_id,
      answers: page.map(answerSummary),
      through_id: throughId,
      next_after_id: hasMore ? page[page.length - 1]!.id : null,
      has_more: hasMore,
      total: repo.total(project.id, throughId),
      selection_limits: selectionLimits(limits),
    };
  });
}

function requireAnswer(ctx: Context, ref: ProjectRef & { answerId: string }) {
  const { project } = requireProject(ctx, ref);
  const row = answersRepo(ctx.db).byId(project.id, ref.answerId);
  if (!row) throw reasons.answerNotFound();
  return { project, row };
}

export function showAnswer(ctx: Context, ref: ProjectRef & { answerId: string }): AnswerView {
  return answerView(requireAnswer(ctx, ref).row);
}

/** Cancel the exact owner's live run; the terminal state is saved at once. */
export function cancelAnswer(ctx: Context, ref: ProjectRef & { answerId: string; expectedRuntimeId: string }): AnswerView {
  if (ref.expectedRuntimeId !== ctx.runtimeId) throw reasons.runtimeMismatch(ctx.runtimeId);
  const { project, row } = requireAnswer(ctx, ref);
  if (row.state !== 'admitted' && row.state !== 'running') throw reasons.answerNotLive(row.state);
  const live = answersOf(ctx).live.get(row.answer_id);
  if (row.owner_runtime_id !== ctx.runtimeId || !live) throw reasons.notOwner();
  live.stop('cancel_requested');
  return answerView(answersRepo(ctx.db).byId(project.id, row.answer_id)!);
}

/** Attach the one subscriber of a live answer (first frame: the saved snapshot). */
export function watchAnswer(ctx: Context, ref: ProjectRef & { answerId: string; expectedRuntimeId: string }): Subscriber {
  if (ref.expectedRuntimeId !== ctx.runtimeId) throw reasons.runtimeMismatch(ctx.runtimeId);
  const { project, row } = requireAnswer(ctx, ref);
  if (row.owner_runtime_id !== ctx.runtimeId) throw reasons.notOwner();
  const live = answersOf(ctx).live.get(row.answer_id);
  if (!live) {
    if (row.state === 'cancelled' && row.error_reason === 'attach_timeout') throw reasons.attachExpired();
    throw reasons.answerNotLive(row.state);
  }
  const sub = live.attach(() => answerView(answersRepo(ctx.db).byId(project.id, row.answer_id)!));
  if (!sub) throw reasons.subscriberTaken();
  return sub;
}

/** At service start: runs left admitted or running by a process that is gone become interrupted. */
export function recoverInterrupted(ctx: Context): string[] {
  const repo = answersRepo(ctx.db);
  const live = answersOf(ctx).live;
  const marked: string[] = [];
  for (const id of repo.orphans()) {
    if (live.has(id)) continue;
    const won = repo.finish(
      id,
      { state: 'interrupted', completion: 'unknown', cleanup: 'unknown', error_reason: 'interrupted', error_message: 'svc restarted during the run; the text saved so far is kept; nothing was re-run.' },
      ctx.nowIso(),
    );
    if (won) marked.push(id);
  }
  return marked;
}
