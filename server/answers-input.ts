/**
 * Strict parsing of the nested parts of selected-answer bodies: selections
 * (file version with page or passage segments), note ids and choices. Every
 * object has exactly its fields; integers are exact; 422 names the location.
 */
import { SvcError } from '../src/errors.js';
import { isUuid4 } from '../src/random.js';
import type { AnswerChoices, SelectionInput, SelectionSegment } from '../src/answers/types.js';

type Loc = (string | number)[];
const bad = (reason: string, loc: Loc, message: string) => new SvcError(422, reason, message, { loc });

function object(value: unknown, loc: Loc, required: string[], optional: string[] = []): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad('invalid_value', loc, `${loc.join('.')} must be an object.`);
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!required.includes(k) && !optional.includes(k)) throw bad('unknown_field', [...loc, k], `Unknown field ${k}.`);
  for (const k of required) if (!Object.hasOwn(o, k)) throw bad('missing_field', [...loc, k], `Field ${k} is required.`);
  return o;
}

function int(value: unknown, loc: Loc, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw bad('invalid_integer', loc, `${loc.join('.')} must be an exact JSON integer.`);
  if (value < min) throw bad('out_of_range', loc, `${loc.join('.')} must be at least ${min}.`);
  return value;
}

function uuid(value: unknown, loc: Loc): string {
  if (typeof value !== 'string' || !isUuid4(value)) throw bad('invalid_uuid', loc, `${loc.join('.')} must be a canonical lowercase UUID.`);
  return value;
}

function array(value: unknown, loc: Loc, max: number): unknown[] {
  if (!Array.isArray(value)) throw bad('invalid_value', loc, `${loc.join('.')} must be an array.`);
  // A bound far above any limit keeps a huge array from costing work before the limits speak.
  if (value.length > max) throw new SvcError(413, 'selection_limit', `${loc.join('.')} has more than ${max} entries.`, { loc, limit: max });
  return value;
}

function segment(value: unknown, loc: Loc): SelectionSegment {
  const probe = object(value, loc, ['kind', 'page'], ['start_codepoint', 'end_codepoint']);
  if (probe.kind === 'page') {
    object(value, loc, ['kind', 'page']);
    return { kind: 'page', page: int(probe.page, [...loc, 'page'], 1) };
  }
  if (probe.kind !== 'passage') throw bad('invalid_value', [...loc, 'kind'], 'kind must be page or passage.');
  object(value, loc, ['kind', 'page', 'start_codepoint', 'end_codepoint']);
  return {
    kind: 'passage',
    page: int(probe.page, [...loc, 'page'], 1),
    start_codepoint: int(probe.start_codepoint, [...loc, 'start_codepoint'], 0),
    end_codepoint: int(probe.end_codepoint, [...loc, 'end_codepoint'], 0),
  };
}

/** selections: [{file_id, version_id, segments: [{kind: 'page', page} | {kind: 'passage', page, start_codepoint, end_codepoint}]}] */
export function parseSelections(value: unknown): SelectionInput[] {
  return array(value, ['body', 'selections'], 64).map((item, i) => {
    const loc = ['body', 'selections', i];
    const o = object(item, loc, ['file_id', 'version_id', 'segments']);
    return {
      file_id: uuid(o.file_id, [...loc, 'file_id']),
      version_id: uuid(o.version_id, [...loc, 'version_id']),
      segments: array(o.segments, [...loc, 'segments'], 256).map((s, j) => segment(s, [...loc, 'segments', j])),
    };
  });
}

export function parseNoteIds(value: unknown): number[] {
  if (value === undefined) return [];
  return array(value, ['body', 'note_ids'], 64).map((v, i) => int(v, ['body', 'note_ids', i], 1));
}

/** The composer choices object; its values are checked by the service (422 invalid_choices). */
export function parseChoices(value: unknown): AnswerChoices {
  return object(value, ['body', 'choices'], ['version', 'runtime', 'provider', 'model', 'effort']) as unknown as AnswerChoices;
}
