/**
 * The permission relay end to end: a turn's agent CLI (the fake, speaking
 * MCP over stdio like Claude Code) calls its --permission-prompt-tool, the
 * relay (`svc mcp --permission-relay`) opens POST /api/assistant/permissions
 * on the real loopback server and holds it until the person answers on the
 * turn's stream; allow lets the tool run, deny refuses it with the reason.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { permissionBroker } from '../src/assistant/permissions.js';
import { freePort, ROOT, startTestServer, waitFor, type TestServer } from './_setup.js';
import { openStream, writeFakeAgent } from './_assistant.js';

let t: TestServer;
let agentDir: string;

const CLI = { version: 1, runtime: 'agent_cli', provider: 'agent_code', model: 'sonnet', effort: null };

test.before(async () => {
  const probe = await startTestServer();
  agentDir = path.join(probe.dirs.root + '-relay-agent');
  await probe.close();
  const agent = writeFakeAgent(agentDir);
  t = await startTestServer({ env: { SVC_AGENT_CLI: agent, PATH: process.env.PATH! }, context: { tuning: { permissionKeepaliveMs: 100 } } });
});
test.after(async () => {
  await t.close();
  fs.rmSync(agentDir, { recursive: true, force: true });
});

const create = async () => (await t.request('POST', '/api/assistant/sessions', { body: { choices: CLI, title: 'relay' } })).json().session.id as number;
const agentCalls = () => fs.readFileSync(path.join(agentDir, 'calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const said = (frames: { event: string; data: any }[]) => frames.filter((f) => f.event === 'text').map((f) => f.data.delta).join('');

/** Start a PERMIT turn and wait until its agent's permission request shows on the stream. */
async function askedTurn() {
  const id = await create();
  const turn = openStream(t.port, t.token, `/api/assistant/sessions/${id}/messages`, { text: 'PERMIT please' });
  const asked = await waitFor(() => turn.frames.find((f) => f.event === 'permission_request'), 20_000, 'permission_request frame');
  return { id, turn, asked };
}

test('allow: the request is held until the person answers, then the agent runs the tool with its input', async () => {
  const { id, turn, asked } = await askedTurn();
  assert.equal([asked.data.session_id, asked.data.tool_name, asked.data.tool_use_id, asked.data.input], [id, 'Bash', 'toolu_fake_1', { command: 'echo hi' }]);
  // Held across keep-alives (every 100 ms here): the relay took none of them for an answer.
  const keptOpen = () => t.logLines.filter((l) => l.includes(`permission request ${asked.data.request_id} kept open`)).length;
  await waitFor(() => keptOpen() >= 2, 5000, 'two keep-alives');
  assert.equal(permissionBroker(t.ctx).pending(id).map((p) => p.request_id), [asked.data.request_id], 'still held');
  assert.not.ok(said(turn.frames).includes('ran Bash'), 'the tool waits for the answer');
  assert.not.ok(turn.frames.some((f) => f.event === 'done'));
  const answer = await t.request('POST', `/api/assistant/permissions/${asked.data.request_id}`, { body: { allow: true, reason: null } });
  assert.is(answer.status, 200);
  await turn.ended;
  assert.ok(said(turn.frames).endsWith('ran Bash with {"command":"echo hi"}'), said(turn.frames));
  assert.is(turn.frames.at(-1)!.data.status, 'completed');
  assert.is(permissionBroker(t.ctx).pending(id).length, 0);
});

test('deny: the agent is refused with the reason the person gave', async () => {
  const { turn, asked } = await askedTurn();
  await t.request('POST', `/api/assistant/permissions/${asked.data.request_id}`, { body: { allow: false, reason: 'not on my machine' } });
  await turn.ended;
  assert.ok(said(turn.frames).endsWith('refused Bash: not on my machine'), said(turn.frames));
  assert.equal(turn.frames.find((f) => f.event === 'permission_answered')?.data.allow, false);
});

test('the agent is given the relay as its permission prompt tool; read tools stay allowed up front; no token in argv, environment or configuration', async () => {
  const { turn, asked } = await askedTurn();
  await t.request('POST', `/api/assistant/permissions/${asked.data.request_id}`, { body: { allow: false } });
  await turn.ended;
  const call = agentCalls().at(-1);
  const promptTool = call.argv[call.argv.indexOf('--permission-prompt-tool') + 1];
  const config = JSON.parse(call.mcpConfig);
  const [, serverName] = /^mcp__(.+?)__(.+)$/.exec(promptTool)!;
  const relay = config.mcpServers[serverName!];
  assert.ok(relay.args.includes('--permission-relay'));
  assert.ok(relay.args.includes(String(t.port)) && relay.args.includes(t.dirs.stateDir));
  assert.equal(Object.keys(relay.env), ['SVC_ASSISTANT_SESSION_ID']);
  const allowed = String(call.argv[call.argv.indexOf('--allowedTools') + 1]).split(',');
  assert.is(allowed.length, 18);
  assert.not.ok(allowed.includes(promptTool));
  for (const where of [JSON.stringify(call.argv), call.mcpConfig, JSON.stringify(call.env)]) assert.not.ok(where.includes(t.token));
  // The relay process's own argv is the configuration's: no token there either.
  assert.not.ok(JSON.stringify(relay.args).includes(t.token));
  assert.is(call.mcpConfigMode, 0o600);
  const configPath = call.argv[call.argv.indexOf('--mcp-config') + 1];
  assert.not.ok(fs.existsSync(configPath), 'the configuration goes when the turn ends');
});

