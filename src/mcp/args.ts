/**
 * Tool arguments, declared once: each spec gives the JSON Schema the tool
 * listing advertises and the check applied before any request. Unknown
 * arguments are refused (a misspelt limit must not silently become 25).
 */
import { invalidArgument } from './errors.js';

export type ArgSpec =
  | { type: 'string'; description: string; required?: boolean; enum?: readonly string[]; maxLength?: number; pattern?: RegExp; patternHint?: string }
  | { type: 'integer'; description: string; required?: boolean; default?: number; min: number; max: number }
  | { type: 'boolean'; description: string; required?: boolean; default?: boolean }
  | { type: 'string[]'; description: string; required?: boolean; maxItems: number; minItems?: number }
  | { type: 'integer[]'; description: string; required?: boolean; maxItems: number; minItems?: number }
  | { type: 'object'; description: string; required?: boolean; schema?: Record<string, unknown> };

export type ArgSpecs = Record<string, ArgSpec>;

export function jsonSchemaOf(specs: ArgSpecs): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(specs)) {
    const base: Record<string, unknown> = { description: s.description };
    // The pattern is advertised too, so a harness can check a date or an id before it calls.
    if (s.type === 'string') Object.assign(base, { type: 'string' }, s.enum ? { enum: s.enum } : {}, s.maxLength ? { maxLength: s.maxLength } : {}, s.pattern ? { pattern: s.pattern.source } : {});
    else if (s.type === 'integer') Object.assign(base, { type: 'integer', minimum: s.min, maximum: s.max }, s.default !== undefined ? { default: s.default } : {});
    else if (s.type === 'boolean') Object.assign(base, { type: 'boolean' }, s.default !== undefined ? { default: s.default } : {});
    else if (s.type === 'string[]') Object.assign(base, { type: 'array', items: { type: 'string' }, maxItems: s.maxItems }, s.minItems ? { minItems: s.minItems } : {});
    else if (s.type === 'integer[]') Object.assign(base, { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: s.maxItems }, s.minItems ? { minItems: s.minItems } : {});
    else Object.assign(base, { type: 'object' }, s.schema ?? {});
    properties[name] = base;
  }
  const required = Object.entries(specs).filter(([, s]) => s.required).map(([n]) => n);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);

/** Checked arguments with defaults filled; invalid_argument naming the argument otherwise. */
export function checkArgs(tool: string, specs: ArgSpecs, raw: unknown): Record<string, any> {
  const input = raw ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) throw invalidArgument(`${tool} takes an object of arguments.`);
  const out: Record<string, any> = {};
  for (const key of Object.keys(input)) {
    if (!specs[key]) throw invalidArgument(`${tool} has no argument "${key.slice(0, 64)}"; it takes ${Object.keys(specs).join(', ') || 'none'}.`, { argument: key });
  }
  for (const [name, s] of Object.entries(specs)) {
    const value = (input as Record<string, unknown>)[name];
    const bad = (why: string) => invalidArgument(`${tool}: ${name} ${why}.`, { argument: name });
    if (value === undefined || value === null) {
      if (s.required) throw bad('is required');
      if ('default' in s && s.default !== undefined) out[name] = s.default;
      continue;
    }
    switch (s.type) {
      case 'string':
        if (typeof value !== 'string') throw bad('must be a string');
        if (s.enum && !s.enum.includes(value)) throw bad(`must be one of ${s.enum.join(', ')}`);
        if (s.maxLength && value.length > s.maxLength) throw bad(`must be at most ${s.maxLength} characters`);
        if (s.pattern && !s.pattern.test(value)) throw bad(s.patternHint ?? 'has the wrong form');
        break;
      case 'integer':
        if (!isInt(value) || value < s.min || value > s.max) throw bad(`must be a whole number from ${s.min} to ${s.max}`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') throw bad('must be true or false');
        break;
      case 'string[]':
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw bad('must be a list of strings');
        if (value.length > s.maxItems || value.length < (s.minItems ?? 0)) throw bad(`must hold ${s.minItems ?? 0} to ${s.maxItems} items`);
        break;
      case 'integer[]':
        if (!Array.isArray(value) || !value.every((v) => isInt(v) && v >= 1)) throw bad('must be a list of positive whole numbers');
        if (value.length > s.maxItems || value.length < (s.minItems ?? 0)) throw bad(`must hold ${s.minItems ?? 0} to ${s.maxItems} items`);
        break;
      case 'object':
        if (typeof value !== 'object' || Array.isArray(value)) throw bad('must be an object');
        break;
    }
    out[name] = value;
  }
  return out;
}

/** A runtime identity expectation: a canonical lowercase UUID4, checked before any network access. */
export const EXPECTED_RUNTIME_ID: ArgSpec = {
  type: 'string',
  description: 'Only answer if the service is this instance (its runtime_id from health); otherwise instance_mismatch.',
  pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  patternHint: 'must be a runtime_id as health reports it (a lowercase UUID)',
};

export const LIMIT = (max = 100): ArgSpec => ({ type: 'integer', description: `Rows per page (1-${max}, default 25).`, default: 25, min: 1, max });
export const OFFSET: ArgSpec = {
  type: 'integer',
  description: 'Rows to skip (default 0): pass next_offset of the previous page; has_more false is the last page, and an offset past the end answers no rows with page_note.',
  default: 0,
  min: 0,
  max: 1_000_000,
};
/** Where an agent finds each kind of id, said in the argument so it need not guess. */
const ID_FROM: Record<string, string> = {
  document: 'id of a paper from search_corpus, get_execution_results or find_similar, or document_id of a get_profile_matches row',
  execution: 'exec_id from run_sweep or run_routine, or id from list_executions',
  routine: 'id from list_routines or create_routine',
  'watch profile': 'id from list_watch_profiles or create_watch_profile',
};
export const ID = (what: string): ArgSpec => ({ type: 'integer', description: `The ${what} id${ID_FROM[what] ? ` (${ID_FROM[what]})` : ''}.`, required: true, min: 1, max: Number.MAX_SAFE_INTEGER });
