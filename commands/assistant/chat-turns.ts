/**
 * `svc assistant chat`: one turn from --message or piped stdin, or an
 * interactive loop on a terminal with streaming output where Ctrl-C cancels
 * the running turn, not the program (Ctrl-C at an empty prompt ends it).
 */
import fs from 'node:fs';
import type { Context } from '../../src/context.js';
import { isStale, readPublishedPort, readPublishedToken, type PublishedPort } from '../../src/runtime/token.js';
import type { RunOptions, ToolBox } from '../../src/assistant/runner.js';
import { boundRuntime, sendMessage } from '../../src/assistant/turns.js';
import { askPermission } from './permission-prompt.js';
import { toolCallText } from './format.js';
import { EXIT } from '../lib/exit-codes.js';
import { clip, oneLine, plainText } from '../lib/words.js';
import type { Io } from '../lib/io.js';

export interface TurnOutcome {
  session_id: number;
  user_message_id: number;
  status: string;
  text: string;
  reports: { sequence: number; model: string; source: string }[];
  /** The read tools the model called during the turn (API conversations), in order. */
  tool_calls: { name: string; input: unknown; is_error: boolean | null }[];
  /** What the person answered to each permission the agent asked for during the turn. */
  permissions: { tool_name: string; allow: boolean; reason: string | null }[];
  error: { reason: string; message: string } | null;
}

/**
 * The read tools an API conversation is offered, as when the desktop sends
 * through the server: over HTTP to this data directory's running service, so
 * a conversation run from the CLI can look at the corpus too. None when no
 * service runs (the model is then not offered tools that could only fail).
 */
async function readToolsOf(ctx: Context, published: PublishedPort | undefined): Promise<{ tools?: ToolBox; token?: string }> {
  if (!published || isStale(published)) return {};
  const token = readPublishedToken(ctx.paths, published.port);
  if (!token) return {};
  const [{ assistantToolBox }, { createBackend }] = await Promise.all([import('../../src/mcp/assistant-tools.js'), import('../../src/mcp/backend.js')]);
  return { tools: assistantToolBox(createBackend({ port: published.port, paths: ctx.paths, fetch: ctx.fetch, token })), token };
}

/** Run one turn; streams text to stdout unless --json. */
export async function runOneTurn(ctx: Context, io: Io, sessionId: number, text: string, onStart?: (cancel: () => void) => void): Promise<TurnOutcome> {
  const published = fs.existsSync(ctx.paths.portFile) ? readPublishedPort(ctx.paths) : undefined;
  const port = published?.port;
  // This process runs the turn, so it holds the agent's permission requests: the relay asks at this process's own door.
  const door = boundRuntime(ctx, sessionId) === 'agent_cli' ? await (await import('../../server/permission-door.js')).openPermissionDoor(ctx) : undefined;
  try {
    return await followTurn(ctx, io, sessionId, text, { serverPort: port, permissionPort: door?.port, ...(await readToolsOf(ctx, published)) }, onStart);
  } finally {
    await door?.close();
  }
}

