/**
 * Permission requests from a running turn: the opener's request is held open
 * until the person answers allow or deny. Pending requests are announced on
 * the bus (topic assistant.permission) and to the session's turn stream.
 */
import type { Context } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { requireSession } from './sessions.js';
import type { PermissionAnswer } from '../wire/assistant.js';

export interface PermissionOpen {
  session_id: number;
  tool_name: string;
  tool_use_id: string | null;
  input: Record<string, unknown>;
}


/** What the broker announces on the bus (topic assistant.permission): a request opened, or one answered. */
export type PermissionAnnouncement =
  | { kind: 'opened'; request_id: string; session_id: number; tool_name: string; tool_use_id: string | null; input: Record<string, unknown> }
  | ({ kind: 'answered' } & PermissionAnswer);

interface Pending {
  open: PermissionOpen;
  requestId: string;
  openedAt: string;
  resolve(answer: PermissionAnswer): void;
}

export interface PermissionBroker {
  /** Register a request; `held` resolves with the answer (deny when `signal` aborts first). */
  open(input: PermissionOpen, signal?: AbortSignal): { requestId: string; held: Promise<PermissionAnswer> };
  answer(requestId: string, allow: boolean, reason: string | null): PermissionAnswer;
  pending(sessionId?: number): { request_id: string; session_id: number; tool_name: string; tool_use_id: string | null; input: Record<string, unknown>; opened_at_utc: string }[];
  /** Deny every pending request of a session (its turn ended or was cancelled). */
  denyAll(sessionId: number, reason: string): void;
}

export function permissionBroker(ctx: Context): PermissionBroker {
  return ctx.service('assistant.permissions', () => {
    const pending = new Map<string, Pending>();
    const answered = new Set<string>();
    const settle = (p: Pending, allow: boolean, reason: string | null): PermissionAnswer => {
      pending.delete(p.requestId);
      answered.add(p.requestId);
      const answer = { request_id: p.requestId, session_id: p.open.session_id, tool_name: p.open.tool_name, tool_use_id: p.open.tool_use_id, allow, reason, answered_at_utc: ctx.nowIso() };
      p.resolve(answer);
      ctx.bus.emit('assistant.permission', { kind: 'answered', ...answer } satisfies PermissionAnnouncement);
      return answer;
    };
    const broker: PermissionBroker = {
      open(input, signal) {
        requireSession(ctx, input.session_id);
        const requestId = ctx.random.uuid();
        let resolve!: (a: PermissionAnswer) => void;
        const held = new Promise<PermissionAnswer>((r) => (resolve = r));
        const entry: Pending = { open: input, requestId, openedAt: ctx.nowIso(), resolve };
        pending.set(requestId, entry);
        signal?.addEventListener('abort', () => pending.has(requestId) && settle(entry, false, 'The requester went away before an answer.'), { once: true });
        ctx.bus.emit('assistant.permission', { kind: 'opened', request_id: requestId, session_id: input.session_id, tool_name: input.tool_name, tool_use_id: input.tool_use_id, input: input.input } satisfies PermissionAnnouncement);
        return { requestId, held };
      },
      answer(requestId, allow, reason) {
        const entry = pending.get(requestId);
        if (!entry) {
          if (answered.has(requestId)) throw conflict('permission_already_answered', 'This permission request was already answered.');
          throw notFound('permission_not_found', 'No pending permission request has this id.');
        }
        return settle(entry, allow, reason);
      },
      pending(sessionId) {
        return [...pending.values()]
          .filter((p) => sessionId === undefined || p.open.session_id === sessionId)
          .map((p) => ({ request_id: p.requestId, session_id: p.open.session_id, tool_name: p.open.tool_name, tool_use_id: p.open.tool_use_id, input: p.open.input, opened_at_utc: p.openedAt }));
      },
      denyAll(sessionId, reason) {
        for (const p of [...pending.values()]) if (p.open.session_id === sessionId) settle(p, false, reason);
      },
    };
    ctx.onClose(() => {
      for (const p of [...pending.values()]) settle(p, false, 'The service is shutting down.');
    });
    return broker;
  });
}
