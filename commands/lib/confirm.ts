import { SvcError } from '../../src/errors.js';
import type { Io } from './io.js';
import { oneLine } from './words.js';

/**
 * Destructive commands confirm: a prompt on a terminal, `--yes` otherwise.
 * Answers false when the person declines.
 */
export async function confirmDestructive(io: Io, asked: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true;
  // The question names what goes (a routine's name set over MCP, a run's query): on one line, nothing a terminal acts on.
  const question = oneLine(asked);
  if (!io.stdinIsTTY || !io.stdoutIsTTY) {
    throw new SvcError(400, 'confirmation_required', `${question} Add --yes to confirm when not on a terminal.`);
  }
  const { confirm, isCancel } = await import('@clack/prompts');
  const answer = await confirm({ message: question, initialValue: false });
  if (isCancel(answer)) throw promptCancelled('Nothing changed.');
  return answer === true;
}

/**
 * An irreversible command confirms by typing a word on a terminal (`--yes` otherwise). A slip of
 * the keyboard asks once more, saying what was typed; a second mismatch, or Enter alone, answers false.
 */
export async function confirmByTyping(io: Io, question: string, word: string, yes: boolean | undefined, notOnTerminal: () => SvcError): Promise<boolean> {
  if (yes) return true;
  if (!io.stdinIsTTY || !io.stdoutIsTTY) throw notOnTerminal();
  const { text, isCancel } = await import('@clack/prompts');
  let message = `${oneLine(question)} Type ${word} to go ahead (Enter alone: change nothing)`;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await text({ message });
    if (isCancel(answer)) throw promptCancelled('Nothing changed.');
    const typed = String(answer ?? '').trim();
    if (typed === word) return true;
    if (!typed) return false; // Enter alone is a no, not a slip to ask about again
    message = `"${oneLine(typed)}" is not ${word}. Type ${word} to go ahead (anything else changes nothing)`;
  }
  return false;
}

/** Ctrl-C or Escape at a prompt: exit status 130, like Ctrl-C anywhere else. */
export function promptCancelled(message: string): SvcError {
  return new SvcError(499, 'cancelled', message);
}

/** The person said no: stdout still gets its one JSON document under --json, the message goes to stderr. */
export function notConfirmed(io: Io, data: Record<string, unknown>, message: string): void {
  if (io.json) io.out(JSON.stringify(data, null, 2));
  io.err(message);
}

/** Declined a delete. */
export function declined(io: Io, data: Record<string, unknown>): void {
  notConfirmed(io, { ...data, deleted: false }, 'Nothing deleted.');
}
