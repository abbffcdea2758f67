/**
 * valibot schemas applied to request input, with failures turned into the
 * spec's 422 detail array: {loc, msg, type, input, ctx}.
 */
import * as v from 'valibot';
import { SvcError, ValidationError, type ValidationIssue } from '../errors.js';

export interface ParseOptions {
  /**
   * The body carries a secret or a destination: no item echoes a value given,
   * neither as `input` (null) nor in `ctx.received` or valibot's "Received …"
   * message. A value that is missing has nothing to hide and is said as such.
   */
  hideInput?: boolean;
}

/**
 * valibot's default message ends with the value it received ("Invalid type:
 * Expected string but received 12345", "Invalid email: Received \"…\""): the
 * hidden form stops before it. svc's own messages never quote a value.
 */
function messageWithoutValue(issue: v.BaseIssue<unknown>): string {
  const tail = issue.expected === null ? `: Received ${issue.received}` : ` but received ${issue.received}`;
  return issue.message.endsWith(tail) ? issue.message.slice(0, -tail.length) : issue.message;
}

export function toIssues(issues: v.BaseIssue<unknown>[], prefix: (string | number)[], options: ParseOptions = {}): ValidationIssue[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => item.key as string | number);
    const hidden = options.hideInput === true && issue.input !== undefined;
    const ctx: Record<string, unknown> = {};
    if (issue.expected !== null) ctx.expected = issue.expected;
    if (issue.received !== undefined && !hidden) ctx.received = issue.received;
    return {
      loc: [...prefix, ...path],
      msg: hidden ? messageWithoutValue(issue) : issue.message,
      type: issue.type,
      input: hidden || issue.input === undefined ? null : issue.input,
      ctx,
    };
  });
}

export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown, prefix: (string | number)[], options: ParseOptions = {}): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw new ValidationError(toIssues(result.issues, prefix, options));
  return result.output;
}

/** A JSON object (not an array) with any keys: valibot's record alone lets arrays through. */
export const JsonObject = v.pipe(
  v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'Input should be a valid object'),
  v.record(v.string(), v.unknown()),
);

/** Parts a strict schema's issue message into its refusal reason and its text (see strict-schemas.ts). */
export const REASON_MARK = '\u001f';

type Issue = v.BaseIssue<unknown>;

/**
 * Strict input (the Library and Evidence routes, spec 2 "General rules"): the
 * first issue becomes one 422 refusal {reason, message, loc}. Issues of an outer
 * object come before those of a nested one, and an unknown key before the
 * other issues of its object; otherwise valibot's order (the fields' order).
 */
export function strictRefusal(issues: readonly Issue[], prefix: (string | number)[]): SvcError {
  const depth = (issue: Issue) => (issue.path?.length ?? 0) * 2 - (issue.type === 'strict_object' && issue.expected === 'never' ? 1 : 0);
  const issue = issues.reduce((first, next) => (depth(next) < depth(first) ? next : first));
  const loc = [...prefix, ...(issue.path ?? []).map((item) => (typeof item.key === 'number' ? item.key : String(item.key)))];
  const mark = issue.message.indexOf(REASON_MARK);
  const reason = mark < 0 ? 'invalid_value' : issue.message.slice(0, mark);
  const text = issue.message.slice(mark + 1).replaceAll('{name}', String(loc[loc.length - 1] ?? 'value'));
  return new SvcError(422, reason, text, { loc });
}

export function parseStrict<S extends v.GenericSchema>(schema: S, input: unknown, prefix: (string | number)[]): v.InferOutput<S> {
  const result = v.safeParse(schema, input);
  if (!result.success) throw strictRefusal(result.issues, prefix);
  return result.output;
}
