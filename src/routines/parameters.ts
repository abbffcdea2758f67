/**
 * A routine's `parameters`: the search it runs, with the keys and meaning of a
 * SweepRequest (`repository` accepted for one source), plus a relative date
 * window. Validated at create and update; a refusal names the bad key. Stored
 * normalized (one spelling: `repositories`), so a read shows what runs.
 */
import * as v from 'valibot';
import { invalid } from '../errors.js';
import { DiveRequest, SweepRequest } from '../executions/request.js';
import { findSource } from '../sources/index.js';
import { parseWith } from '../util/validate.js';
import { parseAiSettings } from '../executions/ai-settings.js';
import type { RoutineParameters } from '../wire/routines.js';

export const MAX_WINDOW_DAYS = 3650;

export type { RoutineParameters } from '../wire/routines.js';

/** Keys of a SweepRequest a routine cannot keep, and why. */
const REFUSED: Record<string, string> = {
  date_from: 'A routine fires again and again, so its window is relative: use window_days (and since_last_success) instead of date_from',
  date_to: 'A routine fires again and again, so its window is relative: use window_days (and since_last_success) instead of date_to',
  ephemeral_credentials: 'A routine never stores secrets: store the key with `svc credentials set` or PUT /api/credentials/{key_name}',
  request_id: 'request_id belongs to one submission; a routine fires many times',
};

const e = SweepRequest.entries;
const Schema = v.object({
  repositories: v.optional(e.repositories),
  repository: v.optional(DiveRequest.entries.repository),
  // Empty only for a routine that follows a watch profile (checked below): the person is the search.
  query: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000)), ''),
  keywords: e.keywords,
  max_results: e.max_results,
  ai_enabled: e.ai_enabled,
  ai_settings: e.ai_settings,
  saved_configuration_id: e.saved_configuration_id,
  window_days: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_WINDOW_DAYS))), null),
  since_last_success: v.optional(v.boolean(), false),
});

export const PARAMETER_KEYS = Object.keys(Schema.entries);

/**
 * One parameter of a routine being made, checked by the rule create applies to it, for a
 * question that asks again on a refusal: the refusal's words, or undefined.
 * @example parameterRefusal('window_days', 9999) // 'Invalid value: Expected <=3650 but received 9999.'
 */
export function parameterRefusal(key: 'query' | 'window_days', value: unknown): string | undefined {
  const checked = v.safeParse(Schema.entries[key], value);
  return checked.success ? undefined : `${checked.issues[0].message.replace(/\.$/, '')}.`;
}

/** The refusal of an empty query, for a routine that follows no profile. */
export function emptyQueryRefused(prefix: (string | number)[]) {
  return invalid([...prefix, 'query'], 'The query must not be empty (it may be empty only when the routine follows a watch profile: entity)', 'min_length', '');
}

/** `followsProfile`: the routine has an entity, so an empty query means "everything by that person". */
export function parseRoutineParameters(input: unknown, prefix: (string | number)[], followsProfile = false): RoutineParameters {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(prefix, 'parameters must be an object holding the search: {"repositories": [...], "query": "..."}', 'dict_type', input);
  }
  for (const key of Object.keys(input)) {
    if (REFUSED[key]) throw invalid([...prefix, key], REFUSED[key]!, 'parameter_refused');
    if (!PARAMETER_KEYS.includes(key)) {
      throw invalid([...prefix, key], `Unknown parameter "${key.slice(0, 64)}"; a routine's parameters take ${PARAMETER_KEYS.join(', ')}`, 'extra_forbidden');
    }
  }
  const parsed = parseWith(Schema, input, prefix);
  if (!parsed.query && !followsProfile) throw emptyQueryRefused(prefix);
  if (parsed.repositories && parsed.repository) throw invalid([...prefix, 'repository'], 'Give repositories or repository, not both', 'parameter_conflict');
  const ids = parsed.repositories ?? (parsed.repository ? [parsed.repository] : undefined);
  if (!ids) throw invalid([...prefix, 'repositories'], 'Name the sources to search: repositories (a list) or repository (one id)', 'missing');
  const repositories: string[] = [];
  ids.forEach((id, i) => {
    const loc = parsed.repositories ? [...prefix, 'repositories', i] : [...prefix, 'repository'];
    if (!findSource(id)) throw invalid(loc, `Unknown repository "${id.slice(0, 64)}"; GET /api/repositories/catalog (or \`svc sources\`) lists them`, 'unknown_repository', id);
    if (!repositories.includes(id)) repositories.push(id);
  });
  return {
    repositories,
    query: parsed.query,
    keywords: parsed.keywords ?? [],
    max_results: parsed.max_results,
    ai_enabled: parsed.ai_enabled,
    ai_settings: parseAiSettings(parsed.ai_settings, [...prefix, 'ai_settings']) as Record<string, unknown> | null,
    saved_configuration_id: parsed.saved_configuration_id,
    window_days: parsed.window_days,
    since_last_success: parsed.since_last_success,
  };
}
