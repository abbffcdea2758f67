/**
 * Following one answer's events (the server's one owned subscriber). On a
 * terminal a spinner line on stderr shows the state, the stage and how much
 * text came; piped, one line per frame on stderr (`#3 progress: running ·
 * request_sent`). Frames of another answer, request, project, vault or
 * runtime are rejected. Ctrl-C disconnects, which the server treats as a
 * cancel, and the command also asks for the cancel explicitly. At the end the
 * saved answer is printed (stdout), exit 1 unless succeeded.
 */
import type { AnswerView } from '../../src/answers/types.js';
import type { AnswerClient } from './client.js';
import { FrameTracker } from './frames.js';
import { answerText } from './format.js';
import { SPINNER } from '../lib/bar.js';
import { drawsOnTerminal, emit, type Io } from '../lib/io.js';
import { oneLine } from '../lib/words.js';

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
  const projectId = projectPath.slice(projectPath.lastIndexOf('/') + 1);
  const tracker = new FrameTracker({ answer_id: answerId, project_id: projectId, vault_id: c.vaultId, runtime_id: c.runtimeId });
  const q = new URLSearchParams({ expected_vault_id: c.vaultId, expected_runtime_id: c.runtimeId });
  try {
    for await (const f of c.events(`${projectPath}/answers/${answerId}/events?${q}`, controller.signal)) {
      const line = tracker.take(f.event, f.data);
      if (tty) process.stderr.write(`\r\x1b[2K${SPINNER[frame++ % SPINNER.length]} ${oneLine(tracker.statusLine())}`);
      else io.err(oneLine(line)); // a frame quotes the runtime's error and reported model
      if (tracker.ended) break;
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
