/**
 * `svc assistant chat`: one turn from --message or piped stdin, or an
 * interactive loop on a terminal with streaming output where Ctrl-C cancels
 * the running turn, not the program (Ctrl-C at an empty prompt ends it).
 */
import fs from 'node:fs';
import type { Context } from '../../src/context.js';
import { readPublishedPort } from '../../src/runtime/token.js';
import { sendMessage } from '../../src/assistant/turns.js';
import { EXIT } from './exit-codes.js';
import type { Io } from './io.js';

export interface TurnOutcome {
  session_id: number;
  user_message_id: number;
  status: string;
  text: string;
  reports: { sequence: number; model: string; source: string }[];
  error: { reason: string; message: string } | null;
}

/** Run one turn; streams text to stdout unless --json. */
export async function runOneTurn(ctx: Context, io: Io, sessionId: number, text: string, onStart?: (cancel: () => void) => void): Promise<TurnOutcome> {
  const port = fs.existsSync(ctx.paths.portFile) ? readPublishedPort(ctx.paths)?.port : undefined;
  const turn = sendMessage(ctx, sessionId, { text }, { serverPort: port });
  onStart?.(() => turn.abandon());
  const outcome: TurnOutcome = { session_id: sessionId, user_message_id: turn.userMessageId, status: 'unknown', text: '', reports: [], error: null };
  for await (const frame of turn.frames) {
    const d = frame.data as Record<string, any>;
    if (frame.event === 'text') {
      outcome.text += d.delta;
      if (!io.json) process.stdout.write(d.delta);
    } else if (frame.event === 'turn_model_report') outcome.reports.push({ sequence: d.sequence, model: d.model, source: d.source });
    else if (frame.event === 'error') outcome.error = { reason: d.reason, message: d.message };
    else if (frame.event === 'done') outcome.status = d.status;
  }
  if (!io.json && outcome.text && !outcome.text.endsWith('\n')) io.out('');
  if (outcome.error && !io.json) io.err(`svc: ${outcome.error.message}`);
  return outcome;
}

export function exitFor(status: string): number | undefined {
  return status === 'completed' ? undefined : status === 'cancelled' ? EXIT.interrupted : EXIT.failed;
}

/** The interactive loop (a terminal on both ends). */
export async function repl(ctx: Context, io: Io, sessionId: number): Promise<void> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  io.err(`Conversation ${sessionId}. Ctrl-C stops a running answer; Ctrl-D or Ctrl-C at an empty prompt leaves.`);
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
      await runOneTurn(ctx, io, sessionId, line, (c) => (cancel = c));
      cancel = undefined;
      rl.resume();
    }
  } finally {
    process.off('SIGINT', onSigint);
    rl.close();
  }
}
