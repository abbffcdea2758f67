/**
 * The tool surface as an agent uses it: paging to the end and past it, ids
 * followed from one tool to the next, what each answer claims about a paper,
 * and error sentences that point at tools rather than HTTP routes or CLI
 * commands the agent cannot run.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonSchemaOf } from '../src/mcp/args.js';
import { fromHttp } from '../src/mcp/errors.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { readCatalog } from '../src/sources/catalog.js';
import { createBackend } from '../src/mcp/backend.js';
import { callTool } from '../src/mcp/call.js';
import { createContext } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { startServer } from '../server/listen.js';
import { backendWith } from './_mcp.js';
import { freePort, tempDirs } from './_setup.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `r${i + 1}` }));

test('whole-list tools: next_offset leads to the last page, which says has_more false; an offset past the end says so and where the last page starts', async () => {
  const b = backendWith((_m, u) => (u.pathname === '/api/routines' ? { json: { routines: rows(30) } } : undefined));
  const first = await b.call('list_routines', { limit: 20 });
  assert.equal([first.routines.length, first.has_more, first.next_offset, first.page_note], [20, true, 20, undefined]);
  const last = await b.call('list_routines', { limit: 20, offset: first.next_offset });
  assert.equal([last.routines.length, last.has_more, last.next_offset, last.page_note], [10, false, null, undefined]);
  const past = await b.call('list_routines', { limit: 20, offset: 45 });
  assert.equal([past.routines, past.total, past.has_more, past.next_offset], [[], 30, false, null]);
  assert.match(past.page_note, /offset 45 is past the end: there are 30 rows; with limit 20 the last page starts at offset 20\./);
  const exact = await b.call('list_routines', { limit: 10, offset: 30 });
  assert.match(exact.page_note, /past the end/, 'an offset equal to the total is past the end too');
  const empty = backendWith((_m, u) => (u.pathname === '/api/routines' ? { json: { routines: [] } } : undefined));
  assert.is((await empty.call('list_routines')).page_note, undefined, 'an empty first page is just empty');
  assert.match((await empty.call('list_routines', { offset: 5 })).page_note, /the list is empty/);
});

test('list_executions and get_profile_matches (paged by the backend) answer has_more, next_offset and page_note like the other list tools', async () => {
  const b = backendWith((_m, u) => {
    const offset = Number(u.searchParams.get('offset'));
    if (u.pathname === '/api/executions') return { json: { executions: offset >= 7 ? [] : rows(Math.min(5, 7 - offset)), total: 7, limit: 5, offset } };
    if (u.pathname === '/api/profiles/3/matches') return { json: { profile_id: 3, matches: [], total: 2, limit: 25, offset, has_more: false, by_basis: {}, what_a_basis_means: {} } };
    return undefined;
  });
  const first = await b.call('list_executions', { limit: 5 });
  assert.equal([first.executions.length, first.total, first.has_more, first.next_offset], [5, 7, true, 5]);
  const last = await b.call('list_executions', { limit: 5, offset: 5 });
  assert.equal([last.executions.length, last.has_more, last.next_offset], [2, false, null]);
  const past = await b.call('list_executions', { limit: 5, offset: 50 });
  assert.match(past.page_note, /offset 50 is past the end: there are 7 rows; with limit 5 the last page starts at offset 5/);
  const matches = await b.call('get_profile_matches', { profile_id: 3, offset: 10 });
  assert.equal([matches.matches, matches.has_more, matches.next_offset, matches.profile_id], [[], false, null, 3]);
  assert.match(matches.page_note, /past the end: there are 2 rows/);
});

test('search_corpus: any offset gets the cursor sentence (not a range error); the last page says has_more false; a retracted paper says so', async () => {
  const b = backendWith((_m, u, body) =>
    u.pathname === '/api/explorer/search'
      ? {
          json: body.cursor
            ? { mode: 'keyword', papers: [{ id: 2, title: 'B', authors: [], publication_date: '2020-01-01', is_retracted: true }], next_cursor: null }
            : { mode: 'keyword', papers: [{ id: 1, title: 'A', authors: ['X'], publication_date: '2021-01-01', is_retracted: false }], next_cursor: 'c1' },
        }
      : undefined,
  );
  for (const offset of [0, 5, 1000]) {
    const r = await b.call('search_corpus', { query: 'x', offset });
    assert.equal([r.error, r.message], ['invalid_argument', 'search_corpus pages by cursor: pass next_cursor as cursor; an offset is refused.'], `offset ${offset}`);
  }
  const first = await b.call('search_corpus', { query: 'x', limit: 1 });
  assert.equal([first.has_more, first.next_cursor, first.papers[0].is_retracted], [true, 'c1', false]);
  const last = await b.call('search_corpus', { query: 'x', limit: 1, cursor: first.next_cursor });
  assert.equal([last.has_more, last.next_cursor, last.papers[0].is_retracted], [false, null, true]);
  // The explorer counts no total for a page (the facets do): no field that would always be null.
  assert.not.ok('total' in first, 'no total field');
});

test('find_similar does not claim a paper has no authors or no date when the similar route gives only a year', async () => {
  const b = backendWith((_m, u) =>
    u.pathname === '/api/documents/5/similar'
      ? { json: { document_id: 5, model: 'local/lexical-hash-v1', kind: 'lexical', results: [{ document_id: 16, distance: 0.9, title: 'T', year: 2025, doi: '10.1/x', sources: ['europepmc'] }], reason: null } }
      : undefined,
  );
  const r = await b.call('find_similar', { doc_id: 5 });
  const paper = r.papers[0];
  assert.equal([paper.id, paper.authors, paper.date, paper.year, paper.source], [16, null, null, 2025, 'europepmc']);
});

test('search_corpus keeps the first ten authors and says how many there are when it cuts', async () => {
  const authors = Array.from({ length: 14 }, (_, i) => `Author ${i}`);
  const b = backendWith((_m, u) => (u.pathname === '/api/explorer/search' ? { json: { mode: 'keyword', papers: [{ id: 1, title: 'A', authors }], next_cursor: null } } : undefined));
  const paper = (await b.call('search_corpus', { query: 'x' })).papers[0];
  assert.equal([paper.authors.length, paper.author_count], [10, 14]);
});

test('create_routine with an entity: no entity_warning when a named source searches by author (the catalog nests it under capabilities); a warning naming ones that can otherwise', async () => {
  const catalog = readCatalog();
  let nextId = 1;
  const b = backendWith((m, u, body) => {
    if (m === 'POST' && u.pathname === '/api/routines') return { json: { id: nextId++, ...body } };
    if (m === 'GET' && /^\/api\/routines\/\d+$/.test(u.pathname)) return { json: { id: Number(u.pathname.split('/').pop()), entity: { profile_id: 1, mode: 'new_papers' } } };
    if (u.pathname === '/api/repositories/catalog') return { json: catalog };
    return undefined;
  });
  const entity = { profile_id: 1, mode: 'new_papers' };
  const asks = await b.call('create_routine', { name: 'a', keywords: ['k'], sources: ['crossref'], schedule: '0 6 * * 1', entity });
  assert.is(asks.entity_warning, undefined);
  const cannot = await b.call('create_routine', { name: 'b', keywords: ['k'], sources: ['dblp'], schedule: '0 6 * * 1', entity });
  assert.match(cannot.entity_warning, /None of the named sources \(dblp\) can search by author/);
  assert.match(cannot.entity_warning, /e\.g\. \w+/);
  assert.not.match(cannot.entity_warning, /orcid/, 'ORCID is asked only for profiles with an iD, not offered as the fix');
});

test('backend sentences that send a person to an HTTP route or a CLI command name the tool instead; a 422 location drops body/query', () => {
  assert.is(fromHttp(404, { detail: { reason: 'routine_not_found', message: 'No routine 9; GET /api/routines (or `svc routine list`) lists them.' } }).message, 'No routine 9; list_routines lists them.');
  assert.is(fromHttp(404, { detail: { reason: 'profile_not_found', message: 'No watch profile 9; GET /api/profiles (or `svc profile list`) lists them.' } }).message, 'No watch profile 9; list_watch_profiles lists them.');
  assert.is(fromHttp(400, { detail: { reason: 'unknown_profile', message: 'No watch profile 9; `svc profile list` lists them.' } }).message, 'No watch profile 9; list_watch_profiles lists them.');
  const unknownSource = fromHttp(422, { detail: [{ loc: ['body', 'repositories'], msg: 'Unknown repository "x"; GET /api/repositories/catalog (or `svc sources`) lists them', type: 'unknown_repository' }] });
  assert.is(unknownSource.message, 'repositories: Unknown repository "x"; list_sources lists them');
  assert.is((unknownSource.detail.issues as { loc: string[] }[])[0]!.loc[0], 'body', 'the issues themselves are relayed unchanged');
  assert.is(fromHttp(422, { detail: [{ loc: ['query', 'window'], msg: 'window is a number of days' }] }).message, 'window: window is a number of days');
  assert.is(fromHttp(404, { detail: { message: 'No execution 9.' } }).message, 'No execution 9.', 'other sentences are untouched');
});

test('a not_found whose backend sentence names no listing says which tool finds the right ids', () => {
  assert.is(fromHttp(404, { detail: { reason: 'execution_not_found', message: 'No execution 999.' } }).message, 'No execution 999; list_executions lists them.');
  assert.is(fromHttp(404, { detail: { reason: 'document_not_found', message: 'No document 7.' } }).message, 'No document 7; search_corpus finds paper ids.');
  assert.is(fromHttp(404, { detail: { reason: 'routine_not_found', message: 'No routine 9; GET /api/routines lists them.' } }).message, 'No routine 9; list_routines lists them.', 'said once');
});

test('a backend refusal of a field the tool fills from an argument of another name names that argument', async () => {
  const issue = (loc: (string | number)[], msg: string) => ({ status: 422, json: { detail: [{ loc, msg, type: 'x' }] } });
  const b = backendWith((m, u) => {
    if (m === 'POST' && u.pathname === '/api/search/sweep') return issue(['body', 'repositories'], 'Unknown repository "nosuch"');
    if (m === 'POST' && u.pathname === '/api/routines') return { status: 422, json: { detail: [{ loc: ['body', 'schedule_cron'], msg: 'not a valid schedule' }, { loc: ['body', 'parameters', 'repositories', 0], msg: 'Unknown repository "nosuch"' }] } };
    return undefined;
  });
  const sweep = await b.call('run_sweep', { query: 'x', sources: ['nosuch'] });
  assert.equal([sweep.error, sweep.message], ['invalid_argument', 'sources: Unknown repository "nosuch"']);
  const routine = await b.call('create_routine', { name: 'r', keywords: ['k'], sources: ['nosuch'], schedule: '61 * * * *' });
  assert.is(routine.message, 'schedule: not a valid schedule; sources.0: Unknown repository "nosuch"');
  assert.equal(routine.detail.issues[1].loc, ['body', 'parameters', 'repositories', 0], 'the issues themselves are unchanged');
});

test('search_corpus refuses a source id the catalog does not know before searching, instead of answering nothing found', async () => {
  const b = backendWith((_m, u) => {
    if (u.pathname === '/api/repositories/catalog') return { json: readCatalog() };
    if (u.pathname === '/api/explorer/search') return { json: { mode: 'keyword', papers: [], next_cursor: null } };
    return undefined;
  });
  const r = await b.call('search_corpus', { query: 'x', sources: ['europepmc', 'nosuch'] });
  assert.equal([r.error, r.message, r.detail.unknown], ['invalid_argument', 'search_corpus: sources names no source "nosuch"; list_sources lists them.', ['nosuch']]);
  assert.not.ok(b.seen.some((s) => s.path === '/api/explorer/search'));
  assert.not.ok((await b.call('search_corpus', { query: 'x', sources: ['europepmc', 'arxiv'] })).isError);
});

test('a service restarted between two calls (same port, a new token) is found again, not answered internal_error forever', async () => {
  const dirs = tempDirs();
  const port = await freePort();
  const context = () => createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => undefined }) });
  const start = () => startServer(context(), { port });
  const running: { close(): Promise<void> }[] = [];
  const reader = context(); // only its paths: the tool server reads the token file as `svc mcp` does
  try {
    running.push(await start());
    const tools = createBackend({ port, paths: reader.paths, fetch });
    const first = await callTool(tools, 'list_routines', {});
    assert.not.ok(first.isError, JSON.stringify(first.structuredContent));
    await running.pop()!.close();
    const restarted = await start();
    running.push(restarted);
    for (let i = 0; i < 2; i++) {
      const again = await callTool(tools, 'list_routines', {});
      assert.not.ok(again.isError, JSON.stringify(again.structuredContent));
    }
  } finally {
    for (const server of running) await server.close();
    await reader.close();
    dirs.cleanup();
  }
});

test('the source catalog is asked once per service: kept across tool calls, asked again after a restart or for a source it lacks', async () => {
  const dirs = tempDirs();
  const port = await freePort();
  const context = () => createContext({ env: dirs.env, log: createLogger({ level: 'error', sink: () => undefined }) });
  const start = () => startServer(context(), { port });
  const running: { close(): Promise<void> }[] = [];
  const reader = context();
  let asked = 0;
  const counting = ((input: string, init?: RequestInit) => {
    if (new URL(input).pathname === '/api/repositories/catalog') asked++;
    return fetch(input, init);
  }) as typeof fetch;
  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await callTool(tools, name, args);
    assert.not.ok(r.isError, `${name}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent as any;
  };
  const tools = createBackend({ port, paths: reader.paths, fetch: counting });
  try {
    running.push(await start());
    assert.ok((await ok('list_sources', {})).sources.length > 0);
    await ok('list_sources', { offset: 5 });
    await ok('search_corpus', { query: 'x', sources: ['arxiv', 'pubmed'] });
    assert.is(asked, 1, 'one catalog for three calls');
    // An id the kept catalog lacks is checked against a fresh one before it is refused.
    const unknown = await callTool(tools, 'search_corpus', { query: 'x', sources: ['nosuch'] });
    assert.is((unknown.structuredContent as any).error, 'invalid_argument');
    assert.is(asked, 2);
    // A restart (a new token) is noticed by the next call; the catalog is then asked of the new service.
    await running.pop()!.close();
    running.push(await start());
    await ok('list_routines', {});
    await ok('list_sources', {});
    assert.is(asked, 3);
    await ok('list_sources', {});
    assert.is(asked, 3);
  } finally {
    for (const server of running) await server.close();
    await reader.close();
    dirs.cleanup();
  }
});

test('a read that meets a connection closed under it is sent once more; a write is never sent twice', async () => {
  const seen: string[] = [];
  let failNext = 0;
  const flaky = (async (input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    seen.push(`${init.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname !== '/api/health' && failNext > 0) {
      failNext--;
      throw new TypeError('fetch failed');
    }
    const json = url.pathname === '/api/health' ? { status: 'ok', identity: { runtime_id: '11111111-1111-4111-8111-111111111111' } } : url.pathname === '/api/routines' ? { routines: [] } : { id: 4, status: 'running' };
    return new Response(JSON.stringify(json), { status: url.pathname === '/api/search/sweep' ? 202 : 200 });
  }) as unknown as typeof fetch;
  const tools = createBackend({ port: 5999, paths: {} as never, fetch: flaky, token: 'tok' });
  failNext = 1;
  assert.not.ok((await callTool(tools, 'list_routines', {})).isError);
  failNext = 1;
  const sweep = await callTool(tools, 'run_sweep', { query: 'x', sources: ['dblp'] });
  assert.is((sweep.structuredContent as { error?: string }).error, 'backend_unavailable');
  assert.is(seen.filter((r) => r === 'POST /api/search/sweep').length, 1);
});

test('tool annotations: sweeps and routine fires reach outside repositories (openWorldHint); activate, deactivate and settings are idempotent writes', async () => {
  const { createMcpServer } = await import('../src/mcp/server.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const server = createMcpServer(createBackend({ port: 5999, paths: {} as never, fetch, token: 'tok' }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  const hint = (name: string) => tools.find((t) => t.name === name)!.annotations!;
  assert.equal(tools.filter((t) => t.annotations?.openWorldHint).map((t) => t.name).sort(), ['run_routine', 'run_sweep']);
  assert.equal(tools.filter((t) => !t.annotations?.readOnlyHint && t.annotations?.idempotentHint).map((t) => t.name).sort(), ['activate_routine', 'deactivate_routine', 'update_settings']);
  assert.equal([hint('run_sweep').idempotentHint, hint('create_routine').idempotentHint, hint('search_corpus').idempotentHint], [false, false, true]);
  assert.match(tools.find((t) => t.name === 'run_sweep')!.description!, /poll get_execution/);
  // The confirmation travels in the description too (harnesses show the model descriptions, not _meta).
  for (const tool of tools) assert.is(/ask the person before calling it\.$/.test(tool.description!), tool._meta?.requires_confirmation === true, tool.name);
  await client.close();
  await server.close();
});

test('the listing tells an agent where ids come from, which dates and ids have which form, and what entity holds', () => {
  const schema = (name: string) => jsonSchemaOf(TOOLS.find((t) => t.name === name)!.args) as { properties: Record<string, any> };
  assert.match(schema('explain_match').properties.doc_id.description, /search_corpus.*document_id of a get_profile_matches row/);
  assert.match(schema('get_execution_results').properties.exec_id.description, /run_sweep|list_executions/);
  assert.match(schema('get_routine').properties.routine_id.description, /list_routines/);
  assert.match(schema('get_profile_matches').properties.profile_id.description, /list_watch_profiles/);
  assert.match(schema('list_executions').properties.offset.description, /next_offset/);
  assert.match(schema('search_corpus').properties.date_from.description, /publication date/);
  assert.match(schema('run_sweep').properties.max_results.description, /each source/);
  assert.match(schema('export_references').properties.doc_ids.description, /search_corpus/);
  const date = new RegExp(schema('search_corpus').properties.date_from.pattern);
  assert.ok(date.test('2024-01-31') && !date.test('31/01/2024'));
  assert.ok(new RegExp(schema('health').properties.expected_runtime_id.pattern).test('11111111-1111-4111-8111-111111111111'));
  const entity = schema('create_routine').properties.entity;
  assert.equal([entity.required, entity.properties.mode.enum], [['profile_id', 'mode'], ['new_papers', 'retractions']]);
  assert.match(TOOLS.find((t) => t.name === 'search_corpus')!.description, /next_cursor/);
  const settings = schema('update_settings').properties.settings;
  assert.equal([settings.minProperties, settings.additionalProperties], [1, { type: 'string' }], 'values are advertised as strings');
});

test.run();
