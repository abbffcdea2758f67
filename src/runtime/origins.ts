/**
 * Renderer origins allowed to call the server from a browser: the one named at
 * launch plus up to eight registered later (the most recent eight are kept).
 * Kept in memory: a restarted server starts with only the launch origin.
 */
import { invalid } from '../errors.js';

export const MAX_REGISTERED_ORIGINS = 8;
export const MAX_ORIGIN_LENGTH = 64;

export interface OriginRegistry {
  readonly launch: string | null;
  registered(): string[];
  allows(origin: string): boolean;
  register(origin: string): string[];
}

/** An exact serialized origin: scheme, host and optional port, nothing more. */
export function checkOrigin(raw: string, loc: (string | number)[]): string {
  if (raw.length < 1 || raw.length > MAX_ORIGIN_LENGTH) {
    throw invalid(loc, `Origin must have 1 to ${MAX_ORIGIN_LENGTH} characters`, 'string_length', raw.length > MAX_ORIGIN_LENGTH ? null : raw, { min_length: 1, max_length: MAX_ORIGIN_LENGTH });
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(raw);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== raw) {
    throw invalid(loc, 'Origin must be an exact origin such as http://127.0.0.1:5173 (scheme, host, optional port; no path or trailing slash)', 'origin_format', raw);
  }
  return raw;
}

export function createOriginRegistry(launch: string | null): OriginRegistry {
  const recent: string[] = [];
  return {
    launch,
    registered: () => [...recent],
    allows: (origin) => origin === launch || recent.includes(origin),
    register(origin) {
      const existing = recent.indexOf(origin);
      if (existing !== -1) recent.splice(existing, 1);
      recent.push(origin);
      while (recent.length > MAX_REGISTERED_ORIGINS) recent.shift();
      return [...recent];
    },
  };
}
