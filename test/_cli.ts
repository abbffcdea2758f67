/**
 * Running the CLI in this process (no child process, no terminal): the command
 * gets an Io of buffers and, through it, the deps its Context is built with
 * (commands/lib/context.ts, the command factory). Keep real processes
 * (_setup.ts runCli, _pty.ts) for what only a process shows: exit by signal,
 * real stdio and terminals, a daemon or server that outlives the command, a
 * command run from another folder.
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
  /** Each io.out (and io.write) and io.err call, as given. */
  out: string[];
  err: string[];
  /** The bytes each stream would carry, as bin/svc.js's processIo writes them: out and err end with a newline, write as given. */
  stdout: string;
  stderr: string;
}

type Streams = Omit<Captured, 'code'>;

const line = (text: string) => (text.endsWith('\n') ? text : text + '\n');

async function capture(argv: string[], io: Omit<Io, 'out' | 'write' | 'err'>, run: Streams = { out: [], err: [], stdout: '', stderr: '' }): Promise<Captured> {
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

type Write = typeof process.stdout.write;

/** A stand-in for a stream's write that appends to `onText` and answers as a pipe would. */
function divertedWrite(onText: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    onText(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (done) queueMicrotask(done);
    return true;
  }) as Write;
}

/**
 * While `fn` runs, what this process writes to its own stdout and stderr goes to
 * `run` instead, in order with the command's io: a command that writes past its
 * io shows in the result as it would on a process's stream. One run at a time.
 */
async function divertingStdio<T>(run: Streams, fn: () => Promise<T>): Promise<T> {
  const [out, err] = [process.stdout.write, process.stderr.write];
  process.stdout.write = divertedWrite((t) => (run.stdout += t));
  process.stderr.write = divertedWrite((t) => (run.stderr += t));
  try {
    return await fn();
  } finally {
    [process.stdout.write, process.stderr.write] = [out, err];
  }
}

/**
 * `svc args…` as _setup.ts runCli runs it (piped stdin, stdout and stderr; the same
 * environment; the same exit code and bytes on each stream), in this process.
 */
export async function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, NO_COLOR: '1', ...options.env };
  const stdin = options.stdin ?? '';
  const streams: Streams = { out: [], err: [], stdout: '', stderr: '' };
  const io = { readStdin: async () => stdin, stdoutIsTTY: false, stdinIsTTY: false, stderrIsTTY: false, env, json: false, deps: options.deps };
  const run = await divertingStdio(streams, () => capture(args, io, streams));
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}
