/**
 * What a run asks: DiveRequest and SweepRequest as the spec writes them,
 * validated once here for both doors (HTTP and CLI), and reduced to a RunSpec
 * that is stored with the execution (ephemeral credentials never are).
 */
import * as v from 'valibot';
import { findCredentialName } from '../credentials/names.js';
import { MAX_CREDENTIAL_LENGTH } from '../credentials/store.js';
import { invalid } from '../errors.js';
import { findSource } from '../sources/index.js';
import { JsonObject, parseWith } from '../util/validate.js';
import { parseAiSettings, type AiSettings } from './ai-settings.js';
import type { RunType as ExecutionType } from '../wire/executions.js';

export const MAX_RESULTS_LIMIT = 10_000;
export const DEFAULT_MAX_RESULTS = 100;

export type { RunType as ExecutionType } from '../wire/executions.js';

export interface RunSpec {
  type: ExecutionType;
  repositories: string[];
  query: string;
  keywords: string[];
  dateFrom: string | null;
  dateTo: string | null;
  maxResults: number;
  aiEnabled: boolean;
  /** model, max_output_tokens, instructions (ai-settings.ts); older stored runs may hold other keys, ignored. */
  aiSettings: AiSettings | Record<string, unknown> | null;
  /** Names of stored ai_settings keys svc left out of this run (a routine's, from before they were refused). */
  aiSettingsIgnored?: string[];
  requestId: string | null;
  savedConfigurationId: number | null;
  routineId: number | null;
  author: string | null;
  /** The followed profile's ORCID iD, asked of the sources that search by it (the others get `author`). */
  authorOrcid?: string | null;
  /** The watch profile a routine follows and how (follow/check.ts checks its papers in mode retractions). */
  follow?: { profileId: number; mode: 'new_papers' | 'retractions' } | null;
}

/**
 * The search as a person reads it, in reports, digests and the run log: `"soil"`;
 * for a routine that follows a person, `"soil" by Jane Doe`, or `everything by
 * Jane Doe` when it has no words (an empty query, printed as "" before).
 */
export function searchWords(spec: { query: string; author?: string | null }): string {
  const by = spec.author ? ` by ${spec.author}` : '';
  return spec.query ? `"${spec.query}"${by}` : spec.author ? `everything${by}` : '""';
}

/** A calendar date YYYY-MM-DD that exists (shared by every body that takes one). */
export const isoDate = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Input should be a date as YYYY-MM-DD'),
  v.check((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'Input should be a real calendar date'),
);

const common = {
  query: v.pipe(v.string(), v.trim(), v.minLength(1, 'The query must not be empty'), v.maxLength(2000)),
  ai_enabled: v.optional(v.boolean(), false),
  // Its keys are checked after the schema (ai-settings.ts), so a refusal never quotes a value typed there.
  ai_settings: v.optional(v.nullable(JsonObject), null),
  date_from: v.optional(v.nullable(isoDate), null),
  date_to: v.optional(v.nullable(isoDate), null),
  ephemeral_credentials: v.optional(v.nullable(v.record(v.string(), v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_CREDENTIAL_LENGTH)))), null),
  keywords: v.optional(v.nullable(v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))), v.maxLength(50))), null),
  max_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_RESULTS_LIMIT)), DEFAULT_MAX_RESULTS),
  request_id: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), null),
  saved_configuration_id: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), null),
};

export const DiveRequest = v.object({ repository: v.pipe(v.string(), v.minLength(1)), ...common });
export const SweepRequest = v.object({ repositories: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.maxLength(40)), ...common });

type Common = v.InferOutput<typeof DiveRequest>;

export interface ParsedRun {
  spec: RunSpec;
  ephemeralCredentials: Record<string, string>;
}

function checkRepositories(ids: string[], loc: (string | number)[]): string[] {
  const seen: string[] = [];
  ids.forEach((id, i) => {
    if (!findSource(id)) throw invalid([...loc, ...(loc.length > 1 ? [] : [i])], `Unknown repository "${id}"; GET /api/repositories/catalog (or \`svc sources\`) lists them`, 'unknown_repository', id);
    if (!seen.includes(id)) seen.push(id);
  });
  return seen;
}

function finish(type: ExecutionType, repositories: string[], body: Omit<Common, 'repository'>): ParsedRun {
  if (body.date_from && body.date_to && body.date_from > body.date_to) {
    throw invalid(['body', 'date_to'], 'date_to is before date_from', 'date_order', body.date_to);
  }
  const aiSettings = parseAiSettings(body.ai_settings, ['body', 'ai_settings']);
  const ephemeral = body.ephemeral_credentials ?? {};
  for (const name of Object.keys(ephemeral)) {
    if (!findCredentialName(name)) throw invalid(['body', 'ephemeral_credentials', name], `Unknown credential name "${name.slice(0, 64)}"`, 'unknown_credential');
  }
  return {
    ephemeralCredentials: ephemeral,
    spec: {
      type,
      repositories,
      query: body.query,
      keywords: body.keywords ?? [],
      dateFrom: body.date_from,
      dateTo: body.date_to,
      maxResults: body.max_results,
      aiEnabled: body.ai_enabled,
      aiSettings,
      requestId: body.request_id,
      savedConfigurationId: body.saved_configuration_id,
      routineId: null,
      author: null,
    },
  };
}

/** Validate a body that may carry secrets: a refusal never echoes input when ephemeral credentials are present. */
function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const secret = typeof body === 'object' && body !== null && 'ephemeral_credentials' in body;
  return parseWith(schema, body, ['body'], { hideInput: secret });
}

export function parseDive(body: unknown): ParsedRun {
  const parsed = parseBody(DiveRequest, body);
  return finish('dive', checkRepositories([parsed.repository], ['body', 'repository']), parsed);
}

export function parseSweep(body: unknown): ParsedRun {
  const parsed = parseBody(SweepRequest, body);
  return finish('sweep', checkRepositories(parsed.repositories, ['body', 'repositories']), parsed);
}

