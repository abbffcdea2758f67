/**
 * Reading request bodies: only after the guard, bounded in size, JSON only,
 * duplicate keys and nesting deeper than MAX_JSON_DEPTH refused. Route
 * handlers call these; nothing reads a body implicitly.
 */
import type { H3Event } from 'h3';
import * as v from 'valibot';
import { SvcError, invalid } from '../src/errors.js';
import { MAX_JSON_DEPTH, parseStrictJson, StrictJsonError, writesFractionOrExponent } from '../src/util/json-strict.js';
import { parseStrict, parseWith, type ParseOptions } from '../src/util/validate.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The raw body bytes, refusing more than `limit` bytes (413 body_too_large). */
export async function readBodyBytes(event: H3Event, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = event.req.headers.get('content-length');
  const tooLarge = () => new SvcError(413, 'body_too_large', `The request body is larger than ${limit} bytes.`, { limit_bytes: limit });
  if (declared !== null && Number(declared) > limit) throw tooLarge();
  const stream = event.req.body;
  if (!stream) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks, total);
}

export interface ReadOptions {
  limit?: number;
  /** `undefined` for an absent body instead of a 422 (not in strict mode). */
  optional?: boolean;
  /**
   * The strict input of the Library and Evidence routes (spec 2 "General
   * rules"): exactly application/json, strict UTF-8, a body required; each
   * refusal one 422 {reason, message, loc} instead of the detail array.
   */
  strict?: boolean;
}

const strictRefusal = (reason: string, loc: string[], message: string, extra: Record<string, unknown> = {}) => new SvcError(422, reason, message, { loc, ...extra });
const STRICT_JSON_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;

/** A strict JSON body: its value and its text. The content type is checked before a byte is read. */
async function readStrictJson(event: H3Event, limit?: number): Promise<{ value: unknown; text: string }> {
  const type = event.req.headers.get('content-type');
  if (type === null || !STRICT_JSON_TYPE.test(type.trim())) throw strictRefusal('content_type_invalid', ['header', 'content-type'], 'Send the body as application/json.');
  const bytes = await readBodyBytes(event, limit);
  if (bytes.length === 0) throw strictRefusal('body_missing', ['body'], 'A JSON object body is required.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw strictRefusal('invalid_json', ['body'], 'The body is not UTF-8.');
  }
  try {
    return { value: parseStrictJson(text), text };
  } catch (err) {
    if (err instanceof StrictJsonError && err.kind === 'duplicate_key') throw strictRefusal('duplicate_key', ['body', err.key ?? ''], err.message);
    if (err instanceof StrictJsonError && err.kind === 'too_deep') throw strictRefusal('json_too_deep', ['body'], `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`, { max_depth: MAX_JSON_DEPTH });
    throw strictRefusal('invalid_json', ['body'], 'The body is not valid JSON.');
  }
}

/** Parse the body as JSON (an object, or null); `undefined` when there is none and `optional` is set. */
export async function readJson(event: H3Event, options: ReadOptions = {}): Promise<unknown> {
  if (options.strict) return (await readStrictJson(event, options.limit)).value;
  const type = event.req.headers.get('content-type');
  const bytes = await readBodyBytes(event, options.limit);
  if (bytes.length === 0 || bytes.toString('utf8').trim() === '') {
    if (options.optional) return undefined;
    throw invalid(['body'], 'Field required', 'missing');
  }
  if (type !== null && !/\bjson\b/i.test(type)) {
    throw new SvcError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  let value: unknown;
  try {
    value = parseStrictJson(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof StrictJsonError && err.kind === 'duplicate_key') {
      throw invalid(['body'], err.message, 'json_duplicate_key', undefined, { key: err.key });
    }
    if (err instanceof StrictJsonError && err.kind === 'too_deep') throw invalid(['body'], err.message, 'json_too_deep', null, { max_depth: MAX_JSON_DEPTH });
    throw invalid(['body'], 'JSON decode error', 'json_invalid', undefined, { error: (err as Error).message });
  }
  // Every JSON body of these routes is an object (or null where a body is optional); valibot's
  // object schemas let an array through, and one whose fields are all optional read [] as {}.
  // The array is not echoed as input: this reader does not know whether the body carries a secret.
  if (Array.isArray(value)) throw invalid(['body'], 'Input should be a valid object', 'object_type', null, { expected: 'object', received: 'array' });
  return value;
}

/**
 * Read and validate a JSON body in one step. In strict mode the schema is one
 * of src/util/strict-schemas.ts, and a number written with a fraction or an
 * exponent is refused once the fields have passed (JSON.parse reads 1.0 as 1).
 */
export async function readValid<S extends v.GenericSchema>(event: H3Event, schema: S, options: ParseOptions & ReadOptions = {}): Promise<v.InferOutput<S>> {
  if (options.strict) {
    const { value, text } = await readStrictJson(event, options.limit);
    const output = parseStrict(schema, value, ['body']);
    if (writesFractionOrExponent(text)) throw strictRefusal('invalid_integer', ['body'], 'Numbers must be exact integers, written without a fraction or exponent.');
    return output;
  }
  const body = await readJson(event, options);
  return parseWith(schema, body, ['body'], options);
}

/** Query parameters of the request. */
export function queryOf(event: H3Event): URLSearchParams {
  return event.url.searchParams;
}