async function followTurn(ctx: Context, io: Io, sessionId: number, text: string, options: RunOptions, onStart?: (cancel: () => void) => void): Promise<TurnOutcome> {
  const turn = sendMessage(ctx, sessionId, { text }, options);
  let stoppedHere = false;
  onStart?.(() => {
    stoppedHere = true;
    turn.abandon();
  });
  const outcome: TurnOutcome = { session_id: sessionId, user_message_id: turn.userMessageId, status: 'unknown', text: '', reports: [], tool_calls: [], permissions: [], error: null };
  let lineOpen = false; // stdout has text not yet ended by a newline
  const endLine = () => {
    if (lineOpen) io.write('\n');
    lineOpen = false;
  };
  for await (const frame of turn.frames) {
    const d = frame.data as Record<string, any>;
    if (frame.event === 'text') {
      outcome.text += d.delta;
      if (!io.json && d.delta) {
        // The model's text keeps its lines but never an escape sequence or bidirectional control.
        io.write(plainText(String(d.delta)));
        lineOpen = !String(d.delta).endsWith('\n');
      }
    } else if (frame.event === 'tool_call') {
      outcome.tool_calls.push({ name: d.name, input: d.input, is_error: null });
      if (outcome.text && !outcome.text.endsWith('\n')) outcome.text += '\n'; // as printed: the parts on their own lines
      // A tool round splits the answer: the text before and after it must not run together.
      if (!io.json) {
        endLine();
        io.err(`[tool ${toolCallText(d.name, d.input)}]`);
      }
    } else if (frame.event === 'tool_result') {
      const call = outcome.tool_calls.find((c) => c.is_error === null && c.name === d.name);
      if (call) call.is_error = d.is_error === true;
      if (!io.json && d.is_error) io.err(oneLine(`[tool ${d.name} failed: ${clip(String((d.output as { message?: unknown } | null)?.message ?? 'no answer'), 200)}]`));
    } else if (frame.event === 'permission_request') {
      if (!io.json) endLine();
      const said = await askPermission(ctx, io, d as { request_id: string; tool_name: string; input?: unknown });
      if (!io.json) io.err(oneLine(said.allow ? `[allowed ${d.tool_name}]` : `[refused ${d.tool_name}: ${said.reason}]`));
    } else if (frame.event === 'permission_answered') {
      outcome.permissions.push({ tool_name: d.tool_name, allow: d.allow, reason: d.reason ?? null });
    } else if (frame.event === 'turn_model_report') outcome.reports.push({ sequence: d.sequence, model: d.model, source: d.source });
    else if (frame.event === 'error') outcome.error = { reason: d.reason, message: d.message };
    else if (frame.event === 'done') outcome.status = d.status;
  }
  if (!io.json) endLine();
  if (outcome.error && !io.json) io.err(`svc: ${oneLine(String(outcome.error.message))}`);
  // Not Ctrl-C here: the answer stopping mid-sentence needs a reason.
  if (outcome.status === 'cancelled' && !stoppedHere && !io.json) io.err('svc: The answer was cancelled from another process (`svc chat cancel` or the desktop); what it wrote so far is kept.');
  return outcome;
}

export function exitFor(status: string): number | undefined {
  return status === 'completed' ? undefined : status === 'cancelled' ? EXIT.interrupted : EXIT.failed;
}

/**
 * The interactive loop (a terminal on both ends), in `conversation`, or in a new one
 * that `conversation()` creates with the first message (leaving before it creates none).
 */
export async function repl(ctx: Context, io: Io, conversation: number | (() => number)): Promise<void> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  let sessionId = typeof conversation === 'number' ? conversation : undefined;
  const keys = 'Ctrl-C stops a running answer; Ctrl-D or Ctrl-C at an empty prompt leaves.';
  io.err(sessionId === undefined ? `A new conversation, saved with its first message. ${keys}` : `Conversation ${sessionId}. ${keys}`);
  let cancel: (() => void) | undefined;
  const onSigint = () => {
    if (cancel) {
      cancel();
      io.err('\n[cancelling the answer]');
    }
  };
  process.on('SIGINT', onSigint);
  try {
    for (;;) {
      const controller = new AbortController();
      const closed = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
      rl.once('SIGINT', () => controller.abort());
      const line = await Promise.race([rl.question('you> ', { signal: controller.signal }).catch(() => null), closed]);
      if (line === null) break;
      if (!line.trim()) continue;
      rl.pause();
      if (sessionId === undefined) {
        sessionId = (conversation as () => number)();
        io.err(`Conversation ${sessionId}.`);
      }
      await runOneTurn(ctx, io, sessionId, line, (c) => (cancel = c));
      cancel = undefined;
      rl.resume();
    }
  } finally {
    process.off('SIGINT', onSigint);
    rl.close();
  }
}
