/**
 * Admission of a send, in the spec's order: resolve the fixed runtime once,
 * check local availability, claim the per-session bus, then under the
 * database write lock recheck the binding and the configured locator and
 * commit the user message with its requested-choice snapshot. Nothing is
 * written when any step refuses.
 */
import type { Context } from '../context.js';
import { isoUtc } from '../clock.js';
import { conflict, SvcError } from '../errors.js';
import { findApiProvider } from '../providers/provider-catalog.js';
import { explicitBasis, requireChoices, type Choices } from './choices.js';
import { apiBaseUrl, availabilityOf, cliBinary, routeDigest } from './connections.js';
import { frameQueue, type FrameQueue } from './frames.js';
import { turnRegistry, type CancelResult } from './registry.js';
import type { CancelAnswer } from '../wire/assistant.js';
import * as repo from './repo.js';
import { runTurn, type Lane, type RunOptions } from './runner.js';
import { bindingRow, requireSession } from './sessions.js';
import { CLI_PROVIDERS } from '../providers/provider-catalog.js';
import { permissionBroker, type PermissionAnnouncement } from './permissions.js';

export interface SendBody {
  text: string;
  legacy_adoption?: { confirmed: boolean; choices: unknown } | null;
}

export interface AdmittedTurn {
  sessionId: number;
  userMessageId: number;
  turnId: number;
  frames: FrameQueue;
  /** Ask the worker to stop (a reader went away); the claim stays until it finishes. */
  abandon(): void;
  finished: Promise<void>;
}

function resolveLane(ctx: Context, choices: Choices): Lane {
  const availability = availabilityOf(ctx, choices.runtime, choices.provider);
  if (!availability.available) throw new SvcError(503, 'assistant_unavailable', availability.reason ?? 'The assistant cannot run this connection here.');
  if (choices.runtime === 'api_key') {
    const provider = findApiProvider(choices.provider)!;
    const key = ctx.credentials.reveal(provider.credential);
    if (!key) throw new SvcError(503, 'assistant_unavailable', `No ${provider.label} key is stored.`);
    return { kind: 'api', provider, baseUrl: apiBaseUrl(ctx, provider), key };
  }
  const binary = cliBinary(ctx, CLI_PROVIDERS.find((c) => c.id === choices.provider)!);
  if (!binary) throw new SvcError(503, 'assistant_unavailable', 'The agent CLI was not found.');
  return { kind: 'cli', binary };
}

/**
 * Refuse a connection this machine cannot run now (no key stored, no agent CLI) as a send
 * would, before anything is written: `svc chat` checks it before it creates a conversation.
 */
export function requireRunnable(ctx: Context, choices: Choices): void {
  resolveLane(ctx, choices);
}

function boundChoices(row: repo.ChoicesRow): Choices {
  return { version: 1, runtime: row.runtime as Choices['runtime'], provider: row.provider, model: row.requested_model, effort: row.requested_effort };
}

