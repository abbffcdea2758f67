/**
 * `svc routine add` and the flags it shares with `svc routine edit`. With
 * flags it never prompts; on a terminal with no flags it asks (ask.ts).
 * Flags become the same RoutineCreate / RoutineUpdate body the HTTP door
 * takes, validated by the same service.
 */
import type { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { ValidationError } from '../../src/errors.js';
import { MAX_RESULTS_LIMIT } from '../../src/executions/request.js';
import { knownAiSettings, MAX_INSTRUCTIONS_LENGTH } from '../../src/executions/ai-settings.js';
import { MAX_WINDOW_DAYS } from '../../src/routines/parameters.js';
import { valuesOf, type RoutineRow } from '../../src/routines/repo.js';
import { createRoutine, getRoutineView } from '../../src/routines/service.js';
import { withContext } from '../lib/context.js';
import { emit, type Io } from '../lib/io.js';
import { intFlag, listFlag, usageError } from '../lib/flags.js';
import { askRoutine, clackPrompter } from './ask.js';
import { checkRoutineName, checkRoutineSources, checkRoutineWindow } from './checks.js';
import { checkFollow, entityToCreate, entityToUpdate, namingFollowFlags, requireAuthorSource, type FollowFlags } from './follow-flags.js';
import { followedProfile } from '../../src/routines/entity.js';
import { routineDetail } from './format.js';

export interface RoutineFlags extends FollowFlags {
  name?: string;
  schedule?: string;
  query?: string;
  sources?: string;
  keywords?: string;
  max?: string;
  windowDays?: string;
  sinceLastSuccess?: boolean;
  intent?: string | false;
  inactive?: boolean;
  ai?: boolean;
  aiInstructions?: string | false;
  emailAiSummary?: boolean;
  notify?: boolean;
}

const FLAG_FOR: Record<string, string> = {
  name: '--name',
  schedule_cron: '--schedule',
  'parameters.query': '--query',
  'parameters.repositories': '--sources',
  'parameters.repository': '--sources',
  'parameters.keywords': '--keywords',
  'parameters.max_results': '--max',
  'parameters.window_days': '--window-days',
  intent: '--intent',
  'ai_settings.instructions': '--ai-instructions',
};

/** Name the flag, not the body field, in a refusal (`svc routine add` and `edit`). */
export function asFlagError(err: unknown): unknown {
  if (!(err instanceof ValidationError)) return err;
  return new ValidationError(
    err.issues.map((i) => {
      const path = i.loc.filter((p) => p !== 'body');
      const key = path.filter((p) => typeof p === 'string').slice(0, 2).join('.');
      return { ...i, loc: [FLAG_FOR[key] ?? FLAG_FOR[String(path[0])] ?? path.join('.')] };
    }),
  );
}

export function routineFlags(command: Command): Command {
  return command
    .option('--name <name>', 'what to call it')
    .option('--schedule <cron>', 'five-field cron, UTC unless prefixed CRON_TZ=<zone>, e.g. "0 6 * * 1-5"')
    .option('--query <text>', 'what to search for')
    .option('--sources <ids>', 'comma-separated repository ids (see `svc sources`)')
    .option('--keywords <list>', 'comma-separated keywords that must also match')
    .option('--max <n>', `results per source, 1 to ${MAX_RESULTS_LIMIT} (default 100)`)
    .option('--window-days <n>', `ask for papers from the last N days at each fire, 1 to ${MAX_WINDOW_DAYS} ("none" for no limit)`)
    .option('--since-last-success', 'start the window at the last completed run instead')
    .option('--intent <sentence>', 'what belongs in the results (the coverage audit compares against it)')
    .option('--ai', 'ask the configured AI provider for a summary of each run (sends titles, authors, years and abstracts to it)')
    .option('--ai-instructions <text>', `what each summary should focus on, up to ${MAX_INSTRUCTIONS_LENGTH} characters (implies --ai)`)
    .option('--email-ai-summary', "put the run's AI summary in the routine's email digest")
    .option('--notify', 'notify when a run completes')
    .option('--follow <profile>', 'follow a person watch profile (its id, see `svc profile list`): each fire asks the sources for their papers; --query may then be left out')
    .option('--follow-mode <mode>', 'new_papers (default: report their new papers) or retractions (also check their papers for retractions, corrections and new versions, and report those)');
}


function parameterChanges(flags: RoutineFlags): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (flags.query !== undefined) p.query = flags.query;
  if (flags.sources !== undefined) p.repositories = listFlag(flags.sources);
  if (flags.keywords !== undefined) p.keywords = listFlag(flags.keywords);
  if (flags.max !== undefined) p.max_results = intFlag(flags.max, '--max', { min: 1, max: MAX_RESULTS_LIMIT });
  if (flags.windowDays !== undefined) p.window_days = flags.windowDays === 'none' ? null : intFlag(flags.windowDays, '--window-days', { min: 1, max: MAX_WINDOW_DAYS });
  if (flags.sinceLastSuccess !== undefined) p.since_last_success = flags.sinceLastSuccess;
  return p;
}

