import { EXPECTED_RUNTIME_ID, ID, LIMIT, OFFSET } from '../args.js';
import { McpToolError } from '../errors.js';
import { defineTool, page, pageInfo, RELEVANCE_NOTE } from '../tool.js';
import { requireIdentity } from './identity-check.js';

const STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'] as const;

export const listExecutions = defineTool({
  name: 'list_executions',
  title: 'List executions',
  description: 'Runs (dives, sweeps, routine fires), newest first, optionally of one routine or one status.',
  args: {
    routine_id: { type: 'integer', description: 'Only runs of this routine.', min: 1, max: Number.MAX_SAFE_INTEGER },
    status: { type: 'string', description: 'Only runs in this status.', enum: STATUSES },
    limit: LIMIT(100),
    offset: OFFSET,
  },
  async run(backend, args) {
    const answer = await backend.get('/api/executions', { routine_id: args.routine_id, status: args.status, limit: args.limit, offset: args.offset });
    const total = typeof answer.total === 'number' ? answer.total : (answer.executions ?? []).length;
    return { executions: answer.executions ?? [], ...pageInfo(total, args.limit, args.offset) };
  },
});

export const getExecution = defineTool({
  name: 'get_execution',
  title: 'One execution',
  description: 'One run: status, counts per source, timings, and ai_lane (the AI summary when the run asked for one, marked model-written and unchecked, or the reason there is none), and follow (for a fire of a routine following a person for retractions: what was checked and the new lifecycle notices with their links; else null). With expected_runtime_id the answer is given only by that service instance.',
  args: { exec_id: ID('execution'), expected_runtime_id: EXPECTED_RUNTIME_ID },
  async run(backend, args) {
    const expected = args.expected_runtime_id as string | undefined;
    if (expected) requireIdentity(await backend.get('/api/health', { expected_runtime_id: expected }), expected, 'health');
    const answer = await backend.get(`/api/executions/${args.exec_id}`, { expected_runtime_id: expected });
    if (expected) requireIdentity(answer, expected, 'execution');
    return answer;
  },
});

export const getExecutionResults = defineTool({
  name: 'get_execution_results',
  title: 'Papers of an execution',
  description: 'The papers a run found, as JSON references; each id is the stored document id (usable as explain_match doc_id).',
  args: { exec_id: ID('execution'), limit: LIMIT(100), offset: OFFSET },
  async run(backend, args) {
    const answer = await backend.call('GET', `/api/executions/${args.exec_id}/references`, { query: { format: 'json', include_ids: true } });
    const parsed = answer.json as unknown;
    const references = (Array.isArray(parsed) ? parsed : ((parsed as { references?: unknown[] })?.references ?? [])) as unknown[];
    const { items, ...rest } = page(references, args.limit, args.offset);
    return { exec_id: args.exec_id, papers: items, ...rest, note: RELEVANCE_NOTE };
  },
});

export const getSearchRecord = defineTool({
  name: 'get_search_record',
  title: 'Search record',
  description: 'The dated search record of a run: what each source was asked, what it answered, and why a source returned nothing.',
  args: { exec_id: ID('execution') },
  run: (backend, args) => backend.get(`/api/executions/${args.exec_id}/search-record`),
});

export const runSweep = defineTool({
  name: 'run_sweep',
  title: 'Run a sweep',
  description: 'Search several repositories in the background; answers the execution id at once: poll get_execution until status is no longer running (the run may still fail or be interrupted), then get_execution_results.',
  openWorld: true,
  fields: { repositories: 'sources' },
  args: {
    query: { type: 'string', description: 'What to search for.', required: true, maxLength: 1000 },
    sources: { type: 'string[]', description: 'Repository ids (list_sources).', required: true, minItems: 1, maxItems: 30 },
    date_from: { type: 'string', description: 'Earliest publication date to ask for, YYYY-MM-DD.', pattern: /^\d{4}-\d{2}-\d{2}$/, patternHint: 'must be a date YYYY-MM-DD' },
    date_to: { type: 'string', description: 'Latest publication date to ask for, YYYY-MM-DD.', pattern: /^\d{4}-\d{2}-\d{2}$/, patternHint: 'must be a date YYYY-MM-DD' },
    max_results: { type: 'integer', description: 'Most papers to ask each source for (default 100).', min: 1, max: 10_000 },
    ai_enabled: { type: 'boolean', description: 'Ask the configured AI provider (the ai settings) for a short summary once the run settles; it is sent the titles, authors, years and abstracts of up to 50 papers. get_execution ai_lane has the summary or says why there is none.' },
  },
  async run(backend, args) {
    const started = await backend.send('POST', '/api/search/sweep', {
      repositories: args.sources,
      query: args.query,
      date_from: args.date_from,
      date_to: args.date_to,
      max_results: args.max_results,
      ai_enabled: args.ai_enabled,
    });
    const id = (started as { id?: number }).id;
    if (typeof id !== 'number') throw new McpToolError('internal_error', 'The backend started a sweep but answered no execution id.');
    return { exec_id: id, status: (started as { status?: string }).status ?? 'running' };
  },
});
