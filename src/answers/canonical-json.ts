/**
 * The canonical JSON of selected-evidence answers (spec 2, "Selected answer"):
 * object keys sorted by UTF-16 code unit order, compact separators (`,` `:`),
 * literal Unicode (the only escapes are the ones JSON requires: `"`, `\` and the
 * control characters U+0000–U+001F), no NaN or Infinity, no lone surrogates.
 * The same value always gives the same text, so its SHA-256 binds a request.
 *
 * Values that JSON cannot carry (undefined, functions, symbols, bigint, class
 * instances, cycles) are refused rather than silently dropped: a hash over a
 * value that would not survive the round trip would bind nothing.
 */
import crypto from 'node:crypto';
import { SvcError } from '../errors.js';
import { hasLoneSurrogate } from '../evidence/codepoints.js';
import { MAX_JSON_DEPTH, parseStrictJson as parseNoDuplicates, StrictJsonError } from '../util/json-strict.js';

export const canonicalInvalid = (why: string, path: string) =>
  new SvcError(422, 'canonical_json_invalid', `The value cannot be written as canonical JSON: ${why} at ${path}.`, { path });
export const jsonInvalid = (why: string, extra: Record<string, unknown> = {}) =>
  new SvcError(422, 'json_invalid', `The JSON text is refused: ${why}.`, extra);

/**
 * @example canonicalJson({ b: 1, a: ['é', null] }) === '{"a":["é",null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return write(value, '$', new Set(), 0);
}

function write(value: unknown, path: string, seen: Set<object>, depth: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw canonicalInvalid(`the number ${String(value)} is not JSON`, path);
      return JSON.stringify(value);
    case 'string':
      return writeString(value, path);
    case 'object':
      break;
    default:
      throw canonicalInvalid(`a ${typeof value} is not JSON`, path);
  }
  const obj = value as object;
  // Deeper than any answer document may be (output depth 8) and than svc parses; guards the recursion.
  if (depth >= MAX_JSON_DEPTH) throw canonicalInvalid(`nesting deeper than ${MAX_JSON_DEPTH}`, path);
  if (seen.has(obj)) throw canonicalInvalid('a cycle', path);
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      const parts: string[] = [];
      for (let i = 0; i < obj.length; i++) parts.push(write(obj[i], `${path}[${i}]`, seen, depth + 1));
      return `[${parts.join(',')}]`;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) throw canonicalInvalid('only plain objects are JSON objects', path);
    // Default sort compares UTF-16 code units, which is the order the spec names.
    const keys = Object.keys(obj).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const child = `${path}.${key}`;
      parts.push(`${writeString(key, child)}:${write((obj as Record<string, unknown>)[key], child, seen, depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    seen.delete(obj);
  }
}

function writeString(text: string, path: string): string {
  if (hasLoneSurrogate(text)) throw canonicalInvalid('a lone surrogate', path);
  // With no lone surrogate present JSON.stringify escapes exactly `"`, `\` and U+0000–U+001F.
  return JSON.stringify(text);
}

/**
 * JSON.parse that refuses duplicate keys at any depth (also when spelled with
 * escapes: "a" and "\u0061") and lone surrogates in any key or string, whether
 * literal or escaped (`"\ud800"`). Refusals are SvcError 422 `json_invalid`.
 */
export function parseStrictJson(text: string): unknown {
  if (hasLoneSurrogate(text)) throw jsonInvalid('the text holds a lone surrogate', { kind: 'lone_surrogate' });
  let value: unknown;
  try {
    value = parseNoDuplicates(text);
  } catch (err) {
    if (err instanceof StrictJsonError) {
      if (err.kind === 'duplicate_key') throw jsonInvalid(`duplicate key "${(err.key ?? '').slice(0, 64)}"`, { kind: 'duplicate_key' });
      if (err.kind === 'too_deep') throw jsonInvalid(`nesting deeper than ${MAX_JSON_DEPTH} levels`, { kind: 'too_deep' });
      throw jsonInvalid('not valid JSON', { kind: 'syntax' });
    }
    throw err;
  }
  const where = findLoneSurrogate(value, '$');
  if (where) throw jsonInvalid(`a lone surrogate at ${where}`, { kind: 'lone_surrogate' });
  return value;
}

function findLoneSurrogate(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findLoneSurrogate(value[i], `${path}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (hasLoneSurrogate(key)) return `${path} (key)`;
      const hit = findLoneSurrogate(child, `${path}.${key}`);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** Lowercase hex SHA-256; strings are hashed as their UTF-8 bytes. */
export function sha256Hex(data: string | Buffer | Uint8Array): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}
