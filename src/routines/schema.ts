/**
 * RoutineCreate and RoutineUpdate as the spec writes them. Create applies the
 * spec's defaults; update takes every field optional and nullable with no
 * defaults. On update, null clears a field that may be empty (intent,
 * ai_settings, storage_settings, entity) and leaves one that cannot be empty
 * (name, schedule_cron, parameters, the booleans) unchanged. Unknown keys are
 * refused by name so a misspelt field is not dropped silently.
 */
import * as v from 'valibot';
import { invalid } from '../errors.js';
import { CronSyntaxError, parseSchedule } from '../scheduler/cron.js';
import { JsonObject, parseWith } from '../util/validate.js';
import { parseRoutineParameters } from './parameters.js';
import type { RoutineValues } from '../wire/routines.js';
import { parseAiSettings } from '../executions/ai-settings.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_INTENT_LENGTH = 2000;

const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'The name must not be empty'), v.maxLength(MAX_NAME_LENGTH));
const intent = v.pipe(v.string(), v.trim(), v.minLength(1, 'An empty intent says nothing; leave intent out or send null for none'), v.maxLength(MAX_INTENT_LENGTH));

/**
 * A routine's name or intent, checked by the rule create applies to it, for a question
 * that asks again on a refusal: the refusal's words, or undefined.
 * @example routineFieldRefusal('name', ' ') // 'The name must not be empty.'
 */
export function routineFieldRefusal(field: 'name' | 'intent', value: string): string | undefined {
  const checked = v.safeParse(field === 'name' ? name : intent, value);
  return checked.success ? undefined : `${checked.issues[0].message.replace(/\.$/, '')}.`;
}

/** The fields a create or update gives, as the routine stores them; the entity still raw. */
export interface RoutineFields extends Omit<RoutineValues, 'entity'> {
  /** Raw; checked by checkEntity (a bad one is 400, not 422). */
  entity: unknown;
}

const Create = v.object({
  name,
  schedule_cron: v.string(),
  parameters: v.unknown(),
  ai_enabled: v.optional(v.boolean(), false),
  ai_settings: v.optional(v.nullable(JsonObject), null),
  email_ai_summary_enabled: v.optional(v.boolean(), false),
  email_enabled: v.optional(v.boolean(), false),
  intent: v.optional(v.nullable(intent), null),
  is_active: v.optional(v.boolean(), true),
  notify_on_complete: v.optional(v.boolean(), false),
  storage_settings: v.optional(v.nullable(JsonObject), null),
  entity: v.optional(v.unknown(), null),
});

const Update = v.object({
  name: v.nullish(name),
  schedule_cron: v.nullish(v.string()),
  parameters: v.nullish(v.unknown()),
  ai_enabled: v.nullish(v.boolean()),
  ai_settings: v.nullish(JsonObject),
  email_ai_summary_enabled: v.nullish(v.boolean()),
  email_enabled: v.nullish(v.boolean()),
  intent: v.nullish(intent),
  is_active: v.nullish(v.boolean()),
  notify_on_complete: v.nullish(v.boolean()),
  storage_settings: v.nullish(JsonObject),
  entity: v.nullish(v.unknown()),
});

export const ROUTINE_KEYS = Object.keys(Create.entries);
const NULL_CLEARS = ['intent', 'ai_settings', 'storage_settings', 'entity'];

function checkKeys(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return; // the schema says what is wrong
  for (const key of Object.keys(body)) {
    if (!ROUTINE_KEYS.includes(key)) throw invalid(['body', key], `Unknown field "${key.slice(0, 64)}"; a routine takes ${ROUTINE_KEYS.join(', ')}`, 'extra_forbidden');
  }
}

/** Validate a schedule in the svc dialect (422 saying what is wrong). */
export function checkCron(expression: string, now: Date, loc: (string | number)[] = ['body', 'schedule_cron']): string {
  try {
    return parseSchedule(expression, now).expression;
  } catch (err) {
    if (err instanceof CronSyntaxError) throw invalid(loc, err.message, 'cron_invalid', expression.slice(0, 200));
    throw err;
  }
}

export function parseRoutineCreate(body: unknown, now: Date): RoutineFields {
  checkKeys(body);
  const parsed = parseWith(Create, body, ['body']);
  return {
    ...parsed,
    ai_settings: parseAiSettings(parsed.ai_settings, ['body', 'ai_settings']) as Record<string, unknown> | null,
    schedule_cron: checkCron(parsed.schedule_cron, now),
    parameters: parseRoutineParameters(parsed.parameters, ['body', 'parameters'], parsed.entity !== null && parsed.entity !== undefined),
    entity: parsed.entity ?? null,
  };
}

/** The fields an update changes; `null` for a clearable field means clear it. */
export function parseRoutineUpdate(body: unknown, now: Date): Partial<RoutineFields> {
  checkKeys(body);
  const parsed = parseWith(Update, body ?? {}, ['body']);
  const changes: Partial<RoutineFields> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (value === null && !NULL_CLEARS.includes(key)) continue;
    (changes as Record<string, unknown>)[key] = value;
  }
  if (changes.schedule_cron !== undefined) changes.schedule_cron = checkCron(changes.schedule_cron, now);
  if (changes.ai_settings) changes.ai_settings = parseAiSettings(changes.ai_settings, ['body', 'ai_settings']) as Record<string, unknown>;
  // Whether the routine follows a profile is known only with its stored entity: the service checks an empty query then.
  if (changes.parameters !== undefined) changes.parameters = parseRoutineParameters(changes.parameters, ['body', 'parameters'], true);
  return changes;
}
