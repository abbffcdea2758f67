/**
 * The worker of one admitted turn: resolve nothing again (the lane was fixed
 * at admission), stream the lane, persist model reports as they come, and
 * save the reply. API lanes run a tool loop when a tool box is plugged in;
 * every tool call and its answer are saved as messages of the conversation.
 */
import { spawn as nodeSpawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { READ_TOOLS } from '../agent-tools/tool-catalog.js';
import { RELAY_PROMPT_TOOL, RELAY_SERVER, RELAY_SESSION_ENV } from '../agent-tools/relay-names.js';
import type { Context } from '../context.js';
import { isSvcError } from '../errors.js';
import { buildAgentArgs, EFFORT_THINKING_TOKENS, runAgentCli, type Spawner } from '../providers/agent-cli.js';
import { scrub, UpstreamError } from '../providers/errors.js';
import { streamChat } from '../providers/index.js';
import type { ApiProvider } from '../providers/provider-catalog.js';
import type { ProviderEvent, ToolCall, ToolResult, ToolSpec, Turn } from '../providers/types.js';
import { removeOwnedFile, writeOwnerOnlyFile } from '../util/owned-files.js';
import type { Choices } from './choices.js';
import type { FrameQueue } from './frames.js';
import type { TurnEvent, TurnStatus } from '../wire/assistant.js';
import type { ActiveTurn } from './registry.js';
import * as repo from './repo.js';

/** Tools the API lanes may call (svc's read tools, plugged in by the tool surface). */
export interface ToolBox {
  specs: ToolSpec[];
  run(call: ToolCall, signal: AbortSignal): Promise<{ output: unknown; isError: boolean }>;
}

export type Lane = { kind: 'api'; provider: ApiProvider; baseUrl: string; key: string } | { kind: 'cli'; binary: string };

export interface RunOptions {
  /** The serving port, named in the agent's MCP configuration (never the token). */
  serverPort?: number;
  /**
   * The port of the process that runs this turn and holds its permission
   * requests (the server itself, or the CLI's own door): the agent CLI's
   * permission prompt tool asks there. None: a tool not allowed up front is refused.
   */
  permissionPort?: number;
  /** Scrubbed from everything relayed. */
  token?: string;
  spawn?: Spawner;
  tools?: ToolBox;
}

export interface TurnJob {
  sessionId: number;
  userMessageId: number;
  turnId: number;
  choices: Choices;
  lane: Lane;
  text: string;
  nativeSessionId: string | null;
  active: ActiveTurn;
  frames: FrameQueue;
}

export const MAX_TOOL_ROUNDS = 8;
const SYSTEM = 'You are the research assistant inside svc, a local research-paper collector. Answer concisely and say when you are unsure.';
/**
 * Said when tools are offered: they only read, so the model must not claim to
 * have run a sweep or changed a routine; it suggests the command instead.
 */
export const SYSTEM_WITH_TOOLS = `${SYSTEM} The tools read the person's local svc corpus, runs, routines and watch profiles; use them rather than guessing what is collected, and cite papers by title and DOI. They cannot change anything: to run a sweep, create or run a routine, or change settings, say which svc command the person can run (for example \`svc sweep\` or \`svc routine add\`).`;

/** Saved text of the conversation as the provider should see it (tool rounds included). */
function history(ctx: Context, sessionId: number): Turn[] {
  const turns: Turn[] = [];
  for (const m of repo.messagesOf(ctx.db, sessionId)) {
    if (m.role === 'tool') {
      const results = parseJson<ToolResult[]>(m.tool_results_json);
      if (results) turns.push({ role: 'tool', results });
    } else if (m.role === 'assistant' && m.tool_calls_json) {
      const calls = parseJson<ToolCall[]>(m.tool_calls_json);
      turns.push(calls ? { role: 'assistant', content: m.content, toolCalls: calls } : { role: 'assistant', content: m.content });
    } else turns.push({ role: m.role, content: m.content });
  }
  return turns;
}

function parseJson<T>(raw: string | null): T | undefined {
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** The MCP server's name in the agent's configuration; the agent calls its tools mcp__svc__<tool>. */
const MCP_SERVER = 'svc';

/**
 * The read tools of svc's tool surface, allowed to the agent up front: in
 * print mode the agent cannot ask the person, so a tool not allowed is
 * refused and the corpus would stay out of reach. Writes stay unallowed (they
 * need a person's confirmation, which a chat turn does not ask for).
 */
export const AGENT_ALLOWED_TOOLS: readonly string[] = READ_TOOLS.map((name) => `mcp__${MCP_SERVER}__${name}`);

/**
 * The agent's MCP configuration for one turn: svc's tool surface (when a
 * service runs) and the permission relay of this conversation. Names ports,
 * the state directory and the conversation id, never the token. One file per
 * conversation (two conversations' turns may run at once), removed when the turn ends.
 */
function mcpConfig(ctx: Context, sessionId: number, serverPort: number | undefined, permissionPort: number | undefined): string {
  const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'svc.js');
  const file = path.join(ctx.paths.stateDir, `assistant-mcp-${serverPort ?? permissionPort}-${sessionId}.json`);
  const servers: Record<string, unknown> = {};
  if (serverPort) servers[MCP_SERVER] = { command: process.execPath, args: [bin, 'mcp', '--port', String(serverPort), '--state-dir', ctx.paths.stateDir] };
  if (permissionPort) {
    servers[RELAY_SERVER] = {
      command: process.execPath,
      args: [bin, 'mcp', '--permission-relay', '--port', String(permissionPort), '--state-dir', ctx.paths.stateDir],
      env: { [RELAY_SESSION_ENV]: String(sessionId) },
    };
  }
  writeOwnerOnlyFile(file, JSON.stringify({ mcpServers: servers }, null, 2) + '\n');
  return file;
}

function laneEvents(ctx: Context, job: TurnJob, turns: Turn[], options: RunOptions): AsyncGenerator<ProviderEvent> {
  const signal = job.active.controller.signal;
  if (job.lane.kind === 'api') {
    return streamChat(
      job.lane.provider.family,
      { baseUrl: job.lane.baseUrl, key: job.lane.key, model: job.choices.model!, system: options.tools ? SYSTEM_WITH_TOOLS : SYSTEM, messages: turns, tools: options.tools?.specs, signal, fetch: ctx.fetch, maxOutputTokens: Number(ctx.settings.read('ai').max_output_tokens) || undefined },
      job.lane.provider.label,
    );
  }
  const env: Record<string, string | undefined> = { PATH: ctx.config.ai.searchPath, HOME: ctx.config.osDirs.home, SVC_STATE_DIR: ctx.paths.stateDir };
  if (options.serverPort) env.SVC_PORT = String(options.serverPort);
  if (job.choices.effort) env.MAX_THINKING_TOKENS = String(EFFORT_THINKING_TOKENS[job.choices.effort]);
  const configPath = options.serverPort || options.permissionPort ? mcpConfig(ctx, job.sessionId, options.serverPort, options.permissionPort) : null;
  return withCleanup(runAgentCli({
    binary: job.lane.binary,
    args: buildAgentArgs({
      model: job.choices.model,
      resume: job.nativeSessionId,
      mcpConfigPath: configPath,
      // Tools not allowed up front are asked of the person through the relay (print mode cannot ask itself).
      permissionTool: options.permissionPort ? RELAY_PROMPT_TOOL : null,
      allowedTools: options.serverPort ? AGENT_ALLOWED_TOOLS : [],
    }),
    prompt: job.text,
    env,
    cwd: ctx.paths.dataDir,
    spawn: options.spawn ?? nodeSpawn,
    signal,
    secrets: [options.token],
    onProcess: (pid) => (job.active.cliPid = pid ?? null),
  }), () => configPath && removeOwnedFile(configPath));
}

async function* withCleanup<T>(events: AsyncGenerator<T>, cleanup: () => unknown): AsyncGenerator<T> {
  try {
    yield* events;
  } finally {
    cleanup();
  }
}

/**
 * What the person can do about a provider's refusal: the conversation is bound
 * to its key's credential and to its model, so the sentence names the
 * credential to store again, or says a model change means a new conversation.
 */
function remedy(err: unknown, job: TurnJob): string {
  if (!(err instanceof UpstreamError) || job.lane.kind !== 'api') return '';
  const credential = job.lane.provider.credential;
  if (err.kind === 'unauthorized') return ` Store a working key with \`svc credentials set ${credential}\` (\`svc credentials validate ${credential}\` checks it), then send again.`;
  if (err.kind === 'not_found') return ` If the model "${job.choices.model}" is not one this provider serves, start a new conversation with another --model (a conversation keeps its model).`;
  if (err.kind === 'rate_limited') return ' Wait a moment and send again.';
  return '';
}

/** Run the turn to its end; never throws (failures become an error frame). */
export async function runTurn(ctx: Context, job: TurnJob, options: RunOptions): Promise<void> {
  const secrets = [options.token, job.lane.kind === 'api' ? job.lane.key : undefined];
  const base = { session_id: job.sessionId, user_message_id: job.userMessageId };
  const push = (frame: TurnEvent) => job.frames.push(frame);
  let text = '';
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let cost: number | null = null;
  const add = (a: number | null, b: number | null | undefined) => (b == null ? a : (a ?? 0) + b);
  let status: TurnStatus = 'completed';
  try {
    const turns = history(ctx, job.sessionId);
    for (let round = 0; ; round++) {
      const calls: ToolCall[] = [];
      let roundIn: number | null = null;
      let roundOut: number | null = null;
      for await (const e of laneEvents(ctx, job, turns, options)) {
        if (e.type === 'text') {
          const safe = scrub(e.text, secrets);
          text += safe;
          push({ event: 'text', data: { ...base, delta: safe } });
        } else if (e.type === 'model') {
          const at = ctx.nowIso();
          const sequence = repo.insertReport(ctx.db, job.turnId, e.model, e.source, at);
          push({ event: 'turn_model_report', data: { ...base, sequence, model: e.model, source: e.source, observed_at_utc: at } });
        } else if (e.type === 'usage') {
          roundIn = e.inputTokens ?? roundIn;
          roundOut = e.outputTokens ?? roundOut;
          cost = add(cost, e.costUsd);
        } else if (e.type === 'native_session') {
          repo.setNativeSession(ctx.db, job.sessionId, e.id);
        } else if (e.type === 'tool_call') calls.push(e.call);
      }
      inputTokens = add(inputTokens, roundIn);
      outputTokens = add(outputTokens, roundOut);
      if (job.active.controller.signal.aborted) break;
      if (!calls.length || !options.tools || round >= MAX_TOOL_ROUNDS) break;
      const at = ctx.nowIso();
      const callText = text;
      turns.push({ role: 'assistant', content: text, toolCalls: calls });
      text = '';
      const results: ToolResult[] = [];
      for (const call of calls) {
        push({ event: 'tool_call', data: { ...base, id: call.id, name: call.name, input: call.input } });
        let result: ToolResult;
        try {
          const r = await options.tools.run(call, job.active.controller.signal);
          result = { callId: call.id, name: call.name, output: JSON.parse(scrub(JSON.stringify(r.output ?? null), secrets)), isError: r.isError };
        } catch (err) {
          result = { callId: call.id, name: call.name, output: { error: scrub(err instanceof Error ? err.message : String(err), secrets) }, isError: true };
        }
        results.push(result);
        push({ event: 'tool_result', data: { ...base, id: call.id, name: call.name, output: result.output, is_error: result.isError } });
      }
      // The calls and their answers are saved together: a saved call with no saved answer would make
      // every later turn of the session send the provider a tool call it refuses to see unanswered.
      ctx.db.transaction(() => {
        repo.insertMessage(ctx.db, { session_id: job.sessionId, role: 'assistant', content: callText, at, tool_calls_json: JSON.stringify(calls) });
        repo.insertMessage(ctx.db, { session_id: job.sessionId, role: 'tool', content: '', at: ctx.nowIso(), tool_results_json: JSON.stringify(results) });
      })();
      turns.push({ role: 'tool', results });
    }
    if (job.active.controller.signal.aborted) status = 'cancelled';
  } catch (err) {
    if (job.active.controller.signal.aborted) status = 'cancelled';
    else {
      status = 'failed';
      const reason = isSvcError(err) ? err.reason : 'internal_error';
      const hint = remedy(err, job);
      const said = isSvcError(err) ? (hint ? `${err.message.replace(/[.\s]*$/, '.')}${hint}` : err.message) : 'The turn failed unexpectedly.';
      const message = scrub(said, secrets);
      if (!isSvcError(err)) ctx.log.error('assistant turn failed', { session_id: job.sessionId, error: scrub(String(err), secrets) });
      push({ event: 'error', data: { ...base, reason, message } });
    }
  }
  try {
    if (text !== '' || status === 'completed') {
      // The reply and its turn's link together: a reply the turn does not name is not saved at all.
      const id = ctx.db.transaction(() => {
        const messageId = repo.insertMessage(ctx.db, { session_id: job.sessionId, role: 'assistant', content: text, at: ctx.nowIso(), input_tokens: inputTokens, output_tokens: outputTokens, cost_usd: cost });
        repo.linkTurnReply(ctx.db, job.turnId, messageId);
        return messageId;
      })();
      push({ event: 'message', data: { ...base, assistant_message_id: id, content: text, input_tokens: inputTokens, output_tokens: outputTokens, cost_usd: cost } });
    }
  } catch (err) {
    ctx.log.warn('assistant reply not saved', { session_id: job.sessionId, error: scrub(String(err), secrets) });
  }
  push({ event: 'done', data: { ...base, status } });
}

/**
 * Where the tool surface plugs its read tools into the assistant: call
 * `provideAssistantTools(ctx, box)` once per process; API turns then offer
 * those tools and record each call and answer in the conversation.
 */
export function provideAssistantTools(ctx: Context, box: ToolBox | undefined): void {
  ctx.service('assistant.tools', () => ({ box: undefined as ToolBox | undefined })).box = box;
}

export function assistantTools(ctx: Context): ToolBox | undefined {
  return ctx.service('assistant.tools', () => ({ box: undefined as ToolBox | undefined })).box;
}
