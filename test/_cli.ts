/**
 * Running the CLI in this process (no child process, no terminal): the command
 * gets an Io of buffers and, through it, the deps its Context is built with
 * (commands/lib/context.ts, the command factory). Keep real processes
 * (_setup.ts runCli, _pty.ts) for what only a process shows: exit by signal,
 * real stdio and terminals, a daemon or server that outlives the command.
 */
import { runCli } from '../commands/main.js';
import type { CommandDeps } from '../commands/lib/context.js';
import type { Io } from '../commands/lib/io.js';
import type { CliResult } from './_setup.js';

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

interface Captured {
  code: number;
  /** Each io.out and io.err call, as given. */
  out: string[];
  err: string[];
  /** The bytes each stream would carry, as bin/svc.js's processIo writes them: out and err end with a newline, write as given. */
  stdout: string;
  stderr: string;
}

const line = (text: string) => (text.endsWith('\n') ? text : text + '\n');

async function capture(argv: string[], io: Omit<Io, 'out' | 'write' | 'err'>): Promise<Captured> {
  const run: Omit<Captured, 'code'> = { out: [], err: [], stdout: '', stderr: '' };
  const code = await runCli(argv, {
    ...io,
    out: (t) => {
      run.out.push(t);
      run.stdout += line(t);
    },
    write: (t) => {
      run.out.push(t);
      run.stdout += t;
    },
    err: (t) => {
      run.err.push(t);
      run.stderr += line(t);
    },
  });
  return { code, ...run };
}

/** `svc argv…` against `env`'s directories; `over` sets what the Io claims (e.g. stdoutIsTTY: true for a terminal's view). Each write is one entry of the joined output. */
export async function runCliCaptured(argv: string[], env: Record<string, string | undefined>, over: Partial<Io> = {}): Promise<CapturedRun> {
  const { out, write, err, ...rest } = over;
  const run = await capture(argv, { readStdin: async () => '', stdoutIsTTY: false, stdinIsTTY: false, stderrIsTTY: false, env, json: false, ...rest });
  return { code: run.code, stdout: run.out.join('\n'), stderr: run.err.join('\n') };
}

export interface InProcessOptions {
  /** The environment, as _setup.ts runCli's: PATH and NO_COLOR=1 under it. */
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** The clock, fetch, random bytes or tuning the command's Context is built with. */
  deps?: CommandDeps;
}

/**
 * `svc args…` as _setup.ts runCli runs it (piped stdin, stdout and stderr; the same
 * environment; the same exit code and bytes on each stream), in this process.
 */
export async function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, NO_COLOR: '1', ...options.env };
  const stdin = options.stdin ?? '';
  const run = await capture(args, { readStdin: async () => stdin, stdoutIsTTY: false, stdinIsTTY: false, stderrIsTTY: false, env, json: false, deps: options.deps });
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}
