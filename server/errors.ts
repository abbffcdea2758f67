/**
 * The one place errors become HTTP answers. Guard and domain refusals are
 * `{detail: {reason, message, ...extra}}`, validation failures 422 with the
 * `detail` array, the admission refusal a bare sentence. Anything unexpected is
 * logged and answered without a stack or a secret.
 *
 * Answers are plain bodies with status and headers set on `event.res`: h3's
 * fast path for plain values is far cheaper than building a web Response.
 */
import { STATUS_CODES } from 'node:http';
import type { H3Event } from 'h3';
import { SvcError, ValidationError, type ValidationIssue } from '../src/errors.js';
import type { Logger } from '../src/log.js';

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: { detail: unknown };
}

/**
 * Issue types that refuse a value for its size (valibot's and svc's own): the
 * value is what was too large, so it is not sent back; ctx says the limit
 * (and, where svc knows it, how large the value was).
 */
const SIZE_REFUSALS = new Set(['max_length', 'max_size', 'max_bytes', 'max_entries', 'max_graphemes', 'max_words', 'string_too_long', 'too_long']);

/** A 422 item as it is answered: a value refused for its size is not echoed. */
const answeredIssue = (issue: ValidationIssue): ValidationIssue => (SIZE_REFUSALS.has(issue.type) ? { ...issue, input: null } : issue);

export function errorAnswer(err: unknown, log: Logger): ErrorAnswer {
  if (err instanceof ValidationError) return { status: 422, headers: err.headers, body: { detail: err.issues.map(answeredIssue) } };
  if (err instanceof SvcError) {
    if (err.status >= 500) log.error(`${err.reason}: ${err.message}`);
    const detail = err.sentence ? err.message : { reason: err.reason, message: err.message, ...err.extra };
    return { status: err.status, headers: err.headers, body: { detail } };
  }
  log.error('unexpected error', { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  return { status: 500, headers: {}, body: { detail: { reason: 'internal_error', message: 'An unexpected error occurred; the server log has details.' } } };
}

/** Set the status and headers of an error on the event and answer its body. */
export function sendError(event: H3Event, err: unknown, log: Logger): ErrorAnswer['body'] {
  const answer = errorAnswer(err, log);
  event.res.status = answer.status;
  event.res.statusText = STATUS_CODES[answer.status] ?? '';
  for (const [k, v] of Object.entries(answer.headers)) event.res.headers.set(k, v);
  return answer.body;
}

/** A JSON Response, for the few answers built outside a handler (tests, preflight). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText: STATUS_CODES[status] ?? '',
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
