/** Strict parsing of path and query values shared by routes. */
import type { H3Event } from 'h3';
import * as v from 'valibot';
import { invalid, SvcError } from '../src/errors.js';
import { queryObject, uuid } from '../src/util/strict-schemas.js';
import { parseStrict } from '../src/util/validate.js';
import { queryOf } from './body.js';

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

/**
 * The strict query of the Library and Evidence routes (spec 2 "General
 * rules"), key by key in the order sent: known, sent at most once, its value
 * passing its schema (src/util/strict-schemas.ts); then the required keys
 * present. Each refusal is one 422 {reason, message, loc}.
 */
export function strictQuery<const E extends v.ObjectEntries>(event: H3Event, entries: E): v.InferOutput<ReturnType<typeof queryObject<E>>> {
  const params = [...queryOf(event)];
  const seen = new Set<string>();
  for (const [key, value] of params) {
    const loc = { loc: ['query', key] };
    const schema = Object.hasOwn(entries, key) ? entries[key] : undefined;
    if (schema === undefined) throw new SvcError(422, 'unknown_query_key', `Unknown query parameter ${key}.`, loc);
    if (seen.has(key)) throw new SvcError(422, 'repeated_query_key', `Query parameter ${key} is repeated.`, loc);
    seen.add(key);
    parseStrict(schema, value, ['query', key]);
  }
  return parseStrict(queryObject(entries), Object.fromEntries(params), ['query']);
}

/** A path parameter checked by a strict schema (422 {reason, message, loc}). */
export function strictParam<S extends v.GenericSchema>(params: Record<string, string>, name: string, schema: S): v.InferOutput<S> {
  return parseStrict(schema, params[name], ['path', name]);
}

/** A path parameter that must be a canonical lowercase UUID. */
export const uuidParam = (params: Record<string, string>, name: string): string => strictParam(params, name, uuid());
