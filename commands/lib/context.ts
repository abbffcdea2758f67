import { createContext, type Context } from '../../src/context.js';
import { createLogger } from '../../src/log.js';
import type { Io } from './io.js';
import { inCliWords, type Door } from './refusals.js';

/** Build the Context for one command, run `fn`, and always close it. */
export async function withContext<T>(io: Io, fn: (ctx: Context) => Promise<T> | T): Promise<T> {
  const ctx = createContext({ env: io.env, log: createLogger({ level: 'warn', sink: (line) => io.err(line) }) });
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
