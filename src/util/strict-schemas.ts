/**
 * valibot schemas of the strict input the Library and Evidence routes take
 * (spec 2 "General rules"): canonical lowercase UUIDs, exact integers (no
 * boolean, float or string coercion), bounded strings, closed objects. Each
 * check's message names its refusal reason before REASON_MARK; parseStrict
 * (validate.ts) answers the first issue as one 422 {reason, message, loc},
 * `{name}` standing for the field.
 */
import * as v from 'valibot';
import { isUuid4 } from '../random.js';
import { REASON_MARK } from './validate.js';

/** An issue message that carries its refusal reason. */
export const say = (reason: string, message: string) => `${reason}${REASON_MARK}${message}`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const UUID = say('invalid_uuid', '{name} must be a canonical lowercase UUID.');
export const uuid = () => v.pipe(v.string(UUID), v.check(isUuid4, UUID));

const within = (min: number, max?: number) => v.check((n: number) => n >= min && (max === undefined || n <= max), say('out_of_range', `{name} must be from ${min}${max === undefined ? '' : ` to ${max}`}.`));
const EXACT = say('invalid_integer', '{name} must be an exact integer.');

/** An integer in a JSON body (readValid's strict mode also refuses one written with a fraction or exponent). */
export const jsonInt = (min: number, max?: number) =>
  v.pipe(v.number(say('invalid_integer', '{name} must be a JSON integer (no string or boolean).')), v.safeInteger(EXACT), within(min, max));

const DIGITS = say('invalid_integer', '{name} must be an integer written in decimal digits.');
/** An integer in the query: decimal digits only, no sign or leading zero. */
export const queryInt = (min: number, max?: number) => v.pipe(v.string(DIGITS), v.regex(/^(0|[1-9][0-9]*)$/, DIGITS), v.transform(Number), v.safeInteger(EXACT), within(min, max));

/** A string of min to max Unicode codepoints. */
export const text = (min: number, max: number) =>
  v.pipe(
    v.string(say('invalid_string', '{name} must be a string.')),
    v.check((s: string) => {
      const n = [...s].length;
      return n >= min && n <= max;
    }, say('invalid_string', `{name} must have ${min} to ${max} characters.`)),
  );

export const literal = <const T extends string>(value: T) => v.literal(value, say('invalid_value', `{name} must be ${value}.`));
export const bool = () => v.boolean(say('invalid_boolean', '{name} must be a JSON boolean (true or false).'));

/** Messages of a closed object: an unknown key, a missing key, a value that is no object. */
function keyMessages(unknown: string, missing: string, notObject: string) {
  return (issue: v.BaseIssue<unknown>) => (issue.path === undefined ? notObject : issue.expected === 'never' ? unknown : missing);
}

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish']);

/**
 * Every unknown key, then every missing one, refused before any value is
 * looked at; `perKey` puts the key in the refusal's loc, else it names the
 * object.
 */
function keysFirst(entries: v.ObjectEntries, unknown: string, missing: string, perKey: boolean) {
  return v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const input = dataset.value;
    const extra = Object.keys(input).find((key) => !Object.hasOwn(entries, key));
    const absent = Object.keys(entries).find((key) => !Object.hasOwn(input, key) && !OPTIONAL.has(entries[key]!.type));
    const key = extra ?? absent;
    if (key === undefined) return;
    const message = extra === undefined ? missing : unknown;
    if (perKey) addIssue({ message, path: [{ type: 'object', origin: 'key', input, key, value: input[key] }] });
    else addIssue({ message });
  });
}

/**
 * A JSON object (never an array) with exactly these entries; `reasons` name its
 * refusals. With `keysFirst`, the keys are checked before the values (see
 * keysFirst); without, in the entries' order, an unknown key first.
 */
export function closedObject<const E extends v.ObjectEntries>(
  entries: E,
  reasons: { notObject: string; unknown: string; missing: string; keysFirst?: 'per_key' | 'whole' },
) {
  const object = v.strictObject(entries, keyMessages(reasons.unknown, reasons.missing, reasons.notObject));
  const isRecord = v.custom<Record<string, unknown>>(isObject, reasons.notObject);
  if (reasons.keysFirst === undefined) return v.pipe(isRecord, object);
  return v.pipe(isRecord, keysFirst(entries, reasons.unknown, reasons.missing, reasons.keysFirst === 'per_key'), object);
}

/** A JSON body object with exactly these fields. */
export const jsonBody = <const E extends v.ObjectEntries>(entries: E) =>
  closedObject(entries, {
    notObject: say('invalid_body', 'The body must be a JSON object.'),
    unknown: say('unknown_field', 'Unknown field {name}.'),
    missing: say('missing_field', 'Field {name} is required.'),
  });

/** The query (its values are strings) with exactly these keys. */
export const queryObject = <const E extends v.ObjectEntries>(entries: E) =>
  v.strictObject(
    entries,
    keyMessages(say('unknown_query_key', 'Unknown query parameter {name}.'), say('missing_query_key', 'Query parameter {name} is required.'), say('invalid_query', 'The query is not a set of keys.')),
  );
