import type { Command } from 'commander';
import { findConfiguration } from '../../src/configurations/service.js';
import type { Context } from '../../src/context.js';
import { MAX_RESULTS_LIMIT } from '../../src/executions/request.js';
import { knownAiSettings, MAX_INSTRUCTIONS_LENGTH } from '../../src/executions/ai-settings.js';
import { searchableRepositories, sourcesNeedingDates } from '../../src/sources/catalog.js';
import type { RunSpec } from '../../src/executions/request.js';
import type { Io } from '../lib/io.js';
import { dateFlag, intFlag, listFlag, usageError } from '../lib/flags.js';

export interface RunFlags {
  config?: string;
  from?: string;
  to?: string;
  max?: string;
  keywords?: string;
  requestId?: string;
  ai?: boolean;
  aiModel?: string;
  aiInstructions?: string;
}

/** The flags dive and sweep share. */
export function runOptions(command: Command): Command {
  return command
    .option('--from <date>', 'earliest publication date, YYYY-MM-DD (not in the future)')
    .option('--to <date>', 'latest publication date, YYYY-MM-DD (not before --from)')
    .option('--max <n>', `results per source, 1 to ${MAX_RESULTS_LIMIT} (default 100)`)
    .option('--keywords <list>', 'comma-separated keywords that must also match')
    .option('--request-id <id>', 'an id that makes resubmitting the same run answer the running one')
    .option('--config <name>', 'start from a saved configuration (its name or id); arguments and flags given override it')
    .option('--ai', 'ask the configured AI provider for a short summary of what the run found (sends titles, authors, years and abstracts to it; see `svc settings get ai`)')
    .option('--ai-model <id>', 'the model to ask instead of ai.model (implies --ai)')
    .option('--ai-instructions <text>', `what the summary should focus on, up to ${MAX_INSTRUCTIONS_LENGTH} characters (implies --ai)`);
}

/**
 * --ai, --ai-model and --ai-instructions: ai_enabled and ai_settings, merged over those of a
 * saved configuration (a flag replaces only its own key).
 */
export function applyAiFlags(body: Record<string, unknown>, flags: RunFlags): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  if (flags.aiModel !== undefined) settings.model = flags.aiModel;
  if (flags.aiInstructions !== undefined) settings.instructions = flags.aiInstructions;
  if (!flags.ai && Object.keys(settings).length === 0) return body;
  const saved = knownAiSettings(body.ai_settings);
  const merged = { ...(saved ?? {}), ...settings };
  return { ...body, ai_enabled: true, ai_settings: Object.keys(merged).length ? merged : (body.ai_settings ?? null) };
}

/**
 * Flags → the request body fields the HTTP door also takes (validated by the
 * same schema afterwards). Checks what the HTTP door cannot know about a
 * person at a terminal: a window starting after today finds nothing.
 */
export function requestBody(flags: RunFlags, now: Date): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const from = dateFlag(flags.from, '--from');
  const to = dateFlag(flags.to, '--to');
  const today = now.toISOString().slice(0, 10);
  if (from && from > today) throw usageError(`--from ${from} is in the future (today is ${today}); nothing published yet can match.`);
  if (from && to && from > to) throw usageError(`--from ${from} is after --to ${to}; give the earlier date to --from.`);
  if (from) body.date_from = from;
  if (to) body.date_to = to;
  if (flags.max !== undefined) body.max_results = intFlag(flags.max, '--max', { min: 1, max: MAX_RESULTS_LIMIT });
  if (flags.keywords !== undefined) body.keywords = listFlag(flags.keywords);
  if (flags.requestId) body.request_id = flags.requestId;
  return body;
}

/**
 * Sources that cannot answer now (retired, or a required key not stored) are a
 * usage error before anything runs: the HTTP door records them as zero
 * reasons, but a person at a terminal can fix them first.
 */
export function requireSearchable(ctx: Context, ids: string[], flag: string, asks: { orcid?: boolean } = {}): void {
  const blocked = unsearchable(ctx, ids, asks);
  if (!blocked) return;
  throw usageError(`${flag} names ${blocked.lines.length === 1 ? 'a source that cannot be searched' : 'sources that cannot be searched'} now — ${blocked.lines.join('; ')}`, blocked.reason);
}

/** The sources among `ids` that cannot be searched now, each with why ("openalex: Needs the …"), and the refusal's reason. */
export function unsearchable(ctx: Context, ids: string[], asks: { orcid?: boolean } = {}): { lines: string[]; reason: string } | undefined {
  const known = new Map(searchableRepositories(ctx).repositories.map((r) => [r.id, r]));
  // A source that answers only for an ORCID iD can be asked when the run asks about one (a followed profile).
  const blocked = ids.map((id) => known.get(id)).filter((r) => r && !r.searchable && !(asks.orcid && r.reason === 'entity_unsupported'));
  if (blocked.length === 0) return undefined;
  return {
    lines: blocked.map((r) => `${r!.id}: ${r!.message}`),
    reason: blocked.some((r) => r!.reason === 'retired') ? 'source_retired' : blocked.some((r) => r!.reason === 'entity_unsupported') ? 'source_needs_orcid' : 'missing_key',
  };
}

/**
 * Sources that answer only for a date interval, asked with no --from or --to: a run
 * of only such sources could only fail, so it is refused before anything is recorded;
 * a sweep with others goes on (those give the spec's window_unanswerable) and says so first.
 */
export function checkDates(io: Io, spec: Pick<RunSpec, 'repositories' | 'dateFrom' | 'dateTo'>, now: Date): void {
  if (spec.dateFrom || spec.dateTo) return;
  const needing = sourcesNeedingDates(spec.repositories);
  if (needing.length === 0) return;
  const ids = needing.map((s) => s.id);
  const names = `${ids.slice(0, -1).join(', ')}${ids.length > 1 ? ' and ' : ''}${ids[ids.length - 1]}`;
  const one = needing.length === 1;
  if (needing.length === spec.repositories.length) {
    const to = now.toISOString().slice(0, 10);
    const from = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    throw usageError(`${names} ${one ? 'answers' : 'answer'} only for a date interval: give --from and --to (e.g. --from ${from} --to ${to}).`, 'dates_required');
  }
  io.err(`Without --from and --to, ${names} will give nothing (window_unanswerable: ${one ? 'it answers' : 'they answer'} only for a date interval); the other sources are asked.`);
}

/**
 * `--config NAME`: the saved configuration's request, to be overridden by the
 * arguments and flags given. Its type must match the command.
 */
export function savedRequest(ctx: Context, nameOrId: string | undefined, type: 'dive' | 'sweep'): Record<string, unknown> {
  if (nameOrId === undefined) return {};
  const row = findConfiguration(ctx, nameOrId);
  if (row.config_type === type) {
    const saved = JSON.parse(row.parameters_json) as Record<string, unknown>;
    // ai_settings saved before its keys were checked may hold others (even a key): ignored, not refused.
    if (saved.ai_settings !== undefined) saved.ai_settings = knownAiSettings(saved.ai_settings);
    return { ...saved, saved_configuration_id: row.id };
  }
  // A routine configuration is no run: `svc routine add` takes its parameters as flags (it has no --config).
  if (row.config_type === 'routine') throw usageError(`--config ${nameOrId} is a saved routine, not a ${type}; \`svc config export ${row.id}\` prints its parameters, to give to \`svc routine add\` as flags.`);
  throw usageError(`--config ${nameOrId} is a saved ${row.config_type}; run it with \`svc ${row.config_type} --config ${row.id}\`.`);
}
