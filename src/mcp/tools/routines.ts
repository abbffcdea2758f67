import { ID, LIMIT, OFFSET } from '../args.js';
import { sourceCatalog } from '../source-catalog.js';
import { McpToolError } from '../errors.js';
import { defineTool, page } from '../tool.js';

export const listRoutines = defineTool({
  name: 'list_routines',
  title: 'List routines',
  description: 'Saved searches on a schedule, with missed fires.',
  args: { active_only: { type: 'boolean', description: 'Only active routines.', default: false }, limit: LIMIT(100), offset: OFFSET },
  async run(backend, args) {
    const answer = await backend.get('/api/routines', { active_only: args.active_only });
    const all = (Array.isArray(answer) ? answer : (answer.routines ?? [])) as unknown[];
    const { items, ...rest } = page(all, args.limit, args.offset);
    return { routines: items, ...rest };
  },
});

export const getRoutine = defineTool({
  name: 'get_routine',
  title: 'One routine',
  description: 'A routine with missed fires, its coverage audit and its delivery summary (no address, directory or URL).',
  args: { routine_id: ID('routine') },
  async run(backend, args) {
    const routine = await backend.get(`/api/routines/${args.routine_id}`);
    const coverage = await backend.get(`/api/routines/${args.routine_id}/coverage`, { limit: 10 });
    const { delivery_summary: summary, ...rest } = routine as Record<string, unknown>;
    // The summary is given only when the backend answers the deliveries route.
    const deliveries = await backend.call('GET', `/api/routines/${args.routine_id}/deliveries`, { acceptStatus: [404, 405] });
    const answersDeliveries = deliveries.status < 300;
    return {
      routine: rest,
      missed_fires: (routine as Record<string, unknown>).missed_fires ?? null,
      missed_fire_details: (routine as Record<string, unknown>).missed_fire_details ?? [],
      coverage,
      ...(answersDeliveries && summary ? { delivery: summary } : {}),
    };
  },
});

export const createRoutine = defineTool({
  name: 'create_routine',
  title: 'Create a routine',
  description:
    'Save a search on a cron schedule. It is created inactive (activate_routine turns it on). entity follows a watch profile: {profile_id, mode: new_papers | retractions}.',
  fields: { schedule_cron: 'schedule', 'parameters.repositories': 'sources', 'parameters.keywords': 'keywords', 'parameters.query': 'keywords' },
  args: {
    name: { type: 'string', description: 'What to call it.', required: true, maxLength: 200 },
    keywords: { type: 'string[]', description: 'Terms to search for (the query is these terms).', required: true, minItems: 1, maxItems: 50 },
    sources: { type: 'string[]', description: 'Repository ids (list_sources).', required: true, minItems: 1, maxItems: 30 },
    schedule: { type: 'string', description: 'Cron expression, e.g. "0 6 * * 1".', required: true, maxLength: 200 },
    intent: { type: 'string', description: 'One sentence the coverage audit compares results against.', maxLength: 2000 },
    entity: {
      type: 'object',
      description: 'Follow a watch profile: {profile_id, mode}; mode new_papers or retractions.',
      schema: {
        properties: { profile_id: { type: 'integer', minimum: 1, description: 'id from list_watch_profiles' }, mode: { type: 'string', enum: ['new_papers', 'retractions'] } },
        required: ['profile_id', 'mode'],
        additionalProperties: false,
      },
    },
    notify_on_complete: { type: 'boolean', description: 'Notify when a run completes.' },
    email_enabled: { type: 'boolean', description: 'Email the report (the email settings say where).' },
    ai_enabled: { type: 'boolean', description: 'Summarize each run with the configured AI provider (the ai settings; titles, authors, years and abstracts are sent to it); each run\'s get_execution ai_lane has the summary or says why there is none.' },
  },
  async run(backend, args) {
    const created = await backend.send('POST', '/api/routines', {
      name: args.name,
      schedule_cron: args.schedule,
      parameters: { repositories: args.sources, query: (args.keywords as string[]).join(' '), keywords: args.keywords },
      intent: args.intent,
      entity: args.entity,
      is_active: false,
      notify_on_complete: args.notify_on_complete,
      email_enabled: args.email_enabled,
      ai_enabled: args.ai_enabled,
    });
    const routine = await backend.get(`/api/routines/${(created as { id: number }).id}`);
    if (!args.entity) return { routine };
    // The catalog nests what a source can do under capabilities (null for a retired source).
    const byAuthor = (await sourceCatalog(backend, args.sources as string[])).filter((r) => r.capabilities?.author_search === true);
    if (byAuthor.some((r) => (args.sources as string[]).includes(r.id))) return { routine };
    const keyless = byAuthor.filter((r) => !r.needs_key && r.id !== 'orcid').map((r) => r.id);
    return {
      routine,
      entity_warning: `None of the named sources (${(args.sources as string[]).join(', ')}) can search by author, so no fire can ask about the followed profile; add one that can (capabilities.author_search in list_sources), e.g. ${keyless.slice(0, 4).join(', ')}.`,
    };
  },
});

export const runRoutine = defineTool({
  name: 'run_routine',
  title: 'Run a routine now',
  description: 'Fire a routine at once; answers the execution id (poll get_execution for progress). A routine already running answers conflict with its execution_id.',
  openWorld: true,
  args: { routine_id: ID('routine') },
  async run(backend, args) {
    const answer = await backend.call('POST', `/api/routines/${args.routine_id}/run`, { acceptStatus: [409] });
    const body = answer.json as { execution_id?: number | null; detail?: { reason?: string; message?: string; conflict?: string; execution_id?: number | null } };
    if (answer.status === 409) {
      throw new McpToolError('conflict', body.detail?.message ?? 'The routine is already running.', { conflict: body.detail?.conflict ?? body.detail?.reason ?? 'routine_already_running', execution_id: body.detail?.execution_id ?? null });
    }
    return { exec_id: body.execution_id ?? null, ...body };
  },
});

const toggle = (name: 'activate_routine' | 'deactivate_routine', on: boolean) =>
  defineTool({
    name,
    title: on ? 'Activate a routine' : 'Deactivate a routine',
    description: on ? 'Put a routine on its schedule.' : 'Take a routine off its schedule (it can still be run by hand).',
    idempotent: true,
    args: { routine_id: ID('routine') },
    async run(backend, args) {
      await backend.send('POST', `/api/routines/${args.routine_id}/${on ? 'activate' : 'deactivate'}`);
      return { id: args.routine_id, is_active: on };
    },
  });

export const activateRoutine = toggle('activate_routine', true);
export const deactivateRoutine = toggle('deactivate_routine', false);
