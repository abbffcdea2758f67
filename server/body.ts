/**
 * Reading request bodies: only after the guard, bounded in size, JSON only,
 * duplicate keys refused. Route handlers call these; nothing reads a body
 * implicitly.
 */
import type { H3Event } from 'h3';
import * as v from 'valibot';
import { SvcError, invalid } from '../src/errors.js';
import { parseStrictJson, StrictJsonError } from '../src/util/json-strict.js';
import { parseWith, type ParseOptions } from '../src/util/validate.js';

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

/** Parse the body as JSON; `undefined` when there is none and `optional` is set. */
export async function readJson(event: H3Event, options: { limit?: number; optional?: boolean } = {}): Promise<unknown> {
  const type = event.req.headers.get('content-type');
  const bytes = await readBodyBytes(event, options.limit);
  if (bytes.length === 0 || bytes.toString('utf8').trim() === '') {
    if (options.optional) return undefined;
    throw invalid(['body'], 'Field required', 'missing');
  }
  if (type !== null && !/\bjson\b/i.test(type)) {
    throw new SvcError(415, 'unsupported_media_type', 'Send the body as application/json.');
  }
  try {
    return parseStrictJson(bytes.toString('utf8'));
  } catch (err) {
    if (err instanceof StrictJsonError && err.kind === 'duplicate_key') {
      throw invalid(['body'], err.message, 'json_duplicate_key', undefined, { key: err.key });
    }
    throw invalid(['body'], 'JSON decode error', 'json_invalid', undefined, { error: (err as Error).message });
  }
}

/** Read and validate a JSON body in one step. */
export async function readValid<S extends v.GenericSchema>(event: H3Event, schema: S, options: ParseOptions & { limit?: number; optional?: boolean } = {}): Promise<v.InferOutput<S>> {
  const body = await readJson(event, options);
  return parseWith(schema, body, ['body'], options);
}

/** Query parameters of the request. */
export function queryOf(event: H3Event): URLSearchParams {
  return event.url.searchParams;
}