function createBody(flags: RoutineFlags): Record<string, unknown> {
  const entity = entityToCreate(flags);
  // Following a person, an empty query means everything by them.
  const needed = entity ? (['name', 'schedule', 'sources'] as const) : (['name', 'schedule', 'query', 'sources'] as const);
  const missing = needed.filter((k) => flags[k] === undefined).map((k) => `--${k}`);
  if (missing.length) throw usageError( `svc routine add needs ${missing.join(', ')} (or no flags at all on a terminal, to be asked).`, 'missing_flags');
  return {
    name: flags.name,
    schedule_cron: flags.schedule,
    parameters: { ...(entity ? { query: '' } : {}), ...parameterChanges(flags) },
    ...(entity ? { entity } : {}),
    ...(typeof flags.intent === 'string' ? { intent: flags.intent } : {}),
    ...(flags.inactive ? { is_active: false } : {}),
    ...(flags.ai || typeof flags.aiInstructions === 'string' ? { ai_enabled: true } : {}),
    ...(typeof flags.aiInstructions === 'string' ? { ai_settings: { instructions: flags.aiInstructions } } : {}),
    ...(flags.emailAiSummary ? { email_ai_summary_enabled: true } : {}),
    ...(flags.notify ? { notify_on_complete: true } : {}),
  };
}

/** The PUT body of `svc routine edit`: only what the flags change (parameters merged over the stored ones). */
export function routineUpdateBody(current: RoutineRow, flags: RoutineFlags): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (flags.name !== undefined) body.name = flags.name;
  if (flags.schedule !== undefined) body.schedule_cron = flags.schedule;
  if (flags.intent !== undefined) body.intent = flags.intent === false ? null : flags.intent;
  if (flags.ai !== undefined) body.ai_enabled = flags.ai;
  if (flags.emailAiSummary !== undefined) body.email_ai_summary_enabled = flags.emailAiSummary;
  if (flags.aiInstructions !== undefined) {
    // Only the instructions change; the stored model and token bound stay (keys svc ignores are dropped).
    const { instructions: _old, ...kept } = knownAiSettings(valuesOf(current).ai_settings) ?? {};
    const next = flags.aiInstructions === false ? kept : { ...kept, instructions: flags.aiInstructions };
    body.ai_settings = Object.keys(next).length ? next : null;
    if (flags.aiInstructions !== false && flags.ai === undefined) body.ai_enabled = true;
  }
  if (flags.notify !== undefined) body.notify_on_complete = flags.notify;
  const changes = parameterChanges(flags);
  if (Object.keys(changes).length) {
    const stored = valuesOf(current).parameters;
    body.parameters = { ...stored, ai_settings: knownAiSettings(stored.ai_settings), ...changes };
  }
  const entity = entityToUpdate(valuesOf(current).entity, flags, current.id);
  if (entity !== undefined) body.entity = entity;
  const query = (body.parameters as { query?: string } | undefined)?.query ?? valuesOf(current).parameters.query;
  if (entity === null && !query) throw usageError(`Routine ${current.id} has no query (it asks for everything by the person it follows); give --query with --no-follow.`, 'missing_flags');
  if (Object.keys(body).length === 0) throw usageError('Say what to change: --name, --schedule, --query, --sources, --keywords, --max, --window-days, --intent, --ai, --ai-instructions, --email-ai-summary, --follow, --follow-mode, --no-follow (see svc routine edit --help).', 'nothing_to_change');
  return body;
}

