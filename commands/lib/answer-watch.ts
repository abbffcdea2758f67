/**
 * Following one answer's events (the server's one owned subscriber). On a
 * terminal a spinner line on stderr shows the state and how much text came;
 * piped, one line per frame on stderr. Ctrl-C disconnects, which the server
 * treats as a cancel, and the command also asks for the cancel explicitly.
 * At the end the saved answer is printed (stdout), exit 1 unless succeeded.
 */
import { TERMINAL_STATES, type AnswerState, type AnswerView } from '../../src/answers/types.js';
import type { AnswerClient } from './answer-client.js';
import { answerText } from './answer-format.js';
import { drawsOnTerminal, emit, type Io } from './io.js';

const SPIN = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function stateOf(data: unknown): AnswerState | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as { state?: unknown; answer?: { state?: unknown } };
  const state = typeof d.state === 'string' ? d.state : typeof d.answer?.state === 'string' ? d.answer.state : undefined;
  return state as AnswerState | undefined;
}

export async function followAnswer(c: AnswerClient, io: Io, projectPath: string, answerId: string): Promise<void> {
  const controller = new AbortController();
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  const tty = drawsOnTerminal(io);
  let frame = 0;
  let state: string = 'admitted';
  let textLength = 0;
  const q = new URLSearchParams({ expected_vault_id: c.vaultId, expected_runtime_id: c.runtimeId });
  try {
    for await (const f of c.events(`${projectPath}/answers/${answerId}/events?${q}`, controller.signal)) {
      state = stateOf(f.data) ?? state;
      const partial = (f.data as { partial_text?: unknown; text?: unknown } | null);
      if (typeof partial?.partial_text === 'string') textLength = partial.partial_text.length;
      else if (f.event === 'partial' && typeof partial?.text === 'string') textLength += partial.text.length;
      if (tty) process.stderr.write(`\r\x1b[2K${SPIN[frame++ % SPIN.length]} ${state} · ${textLength} characters`);
      else io.err(`${f.id ?? '-'} ${f.event} ${state}`);
      if (TERMINAL_STATES.has(state as AnswerState)) break;
    }
  } catch (err) {
    if (!interrupted) throw err;
  } finally {
    process.removeListener('SIGINT', onSigint);
    if (tty) process.stderr.write('\r\x1b[2K');
    controller.abort();
  }
  if (interrupted) {
    await c.json('POST', `${projectPath}/answers/${answerId}/cancel`, { expected_vault_id: c.vaultId, expected_runtime_id: c.runtimeId }).catch(() => undefined);
  }
  const { answer } = (await c.json('GET', `${projectPath}/answers/${answerId}?expected_vault_id=${c.vaultId}`)) as { answer: AnswerView };
  emit(io, answer, () => answerText(answer));
  if (interrupted) io.exitCode = 130;
  else if (answer.state !== 'succeeded') io.exitCode = 1;
}
