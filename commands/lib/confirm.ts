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
