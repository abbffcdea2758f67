/** Running the CLI in this process with its output captured (no child process, no terminal). */
import { runCli } from '../commands/main.js';
import type { Io } from '../commands/lib/io.js';

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `svc argv…` against `env`'s directories; `over` sets what the Io claims (e.g. stdoutIsTTY: true for a terminal's view). */
export async function runCliCaptured(argv: string[], env: Record<string, string | undefined>, over: Partial<Io> = {}): Promise<CapturedRun> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (t) => void out.push(t), err: (t) => void err.push(t), readStdin: async () => '', stdoutIsTTY: false, stdinIsTTY: false, stderrIsTTY: false, env, json: false, ...over };
  const code = await runCli(argv, io);
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}
