/**
 * The person's answer to a permission request of a turn this process runs:
 * a yes/no question on the terminal (default no), or, with nobody at a
 * terminal, a denial that says why; never a wait for an answer that cannot
 * come. The question goes away if the request is settled meanwhile (the
 * turn ended or was cancelled).
 */
import type { Context } from '../../src/context.js';
import { isSvcError } from '../../src/errors.js';
import { permissionBroker } from '../../src/assistant/permissions.js';
import { clip } from './words.js';
import type { Io } from './io.js';

export interface PermissionRequestFrame {
  request_id: string;
  tool_name: string;
  input?: unknown;
}

export const NO_TERMINAL_REASON = 'Nobody could be asked: svc chat is not running on a terminal, so tool calls that need permission are refused. Run svc chat on a terminal to answer them.';

export const SETTLED_REASON = 'The request was settled before it could be asked (the turn ended or was cancelled).';

export async function askPermission(ctx: Context, io: Io, request: PermissionRequestFrame): Promise<{ allow: boolean; reason: string | null }> {
  let counted: { allow: boolean; reason: string | null } | undefined; // the answer that settled it, when not ours
  const answer = (allow: boolean, reason: string | null) => {
    try {
      permissionBroker(ctx).answer(request.request_id, allow, reason);
    } catch (err) {
      // Already settled (the turn ended first): the earlier answer stands, and is what is said.
      if (!isSvcError(err)) throw err;
      return counted ?? { allow: false, reason: SETTLED_REASON };
    }
    return { allow, reason };
  };
  if (!io.stdinIsTTY || !(io.stderrIsTTY ?? io.stdoutIsTTY)) return answer(false, NO_TERMINAL_REASON);
  const settled = new AbortController();
  const off = ctx.bus.on('assistant.permission', (payload) => {
    const p = payload as { kind: string; request_id: string; allow?: boolean; reason?: string | null };
    if (p.kind !== 'answered' || p.request_id !== request.request_id) return;
    counted = { allow: p.allow === true, reason: p.reason ?? null };
    settled.abort();
  });
  try {
    // Settled before this frame was read (a question asked before it was still open): nothing to ask.
    if (!permissionBroker(ctx).pending().some((p) => p.request_id === request.request_id)) return { allow: false, reason: SETTLED_REASON };
    const { confirm, isCancel } = await import('@clack/prompts');
    const input = clip(JSON.stringify(request.input ?? {}), 300);
    // On stderr: stdout carries the answer (and the one JSON document under --json).
    const said = await confirm({ message: `The assistant asks to use ${request.tool_name} with ${input}. Allow?`, initialValue: false, output: process.stderr, signal: settled.signal });
    if (isCancel(said)) return answer(false, 'The person dismissed the question.');
    return said ? answer(true, null) : answer(false, 'The person denied this tool call.');
  } finally {
    off();
  }
}
