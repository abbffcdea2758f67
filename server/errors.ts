/**
 * The one place errors become HTTP answers. Guard and domain refusals are
 * `{detail: {reason, message, ...extra}}`, validation failures 422 with the
 * `detail` array, the admission refusal a bare sentence. Anything unexpected is
 * logged and answered without a stack or a secret.
 */
import { SvcError, ValidationError } from '../src/errors.js';
import { STATUS_CODES } from 'node:http';
import type { Logger } from '../src/log.js';

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: STATUS_CODES[status] ?? '',
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorResponse(err: unknown, log: Logger): Response {
  if (err instanceof ValidationError) return jsonResponse({ detail: err.issues }, 422, err.headers);
  if (err instanceof SvcError) {
    if (err.status >= 500) log.error(`${err.reason}: ${err.message}`);
    const detail = err.sentence ? err.message : { reason: err.reason, message: err.message, ...err.extra };
    return jsonResponse({ detail }, err.status, err.headers);
  }
  log.error('unexpected error', { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  return jsonResponse({ detail: { reason: 'internal_error', message: 'An unexpected error occurred; the server log has details.' } }, 500);
}
