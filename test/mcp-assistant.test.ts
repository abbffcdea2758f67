/**
 * The assistant's API lanes call the MCP surface's read tools for real (issue 18, item 7): a
 * fake Anthropic model asks for search_corpus, the server runs it over its own HTTP against the
 * explorer, and the call and its answer are recorded in the conversation. Only read tools are
 * offered; writes need a person's confirmation.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeRecords } from '../src/corpus/merge.js';
import { flushSearchIndex } from '../src/corpus/search-index.js';
import { author, makeRecord } from '../src/sources/normalize.js';
import { parseFrames, startFakeProvider, type FakeProvider } from './_assistant.js';
import { startTestServer, type TestServer } from './_setup.js';

const KEY = 'sk-tools-key-abcdefghijklmnop';
let t: TestServer;
let fake: FakeProvider;

test.before(async () => {
  fake = await startFakeProvider(KEY);
  t = await startTestServer({ env: { SVC_AI_ANTHROPIC_URL: `${fake.url}/anthropic`, PATH: process.env.PATH! } });
  await t.request('PUT', '/api/credentials/anthropic_api_key', { body: { value: KEY } });
  mergeRecords(t.ctx.db, [{ rank: 0, record: makeRecord({ source: 'crossref', nativeId: 'e1', title: 'Ecology of coastal wetlands', authors: [author('Ada Lovelace')], doi: '10.1/eco', publicationDate: '2025-02-01' }) }], t.ctx.nowIso());
  flushSearchIndex(t.ctx.db);
});
test.after(async () => {
  await t.close();
  await fake.close();
});

test('the model calls search_corpus; the explorer answers; call and answer are recorded', async () => {
  const choices = { version: 1, runtime: 'api_key', provider: 'anthropic', model: 'claude-test', effort: null };
  const id = (await t.request('POST', '/api/assistant/sessions', { body: { choices, title: 'tools' } })).json().session.id;
  const frames = parseFrames((await t.request('POST', `/api/assistant/sessions/${id}/messages`, { body: { text: 'find ecology' } })).text);
  const offered = fake.seen.find((s) => s.url.startsWith('/anthropic'))!.body.tools.map((tool: any) => tool.name);
  assert.ok(offered.includes('search_corpus'));
  for (const write of ['run_sweep', 'create_routine', 'update_settings', 'run_routine']) assert.not.ok(offered.includes(write), `${write} is not offered`);
  assert.equal(frames.filter((f) => f.event.startsWith('tool_')).map((f) => f.event), ['tool_call', 'tool_result']);
  const detail = (await t.request('GET', `/api/assistant/sessions/${id}`)).json();
  const result = detail.messages[2].tool_results.data[0];
  assert.is(result.isError ?? false, false);
  assert.is(result.output.papers[0].title, 'Ecology of coastal wetlands');
  assert.match(result.output.note, /relevance/);
});

test.run();
