/**
 * The command factory (gh's cmdutil.Factory): how a command gets its Context.
 * A command is handed its `io` (streams, environment) and, on it, the outside
 * world its Context is built with (clock, fetch, random bytes, tuning).
 * bin/svc.js hands over none, so the system's are used; a test hands its own
 * and runs the command in its own process (test/_cli.ts runCliInProcess).
 */
import { createContext, type Context, type ContextOptions } from '../../src/context.js';
import { createLogger, type LogLevel } from '../../src/log.js';
import type { Io } from './io.js';
import { inCliWords, type Door } from './refusals.js';

/** What a caller of the CLI may swap; everything else of the Context comes from io.env. */
export type CommandDeps = Pick<ContextOptions, 'clock' | 'fetch' | 'random' | 'tuning'>;

/**
 * The Context for one command: io's environment (or `env`, a command's own
 * variant of it), io's deps, and log lines from `level` up as talk on io.err.
 */
export function commandContext(io: Io, options: { env?: Record<string, string | undefined>; level?: LogLevel } = {}): Context {
  return createContext({ ...io.deps, env: options.env ?? io.env, log: createLogger({ level: options.level ?? 'warn', sink: (line) => io.err(line) }) });
}

/** Build the Context for one command, run `fn`, and always close it. */
export async function withContext<T>(io: Io, fn: (ctx: Context) => Promise<T> | T): Promise<T> {
  const ctx = commandContext(io);
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

/** withContext whose refusals are reworded for `door`'s command line (refusals.ts): the command to run, not the HTTP route. */
export function wordedContext(door: Door) {
  return async <T>(io: Io, fn: (ctx: Context) => Promise<T> | T): Promise<T> => {
    try {
      return await withContext(io, fn);
    } catch (err) {
      throw inCliWords(door, err);
    }
  };
}