export function sendMessage(ctx: Context, sessionId: number, body: SendBody, options: RunOptions = {}): AdmittedTurn {
  const session = requireSession(ctx, sessionId);
  const binding = repo.getChoices(ctx.db, sessionId);
  const adoption = body.legacy_adoption ?? null;
  let choices: Choices;
  if (binding) {
    if (adoption !== null) throw conflict('already_bound', `Conversation ${sessionId} is already bound to a connection; send text only.`);
    choices = boundChoices(binding);
  } else {
    if (adoption === null || adoption.confirmed !== true) {
      throw conflict('legacy_adoption_required', `Conversation ${sessionId} predates connection choices; confirm a legacy_adoption with complete choices on its first send.`);
    }
    choices = requireChoices(adoption.choices);
    if (session.runtime !== null && session.runtime !== choices.runtime) {
      throw conflict('runtime_change_requires_new_conversation', `Conversation ${sessionId} ran on ${session.runtime}; start a new conversation to use ${choices.runtime}.`);
    }
  }

  const lane = resolveLane(ctx, choices); // resolved once for this turn
  const registry = turnRegistry(ctx);
  const active = registry.claim(sessionId);
  if (!active) throw conflict('turn_active', `Conversation ${sessionId} already has a running turn; wait for it or cancel it.`);

  let admitted: { userMessageId: number; turnId: number; native: string | null; at: string };
  try {
    admitted = ctx.db.transaction(() => {
      const now = repo.getChoices(ctx.db, sessionId);
      const digest = routeDigest(ctx, choices.runtime, choices.provider);
      const at = ctx.nowIso();
      let native = repo.getSession(ctx.db, sessionId)?.native_session_id ?? null;
      if (binding) {
        if (!now || now.route_digest !== binding.route_digest) throw conflict('binding_changed', `Conversation ${sessionId} changed while this send was admitted; reload it.`);
        if (now.route_digest !== digest) {
          throw conflict('locator_changed', `The configured location of this conversation's connection changed since it was bound; start a new conversation.`);
        }
      } else {
        if (now) throw conflict('adoption_stale', `Conversation ${sessionId} was adopted by another send meanwhile; send text only.`);
        repo.insertChoices(ctx.db, bindingRow(ctx, sessionId, choices, explicitBasis(choices), 'legacy_confirmed', at));
        // CLI adoption starts a fresh native session; earlier messages stay local and unsent.
        if (choices.runtime === 'agent_cli') {
          repo.setNativeSession(ctx.db, sessionId, null);
          native = null;
        }
      }
      const userMessageId = repo.insertMessage(ctx.db, { session_id: sessionId, role: 'user', content: body.text, at });
      const turnId = repo.insertTurn(ctx.db, {
        session_id: sessionId,
        user_message_id: userMessageId,
        version: 1,
        runtime: choices.runtime,
        provider: choices.provider,
        requested_model: choices.model,
        requested_effort: choices.effort,
        created_at_utc: at,
      });
      return { userMessageId, turnId, native, at };
    }).immediate();
  } catch (err) {
    registry.release(active);
    throw err;
  }

  const frames = frameQueue();
  frames.push({
    event: 'turn_choices',
    data: { session_id: sessionId, user_message_id: admitted.userMessageId, assistant_message_id: null, requested: choices, reports: [], created_at_utc: admitted.at },
  });
  const off = ctx.bus.on('assistant.permission', (payload) => {
    const p = payload as PermissionAnnouncement;
    if (p.session_id !== sessionId) return;
    const at = { user_message_id: admitted.userMessageId };
    if (p.kind === 'opened') {
      const { kind: _, ...request } = p;
      frames.push({ event: 'permission_request', data: { ...request, ...at } });
    } else {
      const { kind: _, ...answer } = p;
      frames.push({ event: 'permission_answered', data: { ...answer, ...at } });
    }
  });
  const finished = runTurn(
    ctx,
    { sessionId, userMessageId: admitted.userMessageId, turnId: admitted.turnId, choices, lane, text: body.text, nativeSessionId: admitted.native, active, frames },
    options,
  ).finally(() => {
    off();
    permissionBroker(ctx).denyAll(sessionId, 'The turn ended before an answer.');
    frames.end();
    registry.release(active);
  });
  return {
    sessionId,
    userMessageId: admitted.userMessageId,
    turnId: admitted.turnId,
    frames,
    finished,
    abandon() {
      active.cancelRequested = true;
      active.controller.abort();
    },
  };
}

function cancelMessage(sessionId: number, r: CancelResult): string {
  if (r.stale) {
    const why = r.stale.reason === 'before_boot' ? 'from before the machine last started' : `left by process ${r.stale.pid}, which no longer runs`;
    return `Conversation ${sessionId} has no running turn: its claim is ${why}; the next message takes it over.`;
  }
  if (r.outcome === 'no_active_turn') return `Conversation ${sessionId} has no running turn.`;
  if (r.outcome === 'already_cancelling') return `Conversation ${sessionId}'s turn is already stopping.`;
  return r.owner === 'other_process'
    ? `Asked the other process running conversation ${sessionId}'s turn to stop it; it stops within a second.`
    : `Stopping conversation ${sessionId}'s turn.`;
}

export function cancelTurn(ctx: Context, sessionId: number): CancelAnswer {
  requireSession(ctx, sessionId);
  const r = turnRegistry(ctx).cancel(sessionId);
  const stale = r.stale && { pid: r.stale.pid, claimed_at_utc: isoUtc(new Date(r.stale.claimedAtMs)), reason: r.stale.reason };
  return { session_id: sessionId, outcome: r.outcome, cancelled: r.outcome !== 'no_active_turn', owner: r.owner, stale_claim: stale, message: cancelMessage(sessionId, r) };
}

/** The runtime a conversation is bound to (agent_cli or api_key), or null before binding. */
export function boundRuntime(ctx: Context, sessionId: number): string | null {
  return repo.getChoices(ctx.db, sessionId)?.runtime ?? null;
}
