/**
 * Strict input of the Library routes (spec 2 "General rules"): unknown or
 * repeated query keys and extra body fields refused; UUIDs canonical
 * lowercase; integers exact (no boolean, float or string coercion); duplicate
 * JSON keys refused; JSON bodies bounded. Every refusal is 422 (413 for size)
 * with detail.reason, detail.message and the offending location.
 */
import type { H3Event } from 'h3';
import { SvcError } from '../src/errors.js';
import { isUuid4 } from '../src/random.js';
import { parseStrictJson, StrictJsonError } from '../src/util/json-strict.js';
import { queryOf, readBodyBytes } from './body.js';

const bad = (reason: string, loc: string[], message: string) => new SvcError(422, reason, message, { loc });

export type FieldKind =
  | { kind: 'uuid' }
  | { kind: 'int'; min: number; max?: number }
  | { kind: 'string'; min: number; max: number }
  | { kind: 'literal'; value: string }
  | { kind: 'bool' }
  /** Any JSON value, checked by the caller (nested objects and arrays). */
  | { kind: 'raw' };

export type Fields = Record<string, { required: boolean } & FieldKind>;

type ValueOf<K> = K extends { kind: 'int' } ? number : K extends { kind: 'bool' } ? boolean : K extends { kind: 'raw' } ? unknown : string;
type Simplify<T> = { [K in keyof T]: T[K] };
/** What a checked query or body holds: the required fields always, the optional ones maybe, each typed by its kind. */
export type Parsed<F extends Fields> = Simplify<
  { [N in keyof F as F[N]['required'] extends true ? N : never]: ValueOf<F[N]> } & { [N in keyof F as F[N]['required'] extends true ? never : N]?: ValueOf<F[N]> }
>;

const INTEGER = /^(0|[1-9][0-9]*)$/;
const JSON_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;

function checkValue(name: string, value: unknown, spec: FieldKind, loc: string[], fromQuery: boolean): unknown {
  switch (spec.kind) {
    case 'uuid':
      if (typeof value !== 'string' || !isUuid4(value)) throw bad('invalid_uuid', loc, `${name} must be a canonical lowercase UUID.`);
      return value;
    case 'int': {
      let n: number;
      if (fromQuery) {
        if (typeof value !== 'string' || !INTEGER.test(value)) throw bad('invalid_integer', loc, `${name} must be an integer written in decimal digits.`);
        n = Number(value);
      } else {
        if (typeof value !== 'number') throw bad('invalid_integer', loc, `${name} must be a JSON integer (no string or boolean).`);
        n = value;
      }
      if (!Number.isSafeInteger(n)) throw bad('invalid_integer', loc, `${name} must be an exact integer.`);
      if (n < spec.min || (spec.max !== undefined && n > spec.max)) {
        throw bad('out_of_range', loc, `${name} must be from ${spec.min}${spec.max === undefined ? '' : ` to ${spec.max}`}.`);
      }
      return n;
    }
    case 'string': {
      if (typeof value !== 'string') throw bad('invalid_string', loc, `${name} must be a string.`);
      const chars = [...value].length;
      if (chars < spec.min || chars > spec.max) throw bad('invalid_string', loc, `${name} must have ${spec.min} to ${spec.max} characters.`);
      return value;
    }
    case 'literal':
      if (value !== spec.value) throw bad('invalid_value', loc, `${name} must be ${spec.value}.`);
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw bad('invalid_boolean', loc, `${name} must be a JSON boolean (true or false).`);
      return value;
    case 'raw':
      return value;
  }
}

/** The query, key by key: each known at most once, none unknown, the required present. */
export function strictQuery<const F extends Fields>(event: H3Event, fields: F): Parsed<F> {
  const params = queryOf(event);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (!Object.hasOwn(fields, key)) throw bad('unknown_query_key', ['query', key], `Unknown query parameter ${key}.`);
    if (seen.has(key)) throw bad('repeated_query_key', ['query', key], `Query parameter ${key} is repeated.`);
    seen.add(key);
    out[key] = checkValue(key, value, fields[key]!, ['query', key], true);
  }
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.required && !seen.has(key)) throw bad('missing_query_key', ['query', key], `Query parameter ${key} is required.`);
  }
  return out as Parsed<F>; // every key was checked against its kind above
}

/** Whether valid JSON text writes any number with a fraction or an exponent. */
function hasFractionOrExponent(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const start = i;
      while (i < text.length && /[-+0-9.eE]/.test(text[i]!)) i++;
      if (/[.eE]/.test(text.slice(start, i))) return true;
    } else i++;
  }
  return false;
}

/** A JSON object body: bounded, strict UTF-8, no duplicate keys, exactly the known fields. */
export async function strictJsonBody<const F extends Fields>(event: H3Event, fields: F, limit: number): Promise<Parsed<F>> {
  const type = event.req.headers.get('content-type');
  if (type === null || !JSON_TYPE.test(type.trim())) throw bad('content_type_invalid', ['header', 'content-type'], 'Send the body as application/json.');
  const bytes = await readBodyBytes(event, limit);
  if (bytes.length === 0) throw bad('body_missing', ['body'], 'A JSON object body is required.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw bad('invalid_json', ['body'], 'The body is not UTF-8.');
  }
  let value: unknown;
  try {
    value = parseStrictJson(text);
  } catch (err) {
    if (err instanceof StrictJsonError && err.kind === 'duplicate_key') throw bad('duplicate_key', ['body', err.key ?? ''], err.message);
    throw bad('invalid_json', ['body'], 'The body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad('invalid_body', ['body'], 'The body must be a JSON object.');
  const body = value as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!Object.hasOwn(fields, key)) throw bad('unknown_field', ['body', key], `Unknown field ${key}.`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(fields)) {
    if (!Object.hasOwn(body, key)) {
      if (spec.required) throw bad('missing_field', ['body', key], `Field ${key} is required.`);
      continue;
    }
    out[key] = checkValue(key, body[key], spec, ['body', key], false);
  }
  // JSON.parse reads 1.0 and 1e0 as 1; an exact integer is written without them.
  if (hasFractionOrExponent(text)) throw bad('invalid_integer', ['body'], 'Numbers must be exact integers, written without a fraction or exponent.');
  return out as Parsed<F>; // every key was checked against its kind above
}

/** A path parameter that must be a canonical UUID. */
export function uuidParam(params: Record<string, string>, name: string): string {
  return checkValue(name, params[name], { kind: 'uuid' }, ['path', name], true) as string;
}
