/**
 * What the backend says when it refuses, in one shape for the pages: the
 * service's reason and its sentence, and for a 422 the items of the spec's
 * validation shape, so a form can put each message beside its field by `loc`.
 * Three bodies reach us: `{detail: {reason, message, …}}` (guard and domain
 * refusals), `{detail: [{loc, msg, type, input, ctx}]}` (validation) and
 * `{detail: "<sentence>"}` (the admission refusal, 429).
 */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly reason: string;
  readonly items: ValidationItem[];
  readonly detail: Record<string, unknown>;

  constructor(status: number, reason: string, message: string, items: ValidationItem[] = [], detail: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.items = items;
    this.detail = detail;
  }
}

/** The backend could not be reached at all (stopped, restarting, another port). */
export class Unreachable extends ApiError {
  constructor(baseUrl: string) {
    super(0, 'backend_unreachable', `svc does not answer at ${baseUrl}. It may have stopped or be restarting.`);
  }
}

const sentenceOf = (items: ValidationItem[]) => items.map((i) => i.msg.replace(/\.?$/, '.')).join(' ');

/** An ApiError from a refusal's status and parsed body (null when it was not JSON). */
export function errorFromBody(status: number, body: unknown): ApiError {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (Array.isArray(detail)) return new ApiError(status, 'validation_failed', sentenceOf(detail as ValidationItem[]), detail as ValidationItem[]);
  if (typeof detail === 'string') return new ApiError(status, status === 429 ? 'no_free_slot' : `http_${status}`, detail);
  if (detail && typeof detail === 'object') {
    const d = detail as Record<string, unknown>;
    const reason = typeof d.reason === 'string' ? d.reason : typeof d.code === 'string' ? d.code : `http_${status}`;
    const message = typeof d.message === 'string' ? d.message : `svc refused the request (${status}).`;
    return new ApiError(status, reason, message, [], d);
  }
  return new ApiError(status, `http_${status}`, `svc answered ${status} without saying why.`);
}

/**
 * The refusals of a 422 that belong to one field, by the tail of their `loc` (e.g. ["body", "query"] → "query");
 * an item of a list field belongs to the list (["body", "authors", 0] → "authors").
 */
export function itemsFor(err: unknown, field: string): ValidationItem[] {
  if (!(err instanceof ApiError)) return [];
  const path = (loc: ValidationItem['loc']) => {
    const parts = [...loc];
    while (parts.length > 1 && typeof parts[parts.length - 1] === 'number') parts.pop();
    return parts.map(String).join('.');
  };
  return err.items.filter((i) => path(i.loc).endsWith(field));
}

/** A reason code as words: "window_unanswerable" → "window unanswerable". */
export const reasonWords = (reason: string) => reason.replace(/_/g, ' ');
