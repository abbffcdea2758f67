/**
 * valibot schemas applied to request input, with failures turned into the
 * spec's 422 detail array: {loc, msg, type, input, ctx}.
 */
import * as v from 'valibot';
import { ValidationError, type ValidationIssue } from '../errors.js';

export interface ParseOptions {
  /** Leave `input` out of the detail (bodies that may carry a secret). */
  hideInput?: boolean;
}

export function toIssues(issues: v.BaseIssue<unknown>[], prefix: (string | number)[], options: ParseOptions = {}): ValidationIssue[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => item.key as string | number);
    const ctx: Record<string, unknown> = {};
    if (issue.expected !== null) ctx.expected = issue.expected;
    if (issue.received !== undefined) ctx.received = issue.received;
    return {
      loc: [...prefix, ...path],
      msg: issue.message,
      type: issue.type,
      ...(options.hideInput ? {} : { input: issue.input === undefined ? null : issue.input }),
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
