/**
 * Flag and argument values, checked before anything runs. A bad value is a
 * usage error (exit 2) that names the flag, the value given and what is
 * allowed. Bounds come from the service layer, so the CLI and the HTTP door
 * refuse exactly the same values.
 */
import { SvcError } from '../../src/errors.js';
import { clip } from './words.js';

/** A usage error: exit status 2, `{"error": "invalid_flag", …}` under --json. */
/** A value the user gave, quoted for a refusal: at most 60 characters and always one line. */
export const given = (raw: string): string => JSON.stringify(clip(raw, 60));

export function usageError(message: string, reason = 'invalid_flag'): SvcError {
  return new SvcError(400, reason, message);
}

export interface IntBounds {
  min: number;
  max: number;
}

/** A whole number within bounds, or `fallback` when the flag was not given. */
export function intFlag(raw: string | undefined, flag: string, bounds: IntBounds, fallback: number): number;
export function intFlag(raw: string | undefined, flag: string, bounds: IntBounds): number | undefined;
export function intFlag(raw: string | undefined, flag: string, bounds: IntBounds, fallback?: number): number | undefined {
  if (raw === undefined) return fallback;
  const range = bounds.max >= Number.MAX_SAFE_INTEGER ? `at least ${bounds.min}` : `from ${bounds.min} to ${bounds.max}`;
  const value = /^-?\d{1,16}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw usageError(`${flag} must be a whole number ${range}, not ${given(raw)}.`);
  }
  return value;
}

/** A positive row id given as an argument (`svc executions show 3`). */
export function idArg(raw: string, what: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw usageError(`${/^[aeiou]/i.test(what) ? 'An' : 'A'} ${what} id is a positive whole number, not ${given(raw)}.`, 'invalid_id');
  return Number(raw);
}

/** One of a closed list of values. */
export function enumFlag<T extends string>(raw: string | undefined, flag: string, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw usageError(`${flag} must be one of ${allowed.join(', ')}, not ${given(raw)}.`);
  return raw as T;
}

/** A comma-separated list, trimmed, empty items dropped. */
export function listFlag(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/** A calendar date YYYY-MM-DD that exists. */
export function dateFlag(raw: string | undefined, flag: string): string | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!d || d.toISOString().slice(0, 10) !== raw) {
    // 2025-02-30 has the shape: say the day does not exist rather than ask for the shape it has.
    if (!m) throw usageError(`${flag} must be a date YYYY-MM-DD, not ${given(raw)}.`);
    const month = Number(m[2]);
    const why = month < 1 || month > 12 ? 'there is no month ' + m[2] : `${m[1]}-${m[2]} has ${new Date(Date.UTC(Number(m[1]), month, 0)).getUTCDate()} days`;
    throw usageError(`${flag}: ${raw} is not a day of the calendar (${why}).`);
  }
  return raw;
}

/** A word after a command that has a default subcommand but is none of its subcommands (exit 2). */
export function unknownSubcommand(command: string, word: string, known: string[]): never {
  throw usageError(`${given(word)} is not a ${command} command; one of ${known.join(', ')}.`, 'unknown_command');
}

/** Where the CLI prints each kind of UUID, so a refusal says where to copy one from. */
const UUID_FOUND_IN: Record<string, string> = {
  project: 'the PROJECT_ID column of `svc evidence list`',
  file_id: 'the FILE_ID column of `svc library list`',
  '--file': 'the FILE_ID column of `svc library list`',
  '--version': 'the version_id of `svc library show FILE`',
  answer_id: '`svc answer list PROJECT`',
  preview_id: 'what `svc answer preview` printed',
};

/** A canonical lowercase UUID argument, else exit 2 naming it, the value and where to find one. */
export function uuidArg(value: string, what: string, isUuid: (v: string) => boolean): string {
  if (isUuid(value)) return value;
  const where = UUID_FOUND_IN[what];
  throw usageError(`${what} must be a canonical lowercase UUID${where ? ` (${where})` : ''}, not ${given(value)}.`);
}
