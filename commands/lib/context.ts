import { createContext, type Context } from '../../src/context.js';
import { createLogger } from '../../src/log.js';
import type { Io } from './io.js';

/** Build the Context for one command, run `fn`, and always close it. */
export async function withContext<T>(io: Io, fn: (ctx: Context) => Promise<T> | T): Promise<T> {
  const ctx = createContext({ env: io.env, log: createLogger({ level: 'warn', sink: (line) => io.err(line) }) });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
