import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAgentArgs, checkKey, listModels, runAgentCli, streamChat, type ProviderEvent, type RequestFamily } from '../src/providers/index.js';
import { startFakeProvider, writeFakeAgent, type FakeProvider } from './_assistant.js';

const KEY = 'sk-test-provider-key-0123456789';
let fake: FakeProvider;
let dir: string;
test.before(async () => {
  fake = await startFakeProvider(KEY);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-providers-'));
});
test.after(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function collect(gen: AsyncGenerator<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

const text = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
const models = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === 'model' ? [`${e.source}:${e.model}`] : []));

test('OpenAI-compatible chat streams text, reports each distinct served model, and usage', async () => {
  const events = await collect(streamChat('openai_chat', { baseUrl: `${fake.url}/openai`, key: KEY, model: 'asked-model', messages: [{ role: 'user', content: 'hi' }], system: 'sys' }));
  assert.is(text(events), 'Hello from the fake');
  assert.equal(models(events), ['api_response_model:served-model-1', 'api_response_model:served-model-2']);
  assert.ok(events.some((e) => e.type === 'usage' && e.inputTokens === 11 && e.outputTokens === 7));
  const sent = fake.seen.at(-1)!;
  assert.is(sent.headers.authorization, `Bearer ${KEY}`);
  assert.is(sent.body.stream, true);
  assert.equal(sent.body.messages[0], { role: 'system', content: 'sys' });
});

test('Anthropic messages streams text, the response model, usage and a tool call assembled from JSON deltas', async () => {
  const events = await collect(
    streamChat('anthropic_messages', {
      baseUrl: `${fake.url}/anthropic`,
      key: KEY,
      model: 'asked',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'search_corpus', description: 'search', inputSchema: { type: 'object' } }],
    }),
  );
  assert.is(text(events), 'Hello from the fake');
  assert.equal(models(events), ['api_response_model:claude-served']);
  const call = events.find((e) => e.type === 'tool_call');
  assert.equal(call && call.type === 'tool_call' && call.call, { id: 'toolu_1', name: 'search_corpus', input: { query: 'ecology' } });
  const sent = fake.seen.at(-1)!;
  assert.is(sent.headers['x-api-key'], KEY);
  assert.is(sent.headers['anthropic-version'], '2023-06-01');
  assert.is(sent.body.tools[0].input_schema.type, 'object');
});

test('Gemini generateContent streams over alt=sse with the key in a header and reports modelVersion', async () => {
  const events = await collect(streamChat('gemini_generate_content', { baseUrl: `${fake.url}/gemini`, key: KEY, model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'hi' }] }));
  assert.is(text(events), 'Hello from the fake');
  assert.equal(models(events), ['alt_api_response_modelVersion:gemini-served-001']);
  const sent = fake.seen.at(-1)!;
  assert.ok(sent.url.startsWith('/gemini/models/gemini-2.0-flash:streamGenerateContent?alt=sse'));
  assert.not.ok(sent.url.includes(KEY));
  assert.is(sent.body.contents[0].role, 'user');
});

test('a refused key is an upstream error whose message never carries the key', async () => {
  for (const family of ['openai_chat', 'anthropic_messages', 'gemini_generate_content'] as RequestFamily[]) {
    const prefix = family === 'openai_chat' ? 'openai' : family === 'anthropic_messages' ? 'anthropic' : 'gemini';
    try {
      await collect(streamChat(family, { baseUrl: `${fake.url}/${prefix}`, key: 'sk-wrong-key-abcdef', model: 'm', messages: [{ role: 'user', content: 'x' }] }));
      assert.unreachable('should fail');
    } catch (err: any) {
      assert.is(err.reason, 'upstream_error');
      assert.is(err.extra.upstream_kind, 'unauthorized');
      assert.not.ok(err.message.includes('sk-wrong-key-abcdef'), err.message);
      assert.ok(err.message.includes('[redacted]'));
    }
  }
});

