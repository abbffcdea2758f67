/**
 * Saved configurations: a named search to reuse. config_type says what the
 * parameters are, and they are validated as that request would be:
 *   dive    — a DiveRequest body (repository, query, …)
 *   sweep   — a SweepRequest body (repositories, query, …)
 *   routine — a routine's parameters (see svc-routine(1))
 * Any other type is refused with 422. A saved configuration never keeps a
 * secret (ephemeral_credentials) or a one-submission request_id.
 */
import * as v from 'valibot';
import { invalid, ValidationError } from '../errors.js';
import { DiveRequest, parseDive, parseSweep, SweepRequest } from '../executions/request.js';
import { parseRoutineParameters } from '../routines/parameters.js';
import { JsonObject } from '../util/validate.js';

import type { ConfigType } from '../wire/configurations.js';

export type { ConfigType } from '../wire/configurations.js';

export const CONFIG_TYPES = ['dive', 'sweep', 'routine'] as const satisfies readonly ConfigType[];
export const MAX_CONFIG_NAME = 200;

const NOT_KEPT: Record<string, string> = {
  ephemeral_credentials: 'A saved configuration never stores secrets: store the key with `svc credentials set` or PUT /api/credentials/{key_name}',
  request_id: 'request_id belongs to one submission, not to a saved configuration',
  saved_configuration_id: 'A saved configuration cannot point at another one',
};

const kept = (keys: string[]) => keys.filter((k) => !NOT_KEPT[k]);
const DIVE_KEYS = kept(Object.keys(DiveRequest.entries));
const SWEEP_KEYS = kept(Object.keys(SweepRequest.entries));

const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'The name must not be empty'), v.maxLength(MAX_CONFIG_NAME));

export const ConfigCreate = v.object({
  name,
  config_type: v.string(),
  parameters: JsonObject,
  link_to_execution_id: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null),
});

export const ConfigUpdate = v.object({ name: v.nullish(name), parameters: v.nullish(JsonObject) });

export function checkConfigType(raw: string, loc: (string | number)[]): ConfigType {
  if (!(CONFIG_TYPES as readonly string[]).includes(raw)) {
    throw invalid(loc, `config_type must be one of ${CONFIG_TYPES.join(', ')}`, 'enum', raw.slice(0, 64), { expected: CONFIG_TYPES });
  }
  return raw as ConfigType;
}

/** Re-root a request validator's `body` loc under `loc`. */
function under<T>(loc: (string | number)[], fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ValidationError) throw new ValidationError(err.issues.map((i) => ({ ...i, loc: [...loc, ...i.loc.filter((p, n) => !(n === 0 && p === 'body'))] })));
    throw err;
  }
}

/** Validate parameters for their type; answers them as given (they round-trip through export and import). */
export function checkConfigParameters(type: ConfigType, parameters: Record<string, unknown>, loc: (string | number)[]): Record<string, unknown> {
  for (const key of Object.keys(parameters)) if (NOT_KEPT[key]) throw invalid([...loc, key], NOT_KEPT[key]!, 'parameter_refused');
  if (type === 'routine') parseRoutineParameters(parameters, loc);
  else {
    const keys = type === 'dive' ? DIVE_KEYS : SWEEP_KEYS;
    for (const key of Object.keys(parameters)) {
      if (!keys.includes(key)) throw invalid([...loc, key], `Unknown parameter "${key.slice(0, 64)}" for a ${type}; it takes ${keys.join(', ')}`, 'extra_forbidden');
    }
    under(loc, () => (type === 'dive' ? parseDive(parameters) : parseSweep(parameters)));
  }
  return parameters;
}
