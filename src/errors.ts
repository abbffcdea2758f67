/**
 * The one error type of svc. Services throw it; each door maps it once:
 * HTTP in server/errors.ts, exit codes in commands/lib/exit-codes.ts, the MCP
 * shape in src/mcp. `reason` is the stable machine code callers switch on.
 */
/**
 * One item of a 422 `detail` array, every key always present (spec 1). `input`
 * is the value refused, or null when there is none, or when it must not be
 * echoed: a secret, a destination, or a value too large to send back (a size
 * refusal). A value kept out of `input` is kept out of `msg` and `ctx` too.
 */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

export interface SvcErrorOptions {
  /** Extra response headers (for example Retry-After). */
  headers?: Record<string, string>;
  /** Answer `{detail: message}` instead of `{detail: {reason, message}}` (the spec's 429 sentence). */
  sentence?: boolean;
  cause?: unknown;
}

export class SvcError extends Error {
  readonly status: number;
  readonly reason: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  readonly sentence: boolean;

  constructor(status: number, reason: string, message: string, extra: Record<string, unknown> = {}, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SvcError';
    this.status = status;
    this.reason = reason;
    this.extra = extra;
    this.headers = options.headers ?? {};
    this.sentence = options.sentence ?? false;
  }
}

/** A request that failed validation: 422 with the spec's `detail` array. */
export class ValidationError extends SvcError {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(422, 'validation_failed', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = issues;
  }
}

/** One 422 item with every key of the spec's shape: input null when there is none to echo, ctx {} when there is nothing to add. */
export const invalid = (loc: (string | number)[], msg: string, type = 'value_error', input?: unknown, ctx?: Record<string, unknown>) =>
  new ValidationError([{ loc, msg, type, input: input === undefined ? null : input, ctx: ctx ?? {} }]);

export const badRequest = (reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(400, reason, message, extra);
export const notFound = (reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(404, reason, message, extra);
export const conflict = (reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(409, reason, message, extra);
export const forbidden = (reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(403, reason, message, extra);
export const tooLarge = (reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(413, reason, message, extra);
export const unavailable = (reason: string, message: string, extra?: Record<string, unknown>) => new SvcError(503, reason, message, extra);

export function isSvcError(err: unknown): err is SvcError {
  return err instanceof SvcError;
}
