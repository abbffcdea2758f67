/**
 * The refusals and answer shapes of the MCP tool surface (document 3) that had
 * no test: the real tools and the real backend client over a recording fetch,
 * so each test can say which requests were made (none, for what is validated
 * before any network access) and how each HTTP answer maps to an error code.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBackend } from '../src/mcp/backend.js';
import { callTool } from '../src/mcp/call.js';
import { fromHttp } from '../src/mcp/errors.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import type { Paths } from '../src/paths.js';
import { backendWith, RUNTIME } from './_mcp.js';

const OTHER = '22222222-2222-4222-8222-222222222222';
const BASE = 'http://127.0.0.1:5999';

test('HTTP answers map to the spec codes: 404 not_found, 422 and 400 invalid_argument, the instance_mismatch 409, other 409 conflict', () => {
  assert.is(fromHttp(404, { detail: 'Not Found' }).code, 'not_found');
  assert.is(fromHttp(422, { detail: [{ loc: ['body', 'name'], msg: 'required' }] }).code, 'invalid_argument');
  assert.is(fromHttp(400, { detail: { reason: 'invalid_schedule', message: 'Bad cron.' } }).code, 'invalid_argument');
  const mismatch = fromHttp(409, { detail: { reason: 'instance_mismatch', message: 'Another instance.' } });
  assert.equal([mismatch.code, mismatch.message], ['instance_mismatch', 'Another instance.']);
  assert.is(fromHttp(409, { detail: { reason: 'routine_already_running', message: 'Busy.' } }).code, 'conflict');
  assert.equal(Object.keys(fromHttp(404, {}).toJSON()), ['error', 'message', 'detail']);
});

test('a 400 from routine creation is invalid_argument through create_routine', async () => {
  const b = backendWith((m, u) => (m === 'POST' && u.pathname === '/api/routines' ? { status: 400, json: { detail: { reason: 'invalid_schedule', message: 'The schedule is not a cron expression.' } } } : undefined));
  const r = await b.call('create_routine', { name: 'x', keywords: ['a'], sources: ['dblp'], schedule: 'nope' });
  assert.equal([r.isError, r.error, r.message], [true, 'invalid_argument', 'The schedule is not a cron expression.']);
});

test('backend unreachable: every one of the 25 tools answers backend_unavailable, "not running", and the tried base URL', async () => {
  const down = createBackend({ port: 5999, paths: {} as Paths, fetch: (async () => { throw new TypeError('fetch failed'); }) as unknown as typeof fetch, token: 'tok' });
  const minimal: Record<string, Record<string, unknown>> = {
    search_corpus: { query: 'x' }, find_similar: { doc_id: 1 }, get_routine: { routine_id: 1 }, get_execution: { exec_id: 1 },
    get_execution_results: { exec_id: 1 }, get_search_record: { exec_id: 1 }, explain_match: { doc_id: 1 }, get_paper_lifecycle: { doc_id: 1 },
    get_analytics: { view: 'overview' }, export_references: { doc_ids: [1], format: 'bibtex' }, get_watch_profile: { profile_id: 1 },
    get_profile_matches: { profile_id: 1 }, run_sweep: { query: 'x', sources: ['dblp'] }, create_routine: { name: 'x', keywords: ['a'], sources: ['dblp'], schedule: '0 6 * * 1' },
    create_watch_profile: { name: 'A' }, run_routine: { routine_id: 1 }, activate_routine: { routine_id: 1 }, deactivate_routine: { routine_id: 1 },
    update_settings: { group: 'ai', settings: { ai_enabled: 'true' } },
  };
  assert.is(TOOLS.length, 25);
  for (const tool of TOOLS) {
    const r = await callTool(down, tool.name, minimal[tool.name] ?? {});
    const value = r.structuredContent as any;
    assert.equal([r.isError, value.error], [true, 'backend_unavailable'], tool.name);
    assert.match(value.message, /not running/, tool.name);
    assert.equal(value.detail.tried, [BASE], tool.name);
  }
});

test('argument checks happen before any network access: expectation, bounds, offset on search, update_settings secrets', async () => {
  const b = backendWith();
  const refusals: [string, Record<string, unknown>][] = [
    ['get_execution', { exec_id: 1, expected_runtime_id: 'AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA' }],
    ['get_execution', { exec_id: 1, expected_runtime_id: '11111111-1111-1111-8111-111111111111' }],
    ['health', { expected_runtime_id: 'not-a-uuid' }],
    ['search_corpus', { query: 'x', offset: 0 }],
    ['search_corpus', { query: 'x', limit: 0 }],
    ['list_executions', { limit: 101 }],
    ['list_executions', { offset: -1 }],
    ['find_similar', { doc_id: 0 }],
    ['get_analytics', { view: 'everything' }],
    ['export_references', { format: 'bibtex' }],
    ['export_references', { exec_id: 1, doc_ids: [1], format: 'bibtex' }],
    ['update_settings', { group: 'execution', settings: { max_concurrent_executions: '2' } }],
    ['run_sweep', { query: 'x' }],
  ];
  for (const secret of ['api_key', 'smtp_token', 'client_secret', 'password', 'gpg_passphrase', 'credential_name', 'auth_mode']) {
    refusals.push(['update_settings', { group: 'email', settings: { [secret]: 'x' } }]);
  }
  for (const [name, args] of refusals) {
    const r = await b.call(name, args);
    assert.is(r.error, 'invalid_argument', `${name} ${JSON.stringify(args)}`);
  }
  assert.equal(b.seen, [], 'no request was made');
});

test('update_settings: an unknown key and a non-boolean value for a boolean setting are refused before the PUT', async () => {
  const b = backendWith((m, u) => (u.pathname === '/api/settings/notifications' ? { json: { settings: { notify_enabled: false, digest_hour: 7 } } } : undefined));
  assert.is((await b.call('update_settings', { group: 'notifications', settings: { no_such: 'x' } })).error, 'invalid_argument');
  assert.is((await b.call('update_settings', { group: 'notifications', settings: { notify_enabled: 'yes' } })).error, 'invalid_argument');
  assert.equal(b.seen.filter((s) => s.method === 'PUT'), []);
  await b.call('update_settings', { group: 'notifications', settings: { notify_enabled: 'TRUE' } });
  assert.equal(b.seen.find((s) => s.method === 'PUT')!.body, { settings: { notify_enabled: true } }, 'converted to a JSON boolean');
});

test('update_settings: a key every object inherits ("constructor", "toString") is no setting, and is refused before the PUT', async () => {
  const b = backendWith((m, u) => (u.pathname === '/api/settings/notifications' ? { json: { settings: { notify_enabled: false } } } : undefined));
  for (const key of ['constructor', 'toString', '__proto__']) {
    const r = await b.call('update_settings', { group: 'notifications', settings: JSON.parse(`{"${key}": "x"}`) });
    assert.is(r.error, 'invalid_argument', key);
    assert.equal(r.detail.unknown_keys, [key], key);
  }
  assert.equal(b.seen.filter((s) => s.method === 'PUT'), []);
});

test('get_execution identity: health is asked first with the expectation; no or malformed identity is identity_unavailable, another is instance_mismatch, content discarded', async () => {
  const execution = (identity: unknown) => (_m: string, u: URL) => (u.pathname === '/api/executions/7' ? { json: { id: 7, status: 'completed', identity } } : undefined);
  const ok = backendWith(execution({ runtime_id: RUNTIME }));
  const good = await ok.call('get_execution', { exec_id: 7, expected_runtime_id: RUNTIME });
  assert.is(good.status, 'completed');
  const asked = ok.seen.filter((s) => s.path !== '/api/health' || s.query.expected_runtime_id);
  assert.equal(asked.map((s) => [s.path, s.query.expected_runtime_id]), [['/api/health', RUNTIME], ['/api/executions/7', RUNTIME]]);

  for (const identity of [undefined, null, {}, { runtime_id: 'garbled' }, { runtime_id: 5 }]) {
    const r = await backendWith(execution(identity)).call('get_execution', { exec_id: 7, expected_runtime_id: RUNTIME });
    assert.equal([r.error, r.status, r.id], ['identity_unavailable', undefined, undefined], JSON.stringify(identity));
  }
  const other = await backendWith(execution({ runtime_id: OTHER })).call('get_execution', { exec_id: 7, expected_runtime_id: RUNTIME });
  assert.equal([other.error, other.status], ['instance_mismatch', undefined]);

  // A health answer without identity stops the call before the execution is read.
  const noIdentity = backendWith((_m, u) => (u.pathname === '/api/health' && u.searchParams.has('expected_runtime_id') ? { json: { status: 'ok', identity: null } } : undefined));
  assert.is((await noIdentity.call('get_execution', { exec_id: 7, expected_runtime_id: RUNTIME })).error, 'identity_unavailable');
  assert.not.ok(noIdentity.seen.some((s) => s.path.startsWith('/api/executions')));

  // The expectation applies to that call only.
  const later = backendWith(execution({ runtime_id: OTHER }));
  await later.call('get_execution', { exec_id: 7, expected_runtime_id: RUNTIME });
  const plain = await later.call('get_execution', { exec_id: 7 });
  assert.is(plain.status, 'completed');
  assert.is(later.seen.at(-1)!.query.expected_runtime_id, undefined);
});

test('list tools page 25 by default (limit=25, offset=0)', async () => {
  const many = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, name: `r${i + 1}` }));
  const b = backendWith((_m, u) => {
    if (u.pathname === '/api/routines') return { json: { routines: many } };
    if (u.pathname === '/api/profiles') return { json: { profiles: many } };
    if (u.pathname === '/api/executions/3/references') return { json: many };
    if (u.pathname === '/api/explorer/search') return { json: { papers: [], next_cursor: null, mode: 'keyword' } };
    if (u.pathname === '/api/executions' || u.pathname === '/api/profiles/3/matches' || u.pathname === '/api/documents/3/similar') return { json: { similar: [{ id: 9, title: 't', distance: 0.1 }] } };
    return undefined;
  });
  for (const [name, args, key] of [['list_routines', {}, 'routines'], ['list_watch_profiles', {}, 'profiles'], ['get_execution_results', { exec_id: 3 }, 'papers']] as const) {
    const r = await b.call(name, args);
    assert.equal([r[key].length, r.limit, r.offset, r.total, r.has_more], [25, 25, 0, 30, true], name);
  }
  await b.call('list_executions');
  await b.call('get_profile_matches', { profile_id: 3 });
  await b.call('find_similar', { doc_id: 3 });
  await b.call('search_corpus', { query: 'x' });
  const sent = (path: string) => b.seen.find((s) => s.path === path)!;
  assert.equal([sent('/api/executions').query.limit, sent('/api/executions').query.offset], ['25', '0']);
  assert.equal([sent('/api/profiles/3/matches').query.limit, sent('/api/profiles/3/matches').query.offset], ['25', '0']);
  assert.is(sent('/api/documents/3/similar').query.limit, '25');
  assert.is(sent('/api/explorer/search').body.limit, 25);
  const bounded = await b.call('list_routines', { limit: 100 });
  assert.is(bounded.routines.length, 30);
  assert.is((await b.call('list_routines', { limit: 101 })).error, 'invalid_argument');
});

test('search_corpus reports keyword with mode_unavailable when semantic declined; find_similar never answers an empty list without a reason', async () => {
  const b = backendWith((_m, u) => {
    if (u.pathname === '/api/explorer/search') return { json: { papers: [{ id: 1, title: 'T', authors: [{ name: 'A' }], publication_date: '2024-01-01', source: 'dblp', doi: null }], next_cursor: null, mode: 'keyword', mode_unavailable: 'no embeddings yet' } };
    if (u.pathname === '/api/documents/1/similar') return { json: { similar: [] } };
    return undefined;
  });
  const r = await b.call('search_corpus', { query: 'x', mode: 'semantic' });
  assert.equal([r.mode, r.mode_unavailable, r.ranked_count], ['keyword', 'no embeddings yet', undefined]);
  assert.equal(Object.keys(r.papers[0]).sort(), ['authors', 'date', 'doi', 'id', 'source', 'title', 'url']);
  assert.match(r.note, /relevance/);
  const similar = await b.call('find_similar', { doc_id: 1 });
  assert.equal(similar.papers, []);
  assert.type(similar.reason, 'string');
  const b2 = backendWith((_m, u) =>
    u.pathname === '/api/documents/2/similar'
      ? { json: { results: [], model: 'local-lexical', kind: 'lexical', reason: 'no_vector_yet', message: 'This paper has no vector yet: run svc embed backfill.' } }
      : undefined,
  );
  const declined = await b2.call('find_similar', { doc_id: 2 });
  assert.equal([declined.reason, declined.message, declined.kind], ['no_vector_yet', 'This paper has no vector yet: run svc embed backfill.', 'lexical']);
});

test('run_routine when already running: conflict with conflict=routine_already_running and the execution_id', async () => {
  const b = backendWith((m, u) =>
    m === 'POST' && u.pathname === '/api/routines/4/run'
      ? { status: 409, json: { detail: { reason: 'routine_already_running', message: 'Routine 4 is already running.', conflict: 'routine_already_running', execution_id: 12 } } }
      : undefined,
  );
  const r = await b.call('run_routine', { routine_id: 4 });
  assert.equal([r.error, r.detail], ['conflict', { conflict: 'routine_already_running', execution_id: 12 }]);
});

test('get_routine: the delivery summary travels when the deliveries route answers, all null without delivery; omitted when that route cannot answer', async () => {
  const summary = { targets_by_channel: { email: 0, folder: 0, webhook: 0, feed: 0 }, enabled_target_count: 0, awaiting_review: 0, last_state: null, last_channel: null, last_attempts: null, last_error: null, last_delivered_at_utc: null, target_id: null };
  const routes = (deliveries: boolean) => (_m: string, u: URL) => {
    if (u.pathname === '/api/routines/2') return { json: { id: 2, name: 'r', missed_fires: 0, missed_fire_details: [], delivery_summary: summary } };
    if (u.pathname === '/api/routines/2/coverage') return { json: { checked: 0 } };
    if (u.pathname === '/api/routines/2/deliveries' && deliveries) return { json: { deliveries: [] } };
    return undefined;
  };
  const answered = await backendWith(routes(true)).call('get_routine', { routine_id: 2 });
  assert.equal(answered.delivery, summary);
  assert.equal([answered.missed_fires, answered.missed_fire_details, answered.coverage], [0, [], { checked: 0 }]);
  const without = await backendWith(routes(false)).call('get_routine', { routine_id: 2 });
  assert.not.ok('delivery' in without);
  assert.not.ok('delivery_summary' in without.routine);
});

test('the listing declares requires_confirmation at the top level too (the raw tools/list answer): false for the 18 reads, true for the 7 writes', async () => {
  const { createMcpServer } = await import('../src/mcp/server.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const server = createMcpServer(createBackend({ port: 5999, paths: {} as Paths, fetch: fetch, token: 'tok' }));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const answers = new Map<number, any>();
  clientSide.onmessage = (message: any) => answers.set(message.id, message.result);
  await clientSide.start();
  await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  await waitUntil(() => answers.has(1));
  assert.equal(answers.get(1).capabilities.experimental.svc, { contract_version: '2.3' });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  await waitUntil(() => answers.has(2));
  const tools = answers.get(2).tools as { name: string; requires_confirmation: unknown; _meta: { requires_confirmation: unknown } }[];
  assert.is(tools.length, 25);
  for (const tool of tools) assert.is(tool.requires_confirmation, tool._meta.requires_confirmation, tool.name);
  assert.equal([tools.filter((t) => t.requires_confirmation === false).length, tools.filter((t) => t.requires_confirmation === true).length], [18, 7]);
  await server.close();
});

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), 'answered');
}

test('every advertised argument pattern means what the tool checks: JSON Schema patterns have no flags, so no tool pattern may carry one', () => {
  for (const tool of TOOLS) {
    for (const [name, spec] of Object.entries(tool.args)) {
      if (spec.type === 'string' && spec.pattern) assert.is(spec.pattern.flags, '', `${tool.name}.${name}`);
    }
  }
  const window = TOOLS.find((t) => t.name === 'get_analytics')!.args.window as { pattern: RegExp };
  const advertised = new RegExp(window.pattern.source);
  for (const ok of ['30', '30d', '30D', 'all', 'ALL']) assert.ok(advertised.test(ok), ok);
  for (const bad of ['d30', 'al', '30 days']) assert.not.ok(advertised.test(bad), bad);
});

test.run();
