import { oneLine, plainText } from './words.js';
import type { CommandDeps } from './context.js';

/**
 * What a command may touch of the outside world: stdout (data), stderr (talk),
 * stdin, whether they are terminals, the environment, and what its Context is
 * built with (context.ts, the command factory). Tests pass buffers and deps.
 */
export interface Io {
  /** One piece of data on stdout, ended by a newline when it lacks one. */
  out(text: string): void;
  /** Data on stdout as it is, no newline added: text streamed in pieces (a model's answer). */
  write(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  stdoutIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Where progress is drawn; when left out, taken to be what stdout is. */
  stderrIsTTY?: boolean;
  env: Record<string, string | undefined>;
  /** The clock, fetch, random bytes and tuning of the command's Context; the system's when left out. */
  deps?: CommandDeps;
  /** Set from the global --json flag before a command runs. */
  json: boolean;
  /** A command that ends without an error but not in success (a cancelled or failed run) sets this. */
  exitCode?: number;
  /**
   * Set by runCli: the command ends now with `code`, leaving what it still waits on (a second
   * Ctrl-C). runCli answers the code at once; only the entry point (bin/svc.js) exits the process.
   */
  leave?: (code: number) => void;
}

export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
    write: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    json: false,
  };
}

/**
 * Whether progress (a bar, a spinner, lines redrawn in place) is drawn: only
 * on a terminal, both stdout and stderr (progress goes to stderr, and a piped
 * stdout means a script is reading), and never under --json. Otherwise long
 * work is quiet, or prints plain log lines where its page says so.
 */
export function drawsOnTerminal(io: Io): boolean {
  return !io.json && io.stdoutIsTTY && (io.stderrIsTTY ?? io.stdoutIsTTY);
}

/**
 * Print `data` as one JSON document with --json (exact: JSON escapes what a terminal would act
 * on), else the human view. A human view shows stored and upstream text (titles, abstracts,
 * names set over HTTP or MCP, notes, answers): it keeps its lines but never carries an escape
 * sequence or a bidirectional control to the terminal (words.ts plainText); views keep a
 * single-line field on its line with oneLine.
 */
export function emit(io: Io, data: unknown, human: () => string): void {
  if (io.json) io.out(JSON.stringify(data, null, 2));
  else io.out(plainText(human()));
}

/** A file format (references, a conversation's Markdown) on stdout: exact when piped, plain lines on a terminal. */
export function outFormat(io: Io, text: string): void {
  io.out(io.stdoutIsTTY ? plainText(text) : text);
}

/** A plain text table with padded columns; each cell on one line (words.ts oneLine). */
export function table(cells: string[][]): string {
  if (cells.length === 0) return '';
  const rows = cells.map((r) => r.map(oneLine));
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  ')).join('\n');
}
