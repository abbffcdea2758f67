/**
 * Conversations: creation (bound to choices at once), the legacy list,
 * browse by frozen id ceiling, detail with a snapshot, and delete.
 */
import type { Context } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { defaultChoices, explicitBasis, requireChoices, type ChoiceBasis, type Choices } from './choices.js';
import { routeDigest } from './connections.js';
import * as repo from './repo.js';
import { turnJob, turnRegistry } from './registry.js';
import { forgetJob } from '../claims/jobs.js';
import { browseRow, choicesView, messageView, sessionView, turnChoicesView } from './views.js';
import type { ActivityObservation, Conversation, ConversationDeleted, ConversationList, ConversationPage, ConversationSnapshot } from '../wire/assistant.js';

export interface CreateInput {
  /** undefined: capture the current defaults. */
  choices?: unknown;
  title?: string | null;
}

/** The choices a new conversation is bound to: those given, or the current defaults (undefined). */
export function choicesForNew(ctx: Context, given: unknown): { choices: Choices; basis: ChoiceBasis } {
  if (given === undefined) {
    const defaults = defaultChoices(ctx);
    if (!defaults.ok) throw badRequest('invalid_choices', defaults.error);
    return { choices: defaults.choices, basis: defaults.basis };
  }
  const choices = requireChoices(given);
  return { choices, basis: explicitBasis(choices) };
}

export function createSession(ctx: Context, input: CreateInput): Conversation {
  const { choices, basis } = choicesForNew(ctx, input.choices);
  const at = ctx.nowIso();
  const id = ctx.db.transaction(() => {
    const id = repo.insertSession(ctx.db, { title: input.title ?? null, runtime: choices.runtime, model: choices.model, at });
    repo.insertChoices(ctx.db, bindingRow(ctx, id, choices, basis, 'new', at));
    return id;
  })();
  return sessionDetail(ctx, id);
}

export function bindingRow(ctx: Context, sessionId: number, choices: Choices, basis: ChoiceBasis, binding: 'new' | 'legacy_confirmed', at: string): repo.ChoicesRow {
  return {
    session_id: sessionId,
    version: choices.version,
    runtime: choices.runtime,
    provider: choices.provider,
    requested_model: choices.model,
    requested_effort: choices.effort,
    ...basis,
    binding_basis: binding,
    route_digest: routeDigest(ctx, choices.runtime, choices.provider),
    created_at_utc: at,
  };
}

export function requireSession(ctx: Context, id: number): repo.SessionRow {
  const row = repo.getSession(ctx.db, id);
  if (!row) throw notFound('session_not_found', `No conversation ${id}.`);
  return row;
}

export const LEGACY_LIST_DEFAULT = 50;

export function legacyList(ctx: Context, limit = LEGACY_LIST_DEFAULT): ConversationList {
  const rows = repo.listSessions(ctx.db, limit);
  const choices = repo.choicesFor(ctx.db, rows.map((r) => r.id));
  return { sessions: rows.map((r) => browseRow(r, choices.get(r.id))) };
}

export interface BrowseQuery {
  limit: number;
  beforeId: bigint | null;
  throughId: bigint | null;
  q: string | null;
}

export function browseSessions(ctx: Context, query: BrowseQuery): ConversationPage {
  const throughId = query.throughId ?? BigInt(repo.maxSessionId(ctx.db));
  const rows = repo.browseSessions(ctx.db, { throughId, beforeId: query.beforeId, text: query.q || null, limit: query.limit + 1 });
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const choices = repo.choicesFor(ctx.db, page.map((r) => r.id));
  return {
    sessions: page.map((r) => browseRow(r, choices.get(r.id))),
    through_id: Number(throughId),
    next_before_id: hasMore ? page[page.length - 1]!.id : null,
    has_more: hasMore,
  };
}

/** The persisted conversation, read in one transaction, with the in-memory activity beside it. */
export function conversationSnapshot(ctx: Context, id: number) {
  const read = ctx.db.transaction(() => {
    const session = requireSession(ctx, id);
    return {
      session,
      choices: repo.getChoices(ctx.db, id),
      messages: repo.messagesOf(ctx.db, id),
      turns: repo.turnsOf(ctx.db, id),
      reports: repo.reportsOf(ctx.db, id),
    };
  });
  const data = read();
  const capturedAt = ctx.nowIso();
  const active = turnRegistry(ctx).observe(id);
  const snapshot: ConversationSnapshot = {
    captured_at_utc: capturedAt,
    basis: 'persisted_messages_only',
    message_count: data.messages.length,
    last_message_id: data.messages.length ? data.messages[data.messages.length - 1]!.id : null,
  };
  const activity: ActivityObservation = {
    observed_at_utc: ctx.nowIso(),
    turn_claimed: active.claimed,
    cli_running: active.cliPid !== null,
    basis: 'in_memory_observation_not_atomic_with_database',
  };
  const running: Conversation['running'] = { cli_running: active.cliPid !== null, pid: active.cliPid };
  return { ...data, snapshot, activity_observation: activity, running };
}

function totals(messages: repo.MessageRow[]): Conversation['totals'] {
  const sum = (pick: (m: repo.MessageRow) => number | null) => {
    const values = messages.map(pick).filter((v): v is number => v !== null);
    return values.length ? values.reduce((a, b) => a + b, 0) : null;
  };
  return { message_count: messages.length, input_tokens: sum((m) => m.input_tokens), output_tokens: sum((m) => m.output_tokens), cost_usd: sum((m) => m.cost_usd) };
}

export function sessionDetail(ctx: Context, id: number): Conversation {
  const s = conversationSnapshot(ctx, id);
  return {
    session: sessionView(s.session),
    messages: s.messages.map(messageView),
    totals: totals(s.messages),
    running: s.running,
    snapshot: s.snapshot,
    activity_observation: s.activity_observation,
    choices_version: 1,
    choices: choicesView(s.choices),
    turn_choices: turnChoicesView(s.turns, s.reports),
  };
}

export function deleteSession(ctx: Context, id: number): ConversationDeleted {
  // Check and delete in one write transaction: a turn another process claims meanwhile is either
  // seen (and the delete refused) or claims after the conversation is gone, never loses its claim.
  ctx.db
    .transaction(() => {
      requireSession(ctx, id);
      if (turnRegistry(ctx).observe(id).claimed) throw conflict('turn_active', `Conversation ${id} has a running turn; cancel it before deleting.`);
      repo.deleteSession(ctx.db, id);
      // What is left of a claim is stale (checked above); the conversation goes with it, as its messages do.
      forgetJob(ctx, turnJob(id));
    })
    .immediate();
  return { id, deleted: true };
}