test('a turn cancelled while a permission is open closes the request: nothing stays pending and a late answer is refused', async () => {
  const { id, turn, asked } = await askedTurn();
  const cancel = (await t.request('POST', `/api/assistant/sessions/${id}/cancel`)).json();
  assert.is(cancel.outcome, 'cancel_requested');
  await turn.ended;
  assert.is(turn.frames.at(-1)!.data.status, 'cancelled');
  await waitFor(() => permissionBroker(t.ctx).pending(id).length === 0, 5000, 'request closed');
  const late = await t.request('POST', `/api/assistant/permissions/${asked.data.request_id}`, { body: { allow: true } });
  assert.is(late.status, 409);
  assert.not.ok(said(turn.frames).includes('ran Bash'));
});

test('a held request is kept alive with spaces while the person thinks (fetch gives up on a body silent for 300 s), and still parses as the answer', async () => {
  const id = await create();
  const held = openStream(t.port, t.token, '/api/assistant/permissions', { session_id: id, tool_name: 'Bash', tool_use_id: null, input: {} });
  const pending = await waitFor(() => permissionBroker(t.ctx).pending(id)[0], 5000, 'request opened');
  await waitFor(() => held.text().length >= 4, 5000, 'keepalive spaces');
  assert.match(held.text(), /^ +$/);
  await t.request('POST', `/api/assistant/permissions/${pending.request_id}`, { body: { allow: true } });
  await held.ended;
  assert.is(JSON.parse(held.text()).allow, true);
});

/** `svc mcp --permission-relay` as the agent starts it, with a real MCP client. */
async function relayClient(env: Record<string, string>, port = t.port): Promise<Client> {
  const client = new Client({ name: 'relay-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'bin', 'svc.js'), 'mcp', '--permission-relay', '--port', String(port), '--state-dir', t.dirs.stateDir],
      env: { PATH: process.env.PATH ?? '', SVC_DATA_DIR: t.dirs.env.SVC_DATA_DIR!, ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}
const decide = async (client: Client, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}) =>
  JSON.parse(((await client.callTool({ name: 'ask_person', arguments: args }, undefined, options)).content as { text: string }[])[0]!.text);

test('the relay serves exactly one tool, apart from the public surface; anything but an answer denies at once', async () => {
  const id = await create();
  const bare = await relayClient({});
  try {
    const { tools } = await bare.listTools();
    assert.equal(tools.map((tool) => tool.name), ['ask_person']);
    assert.equal(tools[0]!.inputSchema.required, ['tool_name', 'input']);
    const unnamed = await decide(bare, { tool_name: 'Bash', input: {} });
    assert.is(unnamed.behavior, 'deny');
    assert.match(unnamed.message, /SVC_ASSISTANT_SESSION_ID/);
  } finally {
    await bare.close();
  }
  const missing = await relayClient({ SVC_ASSISTANT_SESSION_ID: '999999' });
  try {
    const refused = await decide(missing, { tool_name: 'Bash', input: {} });
    assert.is(refused.behavior, 'deny');
    assert.not.ok(refused.message.includes(t.token));
  } finally {
    await missing.close();
  }
  const nowhere = await relayClient({ SVC_ASSISTANT_SESSION_ID: String(id) }, await freePort());
  try {
    const down = await decide(nowhere, { tool_name: 'Bash', input: {} });
    assert.is(down.behavior, 'deny');
    assert.match(down.message, /not running/);
  } finally {
    await nowhere.close();
  }
  assert.is(permissionBroker(t.ctx).pending(id).length, 0);
});

test('the agent withdrawing its question (MCP cancellation) closes the held request', async () => {
  const id = await create();
  const client = await relayClient({ SVC_ASSISTANT_SESSION_ID: String(id) });
  try {
    const withdraw = new AbortController();
    const asked = decide(client, { tool_name: 'Write', input: { file_path: '/tmp/x' }, tool_use_id: 'tu_w' }, { signal: withdraw.signal }).catch((err: Error) => err);
    const pending = await waitFor(() => permissionBroker(t.ctx).pending(id)[0], 10_000, 'request opened');
    assert.equal([pending.tool_name, pending.tool_use_id, pending.input], ['Write', 'tu_w', { file_path: '/tmp/x' }]);
    withdraw.abort();
    assert.instance(await asked, Error);
    await waitFor(() => permissionBroker(t.ctx).pending(id).length === 0, 5000, 'request closed');
  } finally {
    await client.close();
  }
});

test.run();
