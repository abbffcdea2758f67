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
import { clip } from '../lib/words.js';
import type { Io } from '../lib/io.js';

export interface PermissionRequestFrame {
  request_id: string;
  tool_name: string;
  input?: unknown;
}

export const NO_TERMINAL_REASON = 'Nobody could be asked: svc chat is not running on a terminal, so tool calls that need permission are refused. Run svc chat on a terminal to answer them.';

/**
 * The agent's text as shown before a question: characters that a terminal would act on or that
 * reorder or hide what is read (C0/C1 controls but the newline, zero-width and bidirectional
 * marks) are written as \u escapes, so what is shown is what is allowed.
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

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
    const tool = terminalSafe(clip(request.tool_name, 200));
    // The whole input, never clipped: the person allows exactly what they could read (a command's
    // dangerous part may come after any cut). On stderr: stdout carries the answer (and the one JSON document under --json).
    io.err(`The assistant asks to use ${tool} with this input:\n${terminalSafe(JSON.stringify(request.input ?? {}, null, 2))}`);
    const said = await confirm({ message: `Allow ${tool} with the input above?`, initialValue: false, output: process.stderr, signal: settled.signal });
    if (isCancel(said)) return answer(false, 'The person dismissed the question.');
    return said ? answer(true, null) : answer(false, 'The person denied this tool call.');
  } finally {
    off();
  }
}