/**
 * What the CLI refuses before storing a routine (checks.ts): a name another
 * routine has, sources that cannot be searched now or that need a date window the
 * routine does not ask for, and (with `follow`, the entity and sources the routine
 * will have) a followed profile the service refuses or that none of the sources can
 * ask about. `atPrompt`: the body came from add's questions, so no refusal names a flag.
 */
export function checkRoutineBody(ctx: Context, body: Record<string, unknown>, exceptId?: number, follow?: { entity: unknown; repositories: string[] }, atPrompt = false): void {
  if (typeof body.name === 'string') checkRoutineName(ctx, body.name.trim(), exceptId, atPrompt);
  const followed = follow ? checkFollow(ctx, follow.entity) : null;
  const parameters = body.parameters as { repositories?: unknown; window_days?: unknown } | undefined;
  if (Array.isArray(parameters?.repositories)) {
    const ids = parameters.repositories.filter((r): r is string => typeof r === 'string');
    // A source that answers only for an ORCID iD is asked by a routine following a person who has one.
    checkRoutineSources(ctx, ids, Boolean(followed?.person.orcid), atPrompt);
    checkRoutineWindow(ids, typeof parameters.window_days === 'number' ? parameters.window_days : null, atPrompt);
  }
  if (followed && follow) requireAuthorSource(ctx, followed.person, follow.repositories, atPrompt);
}

/** The entity and sources a routine body gives (`svc routine add`), for checkRoutineBody. */
export function followOf(body: Record<string, unknown>): { entity: unknown; repositories: string[] } | undefined {
  if (body.entity === undefined || body.entity === null) return undefined;
  const repositories = (body.parameters as { repositories?: unknown } | undefined)?.repositories;
  return { entity: body.entity, repositories: Array.isArray(repositories) ? repositories.filter((r): r is string => typeof r === 'string') : [] };
}

/** What an edit leaves the routine following, when it changes the entity or the sources of a routine that follows someone. */
export function followAfterEdit(current: RoutineRow, body: Record<string, unknown>): { entity: unknown; repositories: string[] } | undefined {
  const values = valuesOf(current);
  const entity = 'entity' in body ? body.entity : values.entity;
  if (!entity || !('entity' in body || body.parameters)) return undefined;
  return followOf({ entity, parameters: body.parameters ?? values.parameters });
}

const GIVEN = (flags: RoutineFlags) => Object.values(flags).some((v) => v !== undefined);

export function addCommand(parent: Command, io: Io): void {
  routineFlags(parent.command('add').description('add a routine; on a terminal with no flags, svc asks for each part'))
    .option('--inactive', 'create it off the schedule')
    .action((flags: RoutineFlags) =>
      withContext(io, async (ctx) => {
        let body: Record<string, unknown>;
        if (!GIVEN(flags) && io.stdinIsTTY && io.stdoutIsTTY) body = await askRoutine(ctx, await clackPrompter());
        else body = createBody(flags);
        checkRoutineBody(ctx, body, undefined, followOf(body), !GIVEN(flags));
        let created;
        try {
          created = GIVEN(flags) ? namingFollowFlags(body.entity, () => createRoutine(ctx, body)) : createRoutine(ctx, body);
        } catch (err) {
          throw GIVEN(flags) ? asFlagError(err) : err;
        }
        const view = getRoutineView(ctx, created.id);
        emit(io, view, () => routineDetail(view, followedProfile(ctx, view.entity)));
      }),
    );
}
