/** Helpers for source tests: a Context with fast politeness and a stub base URL. */
import { createContext, type Context } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { SOURCE_CAPS } from '../src/sources/caps.js';
import type { SourceHttp } from '../src/sources/http.js';
import { parsePage } from '../src/sources/parse-page.js';
import { tempDirs, type TempDirs } from './_setup.js';

export interface SourceTestContext {
  ctx: Context;
  dirs: TempDirs;
  logLines: string[];
  close(): Promise<void>;
}

/** A Context whose SVC_SOURCE_<ID>_URL overrides point at stubs; rates scaled to zero, retries fast. */
export function sourceContext(urls: Record<string, string>, tuning: Partial<Context['tuning']> = {}): SourceTestContext {
  const dirs = tempDirs();
  const env: Record<string, string> = { ...dirs.env };
  for (const [id, url] of Object.entries(urls)) env[`SVC_SOURCE_${id.toUpperCase()}_URL`] = url;
  const logLines: string[] = [];
  const ctx = createContext({
    env,
    log: createLogger({ level: 'debug', sink: (l) => logLines.push(l) }),
    tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 2000, ...tuning },
  });
  return {
    ctx,
    dirs,
    logLines,
    async close() {
      await ctx.close();
      dirs.cleanup();
    },
  };
}

export const signal = () => new AbortController().signal;

/** `parse` as a source's HTTP has it (default caps), for tests that hand an adapter a stand-in HTTP. */
export const parseHere: SourceHttp['parse'] = (parser, answer, ...args) => parsePage(parser, answer, { caps: SOURCE_CAPS }, ...args);
