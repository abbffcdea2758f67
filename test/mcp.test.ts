/**
 * `svc mcp` as an agent harness sees it: the real SDK client spawns the real command over stdio
 * against a real server on port 0 with a temp state dir. The listing, discovery order, the error
 * mappings, the identity check, and the read and write tools whose routes exist.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixture, freePort, ROOT, startTestServer, waitFor, type TestServer } from './_setup.js';
import { startStub, type Stub } from './_stub.js';

let t: TestServer;
const clients: Client[] = [];

const connect = (env: Record<string, string> = {}) => connectArgs([], env);

async function connectArgs(extra: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'bin', 'svc.js'), 'mcp', ...extra],
    env: { PATH: process.env.PATH ?? '', SVC_DATA_DIR: t.dirs.env.SVC_DATA_DIR!, SVC_STATE_DIR: t.dirs.env.SVC_STATE_DIR!, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = await client.callTool({ name, arguments: args });
  const value = JSON.parse((r.content as { text: string }[])[0]!.text);
  return r.isError ? { isError: true, ...value } : value;
}

let crossref: Stub;

test.before(async () => {
  crossref = await startStub([{ path: '/works', body: fixture('crossref/works-query-ecology-rows2.json'), times: Infinity }]);
  t = await startTestServer({ env: { SVC_SOURCE_CROSSREF_URL: crossref.url }, context: { tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, executionHeartbeatMs: 50 } } });
});
test.after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t.close();
  await crossref.close();
});

test('the listing: 25 tools, 18 read and 7 write, each declaring requires_confirmation; contract v2.3 at initialization', async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  assert.is(tools.length, 25);
  const writes = tools.filter((tool) => tool._meta?.requires_confirmation === true).map((tool) => tool.name).sort();
  assert.equal(writes, ['activate_routine', 'create_routine', 'create_watch_profile', 'deactivate_routine', 'run_routine', 'run_sweep', 'update_settings']);
  assert.is(tools.filter((tool) => tool._meta?.requires_confirmation === false).length, 18);
  for (const tool of tools) assert.not.match(tool.name, /delete|erase|remove/);
  assert.equal((client.getServerCapabilities()?.experimental as any)?.svc, { contract_version: '2.3' });
  assert.match(client.getInstructions() ?? '', /v2\.3/);
});

test('read tools through the backend: health, sources with key presence only, routines and executions lists', async () => {
  const client = await connect();
  const health = await call(client, 'health');
  assert.is(health.identity.runtime_id, t.ctx.runtimeId);
  const sources = await call(client, 'list_sources', { limit: 30 });
  assert.ok(sources.total >= 19);
  const keyed = sources.sources.find((s: any) => s.credential);
  assert.ok(['present', 'absent', 'unreadable'].includes(keyed.credential.status));
  assert.not.ok(JSON.stringify(sources).includes('value'));
  assert.equal((await call(client, 'list_routines')).routines, []);
  assert.is((await call(client, 'list_executions')).total ?? 0, 0);
});

test('errors: unknown argument and bad values are invalid_argument; absent things are not_found; the expectation is checked before any network access', async () => {
  const client = await connect();
  const unknown = await call(client, 'list_routines', { limitt: 3 });
  assert.equal([unknown.isError, unknown.error], [true, 'invalid_argument']);
  assert.is((await call(client, 'list_executions', { limit: 0 })).error, 'invalid_argument');
  assert.is((await call(client, 'get_routine', { routine_id: 999 })).error, 'not_found');
  assert.is((await call(client, 'search_corpus', { query: 'x', offset: 0 })).error, 'invalid_argument');
  const down = await connect({ SVC_PORT: String(await freePort()) });
  assert.is((await call(down, 'health', { expected_runtime_id: 'not-a-uuid' })).error, 'invalid_argument', 'validated before any network access');
});

test('identity: a different runtime id is instance_mismatch and the content is discarded', async () => {
  const client = await connect();
  const other = '00000000-0000-4000-8000-000000000000';
  const r = await call(client, 'get_execution', { exec_id: 1, expected_runtime_id: other });
  assert.is(r.error, 'instance_mismatch');
  assert.is(r.status, undefined);
  const own = (await call(client, 'health')).identity.runtime_id;
  assert.is((await call(client, 'get_execution', { exec_id: 999, expected_runtime_id: own })).error, 'not_found');
});

test('discovery: the port file finds the server; SVC_PORT wins and is never widened; a named port without a token file is unavailable', async () => {
  const viaPortFile = await connect();
  assert.ok((await call(viaPortFile, 'health')).identity);
  const dead = await freePort();
  const named = await connect({ SVC_PORT: String(dead) });
  const r = await call(named, 'list_routines');
  assert.is(r.error, 'backend_unavailable');
  assert.equal(r.detail.tried, [`http://127.0.0.1:${dead}`]);
  assert.match(r.message, /not running/);
  assert.not.match(r.message, /at .*\.js/);
  // The flags the assistant's agent configuration passes: --port and --state-dir name the instance.
  const flagged = await connectArgs(['--port', String(t.port), '--state-dir', t.dirs.env.SVC_STATE_DIR!], { SVC_STATE_DIR: '/nonexistent' });
  assert.ok((await call(flagged, 'health')).identity);
});

test('watch profiles: create lifts basis_warning to the top and repeats it in detail; list, read and matches', async () => {
  const client = await connect();
  const created = await call(client, 'create_watch_profile', { name: 'Ada Lovelace' });
  assert.match(created.basis_warning, /no identifier/i);
  assert.is(created.detail.basis_warning, created.basis_warning);
  const list = await call(client, 'list_watch_profiles');
  assert.match(list.profiles[0].basis_warning, /no identifier/i);
  const one = await call(client, 'get_watch_profile', { profile_id: created.profile.id });
  assert.is(one.match_total, 0);
  assert.is(one.by_basis.orcid, 0);
  const matches = await call(client, 'get_profile_matches', { profile_id: created.profile.id });
  assert.ok(matches.what_a_basis_means.name_only);
  const withOrcid = await call(client, 'create_watch_profile', { name: 'Josiah Carberry', orcid: '0000-0002-1825-0097' });
  assert.is(withOrcid.basis_warning, undefined);
  assert.is((await call(client, 'create_watch_profile', { name: 'X', orcid: 'nope' })).error, 'invalid_argument');
});

test('routines: created inactive and read back; entity_warning when no named source searches by author; activate and deactivate', async () => {
  const client = await connect();
  const created = await call(client, 'create_routine', { name: 'graphs', keywords: ['graph'], sources: ['dblp'], schedule: '0 6 * * 1' });
  assert.is(created.routine.is_active, false);
  const profile = (await call(client, 'create_watch_profile', { name: 'Grace Hopper' })).profile;
  const following = await call(client, 'create_routine', { name: 'follow', keywords: ['compilers'], sources: ['dblp'], schedule: '0 6 * * 1', entity: { profile_id: profile.id, mode: 'new_papers' } });
  assert.match(following.entity_warning, /search by author/);
  assert.match(following.entity_warning, /e\.g\. \w+/, 'the warning names sources that can');
  // Crossref searches by author (capabilities.author_search in the catalog): no warning.
  const byAuthor = await call(client, 'create_routine', { name: 'follow2', keywords: ['compilers'], sources: ['crossref'], schedule: '0 6 * * 1', entity: { profile_id: profile.id, mode: 'new_papers' } });
  assert.is(byAuthor.routine.entity.profile_id, profile.id);
  assert.is(byAuthor.entity_warning, undefined);
  const bad = await call(client, 'create_routine', { name: 'bad', keywords: ['x'], sources: ['crossref'], schedule: '0 6 * * 1', entity: { profile_id: 999, mode: 'new_papers' } });
  assert.is(bad.error, 'invalid_argument');
  assert.equal(await call(client, 'activate_routine', { routine_id: created.routine.id }), { id: created.routine.id, is_active: true });
  assert.equal(await call(client, 'deactivate_routine', { routine_id: created.routine.id }), { id: created.routine.id, is_active: false });
  const read = await call(client, 'get_routine', { routine_id: created.routine.id });
  assert.is(read.routine.id, created.routine.id);
  assert.ok(read.coverage);
});

test('update_settings: allowlist, secret-looking keys and unknown keys refused before any write, booleans from true/false only, the diff of actual state', async () => {
  const client = await connect();
  assert.is((await call(client, 'update_settings', { group: 'execution', settings: { max_concurrent_executions: '2' } })).error, 'invalid_argument');
  const secret = await call(client, 'update_settings', { group: 'email', settings: { smtp_password: 'hunter2' } });
  assert.is(secret.error, 'invalid_argument');
  assert.not.match(JSON.stringify(secret), /hunter2/);
  assert.is((await call(client, 'update_settings', { group: 'email', settings: { no_such_key: 'x' } })).error, 'invalid_argument');
  const before = (await t.request('GET', '/api/settings/notifications')).json().settings;
  const boolKey = Object.keys(before).find((k) => typeof before[k] === 'boolean')!;
  assert.ok(boolKey, 'the notifications group has a boolean setting');
  assert.is((await call(client, 'update_settings', { group: 'notifications', settings: { [boolKey]: 'yes' } })).error, 'invalid_argument');
  const flipped = String(!before[boolKey]).toUpperCase();
  const r = await call(client, 'update_settings', { group: 'notifications', settings: { [boolKey]: flipped } });
  assert.equal(r.changed[boolKey], { from: before[boolKey], to: !before[boolKey] });
  assert.equal(r.requested, [boolKey]);
  assert.is(r.unchanged_key_count, 0);
  const again = await call(client, 'update_settings', { group: 'notifications', settings: { [boolKey]: flipped } });
  assert.equal([again.changed, again.unchanged_key_count], [{}, 1]);
});

test('a sweep through the tools, then every corpus read tool on what it found', async () => {
  const client = await connect();
  const started = await call(client, 'run_sweep', { query: 'ecology', sources: ['crossref'], max_results: 2 });
  assert.type(started.exec_id, 'number');
  await waitFor(async () => (await call(client, 'get_execution', { exec_id: started.exec_id })).status !== 'running', 15_000, 'the sweep');
  const results = await call(client, 'get_execution_results', { exec_id: started.exec_id, limit: 1 });
  assert.equal([results.total, results.papers.length, results.has_more], [2, 1, true]);
  const docId = results.papers[0].id;
  assert.type(docId, 'number');
  const record = await call(client, 'get_search_record', { exec_id: started.exec_id });
  assert.is(record.sources[0].source, 'crossref');
  assert.is((await call(client, 'list_executions', { limit: 5 })).executions.length, 1);

  const search = await call(client, 'search_corpus', { query: 'ecology', limit: 1 });
  assert.is(search.papers.length, 1);
  assert.ok(search.next_cursor);
  assert.match(search.note, /relevance/);
  const second = await call(client, 'search_corpus', { query: 'ecology', limit: 1, cursor: search.next_cursor });
  assert.is.not(second.papers[0].id, search.papers[0].id);
  // The run's papers were embedded after it (the local lane), so semantic mode ranks them.
  const semantic = await call(client, 'search_corpus', { query: 'ecology', mode: 'semantic' });
  assert.is(semantic.mode, 'semantic');
  assert.equal([semantic.ranked_count, typeof semantic.papers[0].distance], [2, 'number']);
  assert.ok(semantic.model);

  const similar = await call(client, 'find_similar', { doc_id: docId });
  assert.is(similar.papers.length, 1);
  assert.type(similar.papers[0].distance, 'number');
  assert.is(similar.kind, 'lexical', 'the local lane is lexical, and the tool says so');
  const why = await call(client, 'explain_match', { doc_id: docId });
  assert.ok(why.cannot_verify);
  assert.match(why.note, /relevance/);
  assert.ok(Array.isArray((await call(client, 'get_paper_lifecycle', { doc_id: docId })).events));
  assert.is((await call(client, 'explain_match', { doc_id: 999999 })).error, 'not_found');

  for (const view of ['overview', 'volume', 'sources', 'keywords', 'routine-health', 'discovery-lag']) {
    const a = await call(client, 'get_analytics', { view });
    assert.not.ok(a.isError, `${view}: ${a.message}`);
    assert.ok(a.method, view);
  }
  assert.is((await call(client, 'get_analytics', { view: 'everything' })).error, 'invalid_argument');
  const watchdog = await call(client, 'get_watchdog_findings');
  assert.ok(Array.isArray(watchdog.could_not_judge));
  const bib = await call(client, 'export_references', { doc_ids: [docId], format: 'bibtex' });
  assert.match(bib.text, /^@/m);
  const ris = await call(client, 'export_references', { exec_id: started.exec_id, format: 'ris' });
  assert.match(ris.text, /TY {2}- /);
  assert.is((await call(client, 'export_references', { format: 'csv' })).error, 'invalid_argument');
});

test('update_settings for embeddings uses the nested settings object', async () => {
  const client = await connect();
  const before = (await t.request('GET', '/api/settings/embeddings')).json().settings;
  const r = await call(client, 'update_settings', { group: 'embeddings', settings: { embed_after_runs: String(!before.embed_after_runs) } });
  assert.equal(r.changed.embed_after_runs, { from: before.embed_after_runs, to: !before.embed_after_runs });
});

test.run();
