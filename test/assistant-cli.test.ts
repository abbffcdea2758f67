/**
 * `svc assistant` as a researcher reads it on a terminal: status names every
 * connection and the default one; show gives the connection, recorded tokens
 * and cost (null is "not recorded", never zero) and the model each reply
 * reported; a chat from the CLI is offered the corpus tools of the running
 * service, like the desktop, and says when the model used one.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import * as repo from '../src/assistant/repo.js';
import { startTestServer, tempDirs, type TempDirs, type TestServer } from './_setup.js';
import { startFakeProvider, writeFakeAgent, type FakeProvider } from './_assistant.js';
import { onPty } from './_pty.js';
import { runCliInProcess } from './_cli.js';

const KEY = 'sk-cli-views-key-abcdefghijklmnop';
let t: TestServer;
let fake: FakeProvider;
let agentDir: TempDirs;
let agent: string;

test.before(async () => {
  fake = await startFakeProvider(KEY);
  agentDir = tempDirs();
  agent = writeFakeAgent(path.join(agentDir.root, 'agent'));
  t = await startTestServer({ env: { SVC_AI_OPENAI_URL: `${fake.url}/openai`, SVC_AI_ANTHROPIC_URL: `${fake.url}/anthropic`, SVC_AGENT_CLI: agent, PATH: process.env.PATH! } });
  for (const name of ['openai_api_key', 'anthropic_api_key']) await t.request('PUT', `/api/credentials/${name}`, { body: { value: KEY } });
});
test.after(async () => {
  await t.close();
  await fake.close();
  agentDir.cleanup();
});

const env = (dirs: TempDirs = t.dirs) => ({ ...dirs.env, SVC_AGENT_CLI: agent, SVC_AI_OPENAI_URL: `${fake.url}/openai`, SVC_AI_ANTHROPIC_URL: `${fake.url}/anthropic`, PATH: process.env.PATH });
const cli = async (args: string[], options: { stdin?: string; dirs?: TempDirs } = {}) => {
  const r = await runCliInProcess(args, { env: env(options.dirs), stdin: options.stdin });
  assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return r;
};
const newConversation = async (flags: string[], dirs?: TempDirs) => JSON.parse((await cli(['assistant', 'new', ...flags, '--json'], { dirs })).stdout).session.id as number;

test('assistant status names each connection, marks the default one and says what new conversations use', async () => {
  const { stdout } = await cli(['assistant', 'status']);
  assert.match(stdout, /^The assistant can run\.\nNew conversations use Claude Code CLI \(your subscription\) \[agent_cli agent_code\], the runtime default model, the runtime default effort/);
  assert.match(stdout, /^\* Claude Code CLI \(your subscription\) +agent_cli +agent_code +yes/m);
  assert.match(stdout, /^ {2}OpenAI +api_key +openai +yes/m);
  assert.match(stdout, /^ {2}Google Gemini +api_key +gemini +no +No Google Gemini key is stored/m);
  assert.match(stdout, /\* the default connection/);
  assert.not.match(stdout, new RegExp(KEY));
});

test('assistant show: the connection, each reply with its recorded tokens, cost and reported model, and the totals', async () => {
  const api = await newConversation(['--runtime', 'api_key', '--provider', 'openai', '--model', 'gpt-4o-mini', '--title', 'api']);
  await cli(['assistant', 'chat', String(api), '-m', 'hello']);
  const shown = (await cli(['assistant', 'show', String(api)])).stdout;
  assert.match(shown, /^# api \(\d+\)\nConnection: OpenAI \[api_key openai\], model gpt-4o-mini, effort not supported\nMessages: 2; 11 in \/ 7 out tokens; cost not recorded\n/);
  assert.match(shown, /\[assistant\] Hello from the fake\n {2}\(11 in \/ 7 out tokens; cost not recorded; model reported: served-model-1, served-model-2\)/);

  const agentChat = await newConversation(['--runtime', 'agent_cli', '--effort', 'low', '--title', 'agent']);
  await cli(['assistant', 'chat', String(agentChat), '-m', 'hi']);
  const agentShown = (await cli(['assistant', 'show', String(agentChat)])).stdout;
  assert.match(agentShown, /Connection: Claude Code CLI \(your subscription\) \[agent_cli agent_code\], the runtime default model, effort low/);
  assert.match(agentShown, /Messages: 2; 20 in \/ 6 out tokens; cost \$0\.0123 \(as recorded, not a bill\)/);
  assert.match(agentShown, /model reported: agent-reported-model/);
});

test('assistant chat with the service running: an API conversation is offered the corpus tools, the call is shown apart from the answer and recorded', async () => {
  const id = await newConversation(['--runtime', 'api_key', '--provider', 'anthropic', '--model', 'claude-x', '--title', 'tools']);
  const before = fake.seen.length;
  const r = await cli(['assistant', 'chat', String(id), '-m', 'what about ecology?']);
  const offered = fake.seen.slice(before).map((s) => (s.body?.tools ?? []).map((tool: { name: string }) => tool.name));
  assert.ok(offered[0]!.includes('search_corpus') && !offered[0]!.includes('run_sweep'), 'the read tools, no write tool');
  // The model is told the tools only read, so it suggests a command rather than claiming it ran a sweep.
  assert.match(String(fake.seen[before]!.body.system), /cannot change anything: .*`svc sweep`/);
  assert.is(r.stdout, 'Hello from the fake\nHello from the fake\n', 'the text before and after the tool round does not run together');
  assert.match(r.stderr, /\[tool search_corpus \{"query":"ecology"\}\]/);
  const json = JSON.parse((await cli(['assistant', 'chat', String(id), '-m', 'again', '--json'])).stdout);
  assert.equal(json.tool_calls, [{ name: 'search_corpus', input: { query: 'ecology' }, is_error: false }]);
  assert.is(json.text, 'Hello from the fake\nHello from the fake', 'the text of both rounds, on their own lines as printed');
  const shown = (await cli(['assistant', 'show', String(id)])).stdout;
  assert.match(shown, /\(called search_corpus \{"query":"ecology"\}\)\n\n\[tool\] search_corpus\n/);
});

test('assistant chat with no service running offers no tools (they could only fail)', async () => {
  const alone = tempDirs();
  try {
    const set = await runCliInProcess(['credentials', 'set', 'anthropic_api_key'], { env: env(alone), stdin: KEY });
    assert.is(set.code, 0, set.stderr);
    const id = await newConversation(['--runtime', 'api_key', '--provider', 'anthropic', '--model', 'claude-x'], alone);
    const before = fake.seen.length;
    const r = await cli(['assistant', 'chat', String(id), '-m', 'hi'], { dirs: alone });
    assert.is(r.stdout, 'Hello from the fake\n');
    assert.equal(fake.seen.slice(before).map((s) => s.body?.tools), [undefined]);
    assert.not.match(String(fake.seen[before]!.body.system), /tools/, 'no tools, no word of them');
  } finally {
    alone.cleanup();
  }
});

test('assistant chat runs an agent turn itself: the agent asks this process, and with nobody at a terminal it is refused at once with the reason', async () => {
  const { NO_TERMINAL_REASON } = await import('../commands/assistant/permission-prompt.js');
  const alone = tempDirs();
  try {
    // With the service running (read tools from it, permissions at the chat's own door) and with none (the door alone).
    for (const dirs of [t.dirs, alone]) {
      const id = await newConversation(['--runtime', 'agent_cli', '--title', 'relay'], dirs);
      const r = await cli(['assistant', 'chat', String(id), '-m', 'PERMIT please', '--json'], { dirs: dirs });
      const outcome = JSON.parse(r.stdout);
      assert.is(outcome.status, 'completed');
      assert.ok(outcome.text.endsWith(`refused Bash: ${NO_TERMINAL_REASON}`), outcome.text);
      assert.equal(outcome.permissions, [{ tool_name: 'Bash', allow: false, reason: NO_TERMINAL_REASON }]);
      // The door's token file goes with the turn; only a running server's stays.
      const tokens = fs.readdirSync((dirs).stateDir).filter((f) => f.startsWith('api-token-'));
      assert.equal(tokens, dirs === t.dirs ? [`api-token-${t.port}`] : []);
      const human = await cli(['assistant', 'chat', String(id), '-m', 'PERMIT again'], { dirs: dirs });
      assert.match(human.stderr, /\[refused Bash: Nobody could be asked/);
    }
  } finally {
    alone.cleanup();
  }
});

test('a permission request settled before the chat reaches it (the turn ended meanwhile) is not asked: no question waits for a person, none claims an answer that did not count', async () => {
  const { askPermission } = await import('../commands/assistant/permission-prompt.js');
  const { permissionBroker } = await import('../src/assistant/permissions.js');
  const id = await newConversation(['--runtime', 'agent_cli', '--title', 'late']);
  const broker = permissionBroker(t.ctx);
  const { requestId, held } = broker.open({ session_id: id, tool_name: 'Bash', tool_use_id: null, input: { command: 'ls' } });
  broker.denyAll(id, 'The turn ended before an answer.');
  assert.is((await held).allow, false);
  const io = { out: () => {}, write: () => {}, err: () => {}, readStdin: async () => '', stdoutIsTTY: true, stdinIsTTY: true, stderrIsTTY: true, env: {}, json: false };
  const shown: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => (shown.push(String(chunk)), true)) as typeof process.stderr.write;
  // Should a question open anyway, dismiss it after a while so the test ends.
  const dismiss = setTimeout(() => t.ctx.bus.emit('assistant.permission', { kind: 'answered', request_id: requestId, session_id: id }), 1500);
  let said: { allow: boolean; reason: string | null };
  try {
    said = await askPermission(t.ctx, io, { request_id: requestId, tool_name: 'Bash', input: { command: 'ls' } });
  } finally {
    clearTimeout(dismiss);
    process.stderr.write = write;
  }
  assert.not.ok(shown.join('').includes('Allow?'), 'no question is asked');
  assert.is(said.allow, false);
  assert.match(String(said.reason), /settled before it could be asked/);
});

test('a permission question shows the whole input the person allows, however long, with characters that could disguise it escaped', async () => {
  const { askPermission } = await import('../commands/assistant/permission-prompt.js');
  const { permissionBroker } = await import('../src/assistant/permissions.js');
  const id = await newConversation(['--runtime', 'agent_cli', '--title', 'long input']);
  const command = `echo ${'a'.repeat(400)}; rm -rf ~/papers \u202e# harmless`;
  const broker = permissionBroker(t.ctx);
  const { requestId } = broker.open({ session_id: id, tool_name: 'Bash', tool_use_id: null, input: { command } });
  const lines: string[] = [];
  const io = { out: () => {}, write: () => {}, err: (line: string) => void lines.push(line), readStdin: async () => '', stdoutIsTTY: true, stdinIsTTY: true, stderrIsTTY: true, env: {}, json: false };
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: unknown) => (lines.push(String(chunk)), true)) as typeof process.stderr.write;
  // The person does not answer here: the turn ends, which settles the request.
  const end = setTimeout(() => broker.denyAll(id, 'The turn ended before an answer.'), 500);
  try {
    await askPermission(t.ctx, io, { request_id: requestId, tool_name: 'Bash', input: { command } });
  } finally {
    clearTimeout(end);
    process.stderr.write = write;
  }
  const shown = lines.join('\n');
  assert.ok(shown.includes('rm -rf ~/papers'), 'the end of a long command is shown');
  assert.not.ok(shown.includes('\u202e'), 'no raw right-to-left override reaches the terminal');
  assert.ok(shown.includes('\\u202e'), 'it is shown escaped');
});

test('a refused key: the error says which credential to store again (never the key), and show marks the turn that got no reply', async () => {
  const dirs = tempDirs();
  try {
    const wrong = 'sk-wrong-key-for-this-test-0123';
    const set = await runCliInProcess(['credentials', 'set', 'openai_api_key'], { env: env(dirs), stdin: wrong });
    assert.is(set.code, 0, set.stderr);
    const id = await newConversation(['--runtime', 'api_key', '--provider', 'openai', '--model', 'gpt-4o-mini'], dirs);
    const r = await runCliInProcess(['assistant', 'chat', String(id), '-m', 'hi'], { env: env(dirs) });
    assert.is(r.code, 1);
    assert.match(r.stderr, /^svc: OpenAI refused the key: .*\. Store a working key with `svc credentials set openai_api_key` \(`svc credentials validate openai_api_key` checks it\), then send again\.$/m);
    assert.not.match(r.stderr, new RegExp(wrong));
    const shown = (await runCliInProcess(['assistant', 'show', String(id)], { env: env(dirs) })).stdout;
    assert.match(shown, /\[user\] hi\n {2}\(no reply was saved: the turn failed or was stopped before any answer\)/);
  } finally {
    dirs.cleanup();
  }
});

test('assistant list: the connection of each conversation, the command for the next page, and a sentence when nothing matches', async () => {
  const a = await newConversation(['--runtime', 'api_key', '--provider', 'openai', '--model', 'gpt-4o-mini', '--title', 'list-a']);
  const b = await newConversation(['--runtime', 'agent_cli', '--title', 'list-b']);
  const first = (await cli(['assistant', 'list', '--limit', '1', '--query', 'list-'])).stdout;
  assert.match(first, new RegExp(`^ID +TITLE +CONNECTION +MESSAGES +UPDATED\\n${b} +list-b +Claude Code CLI \\(your subscription\\) +0 `));
  assert.match(first, new RegExp(`\\n\\nMore: svc assistant list --before ${b} --limit 1 --query "list-"\\n$`));
  const second = (await cli(['assistant', 'list', '--before', String(b), '--limit', '1', '--query', 'list-'])).stdout;
  assert.match(second, new RegExp(`\\n${a} +list-a +OpenAI gpt-4o-mini +0 `));
  assert.not.match(second, /More:/, 'the last page has no next command');
  assert.is((await cli(['assistant', 'list', '--query', 'no-such-title'])).stdout, 'No conversation title contains "no-such-title".\n');
  // A page past the oldest conversation is the end of the list, not a corpus without conversations.
  assert.is((await cli(['assistant', 'list', '--before', String(a), '--query', 'list-'])).stdout, `No conversation title contains "list-" before ${a}.\n`);
  const pastEnd = (await cli(['assistant', 'list', '--before', '1'])).stdout;
  assert.is(pastEnd, 'No conversations before 1.\n');
});

test('a conversation from before connection choices: show and list say its connection was not recorded', async () => {
  const id = repo.insertSession(t.ctx.db, { title: 'legacy talk', runtime: 'agent_cli', model: 'old-model', at: t.ctx.nowIso() });
  const shown = (await cli(['assistant', 'show', String(id)])).stdout;
  assert.match(shown, /^# legacy talk \(\d+\)\nConnection: not recorded \(a conversation from before connection choices; runtime agent_cli, model old-model\)\nMessages: 0; tokens not recorded; cost not recorded/);
  const listed = (await cli(['assistant', 'list', '--query', 'legacy talk'])).stdout;
  assert.match(listed, new RegExp(`\\n${id} +legacy talk +agent_cli \\(before connection choices\\) +0 `));
});

test('svc chat creates a conversation with its first message: nothing to send, or a connection that cannot run here, leaves none behind', async () => {
  const dirs = tempDirs();
  const conversations = async () => JSON.parse((await cli(['chat', 'list', '--json'], { dirs })).stdout).sessions.length;
  try {
    const empty = await runCliInProcess(['chat'], { env: env(dirs), stdin: '\n' });
    assert.equal([empty.code, empty.stderr.trim()], [2, 'svc: Nothing to send: give --message or pipe text on stdin.']);
    const blank = await runCliInProcess(['chat', '-m', ' '], { env: env(dirs) });
    assert.is(blank.code, 2);
    const noKey = await runCliInProcess(['assistant', 'chat', '-m', 'hi', '--runtime', 'api_key', '--provider', 'anthropic', '--model', 'claude-x'], { env: env(dirs) });
    assert.equal([noKey.code, noKey.stderr.trim()], [1, 'svc: No Anthropic key is stored; add it with `svc credentials set anthropic_api_key`.']);
    const noAgent = await runCliInProcess(['chat', '-m', 'hi'], { env: { ...env(dirs), SVC_AGENT_CLI: path.join(dirs.root, 'no-such-agent'), PATH: dirs.root } });
    assert.is(noAgent.code, 1, noAgent.stderr);
    assert.match(noAgent.stderr, /^svc: The claude command was not found on PATH/);
    assert.is(await conversations(), 0, 'no empty conversation left behind');
    const left = await onPty(['chat'], env(dirs), [{ after: 'you> ', keys: '\u0004' }]);
    assert.is(left.code, 0, left.screen);
    assert.match(left.screen, /A new conversation, saved with its first message\./);
    assert.is(await conversations(), 0, 'a terminal chat left before its first message leaves none');
    const sent = await runCliInProcess(['chat', '-m', 'hi'], { env: env(dirs) });
    assert.is(sent.code, 0, sent.stderr);
    assert.is(await conversations(), 1, 'one conversation, with its message');
  } finally {
    dirs.cleanup();
  }
});

test('assistant new: wrong or missing choice flags are refused in terms of the flags, with the values that would do (exit 2, nothing created)', async () => {
  const refused: [string[], RegExp][] = [
    [['--runtime', 'api_key', '--provider', 'openai'], /^svc: An API connection needs --model: the OpenAI model id to ask for\.$/m],
    [['--runtime', 'api_key', '--model', 'm'], /^svc: An API connection needs --provider: one of openai, anthropic, gemini, mistral, groq, openrouter, deepseek, xai\.$/m],
    [['--runtime', 'api_key', '--provider', 'nope', '--model', 'm'], /--provider must be one of openai, .* for --runtime api_key, not "nope"/],
    [['--runtime', 'api_key', '--provider', 'openai', '--model', 'm', '--effort', 'high'], /--effort is for the agent CLI only/],
    [['--runtime', 'agent_cli', '--provider', 'openai'], /--runtime agent_cli takes --provider agent_code/],
    [['--runtime', 'agent_cli', '--effort', 'extreme'], /--effort must be one of low, medium, high, xhigh, max, not "extreme"/],
  ];
  const before = JSON.parse((await cli(['assistant', 'list', '--json'])).stdout).sessions.length;
  for (const [flags, message] of refused) {
    const r = await runCliInProcess(['assistant', 'new', ...flags], { env: env() });
    assert.is(r.code, 2, flags.join(' '));
    assert.match(r.stderr, message, flags.join(' '));
    assert.not.match(r.stderr, /choices\./, 'no HTTP body field names');
  }
  assert.is(JSON.parse((await cli(['assistant', 'list', '--json'])).stdout).sessions.length, before);
});

test.run();
