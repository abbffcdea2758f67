/** Strict parsing of path and query values shared by routes. */
import { invalid } from '../src/errors.js';

/** A positive integer id from a path segment (422 otherwise). */
export function idParam(raw: string | undefined, name: string): number {
  if (raw === undefined || !/^[1-9]\d{0,14}$/.test(raw)) throw invalid(['path', name], 'Input should be a positive integer', 'int_parsing', raw ?? null);
  return Number(raw);
}

/** An optional integer query value within bounds. */
export function intQuery(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^-?\d{1,15}$/.test(raw)) throw invalid(['query', name], 'Input should be a valid integer', 'int_parsing', raw);
  const value = Number(raw);
  if (value < min || value > max) throw invalid(['query', name], `Input should be between ${min} and ${max}`, 'range', value, { ge: min, le: max });
  return value;
}

/** An optional query value from a closed list. */
export function enumQuery<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw invalid(['query', name], `Input should be one of: ${allowed.join(', ')}`, 'enum', raw, { expected: allowed });
  return raw as T;
}

export function boolQuery(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  throw invalid(['query', name], 'Input should be true or false', 'bool_parsing', raw);
}