test('an endpoint given with a user name and password (one holding an @) is never quoted with them when it fails', async () => {
  for (const family of ['openai_chat', 'anthropic_messages', 'gemini_generate_content'] as RequestFamily[]) {
    try {
      await collect(streamChat(family, { baseUrl: 'http://me:Pa55@w0rdTail@127.0.0.1:9/v1', key: 'sk-some-key-abcdef', model: 'm', messages: [{ role: 'user', content: 'x' }] }));
      assert.unreachable('should fail');
    } catch (err: any) {
      assert.is(err.reason, 'upstream_error', err.message);
      assert.not.match(err.message, /Pa55|w0rdTail|me:/, err.message);
    }
  }
});

test('models lists and key checks use the models endpoint of each family', async () => {
  assert.equal((await listModels('openai_chat', { baseUrl: `${fake.url}/openai`, key: KEY })).sort(), ['model-a', 'model-b']);
  assert.equal(await listModels('gemini_generate_content', { baseUrl: `${fake.url}/gemini`, key: KEY }), ['gemini-2.0-flash', 'gemini-1.5-pro']);
  assert.equal(await checkKey('anthropic_messages', { baseUrl: `${fake.url}/anthropic`, key: KEY }), { valid: true, models: ['model-a', 'model-b'] });
  const bad = await checkKey('openai_chat', { baseUrl: `${fake.url}/openai`, key: 'nope-nope-nope' });
  assert.is(bad.valid, false);
  const down = await checkKey('openai_chat', { baseUrl: 'http://127.0.0.1:1', key: KEY });
  assert.equal(down.valid === false && down.kind, 'unreachable');
});

test('the agent CLI lane reads stream-json: native session, init model, text, usage with cost', async () => {
  const agent = writeFakeAgent(dir);
  const args = buildAgentArgs({ model: 'sonnet', resume: 'native-prev', mcpConfigPath: '/x/mcp.json' });
  assert.equal(args.slice(-6), ['--model', 'sonnet', '--resume', 'native-prev', '--mcp-config', '/x/mcp.json']);
  const events = await collect(runAgentCli({ binary: agent, args, prompt: 'hello agent', env: { PATH: process.env.PATH, MAX_THINKING_TOKENS: '4000' }, spawn, secrets: [] }));
  assert.ok(events.some((e) => e.type === 'native_session' && e.id === 'native-prev'));
  assert.equal(models(events), ['agent_system_init_model:agent-reported-model']);
  assert.is(text(events), 'agent says: hello agent effort=4000');
  assert.ok(events.some((e) => e.type === 'usage' && e.costUsd === 0.0123 && e.inputTokens === 20));
  const call = JSON.parse(fs.readFileSync(path.join(dir, 'calls.jsonl'), 'utf8').trim().split('\n').at(-1)!);
  assert.not.ok(call.argv.includes('hello agent'), 'the prompt travels on stdin, not argv');
});

test('a failing agent CLI relays its error scrubbed of the token', async () => {
  const agent = writeFakeAgent(dir);
  const token = 'tok-SECRET-abcdefghijkl';
  try {
    await collect(runAgentCli({ binary: agent, args: [], prompt: `FAIL ${token}`, env: { PATH: process.env.PATH }, spawn, secrets: [token] }));
    assert.unreachable('should fail');
  } catch (err: any) {
    assert.is(err.reason, 'upstream_error');
    assert.ok(err.message.includes('exit 3'), err.message);
    assert.not.ok(err.message.includes(token));
    assert.ok(err.message.includes('[redacted]'));
  }
});

test('aborting the agent lane stops the process', async () => {
  const agent = writeFakeAgent(dir);
  const controller = new AbortController();
  let pid: number | undefined;
  const started = Date.now();
  const events: ProviderEvent[] = [];
  for await (const e of runAgentCli({ binary: agent, args: [], prompt: 'SLOW', env: { PATH: process.env.PATH }, spawn, secrets: [], signal: controller.signal, onProcess: (p) => (pid = p) })) {
    events.push(e);
    if (e.type === 'text') controller.abort();
  }
  assert.ok(Date.now() - started < 10_000);
  assert.ok(pid);
  assert.throws(() => process.kill(pid!, 0));
});

test.run();
