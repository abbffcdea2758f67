/**
 * The agent CLI lane: a local coding-agent CLI (Claude Code's print mode and
 * its stream-json output) run as a child process with a passed-in spawner.
 * The prompt goes on stdin, never argv; the MCP configuration file it is given
 * names the port and state directory, never the token.
 */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { scrub, UpstreamError } from './errors.js';
import { validModel } from './http.js';
import { jsonLines } from './json-lines.js';
import type { ProviderEvent } from './types.js';

/** Bounds on what the agent writes: generous (tool results can be whole files), but never unbounded in memory. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

export type Spawner = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/** Effort words mapped to the agent's thinking budget (its MAX_THINKING_TOKENS variable). */
export const EFFORT_THINKING_TOKENS: Record<string, number> = { low: 4000, medium: 10000, high: 20000, xhigh: 32000, max: 63999 };

export interface AgentArgsInput {
  model: string | null;
  /** The agent's own session id of this conversation, to continue it. */
  resume: string | null;
  mcpConfigPath: string | null;
  /** The MCP tool the agent asks before acting (svc's permission relay). */
  permissionTool?: string | null;
  /** Tools the agent may use without asking (print mode cannot ask, so any other tool is refused). */
  allowedTools?: readonly string[];
}

export function buildAgentArgs(input: AgentArgsInput): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  if (input.model) args.push('--model', input.model);
  if (input.resume) args.push('--resume', input.resume);
  if (input.mcpConfigPath) args.push('--mcp-config', input.mcpConfigPath);
  if (input.permissionTool) args.push('--permission-prompt-tool', input.permissionTool);
  // One comma-separated value: a list of separate values would be a variadic option that swallows what follows.
  if (input.allowedTools?.length) args.push('--allowedTools', input.allowedTools.join(','));
  return args;
}

export interface AgentRunInput {
  binary: string;
  args: string[];
  prompt: string;
  /** The child's whole environment (callers leave the API token out). */
  env: Record<string, string | undefined>;
  cwd?: string;
  spawn: Spawner;
  signal?: AbortSignal;
  /** Strings scrubbed from anything relayed (the API token, keys). */
  secrets: readonly (string | undefined)[];
  /** Told the child's pid once it runs (the "running" observation). */
  onProcess?: (pid: number | undefined) => void;
  killGraceMs?: number;
}

/** Run one turn of the agent and stream what it reports. */
export async function* runAgentCli(input: AgentRunInput): AsyncGenerator<ProviderEvent> {
  const child = input.spawn(input.binary, input.args, { cwd: input.cwd, env: input.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  input.onProcess?.(child.pid);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), input.killGraceMs ?? 2000);
    killTimer.unref();
  };
  if (input.signal?.aborted) stop();
  input.signal?.addEventListener('abort', stop, { once: true });
  child.stdin?.on('error', () => {});
  child.stdin?.end(input.prompt);

  let result: Record<string, any> | undefined;
  try {
    const lines = jsonLines(child.stdout! as AsyncIterable<Buffer>, {
      maxLineBytes: MAX_LINE_BYTES,
      maxBytes: MAX_OUTPUT_BYTES,
      tooLarge: (what) => new UpstreamError('malformed', null, `The agent CLI wrote ${what === 'line' ? 'a line' : 'output'} over ${(what === 'line' ? MAX_LINE_BYTES : MAX_OUTPUT_BYTES) / 1024 / 1024} MiB.`),
    });
    for await (const line of lines) {
      const msg = line as Record<string, any> | null;
      if (!msg || typeof msg !== 'object') continue;
      if (msg.type === 'system' && msg.subtype === 'init') {
        if (typeof msg.session_id === 'string' && msg.session_id) yield { type: 'native_session', id: msg.session_id };
        if (validModel(msg.model)) yield { type: 'model', model: msg.model, source: 'agent_system_init_model' };
      } else if (msg.type === 'assistant') {
        for (const block of Array.isArray(msg.message?.content) ? msg.message.content : []) {
          if (block?.type === 'text' && typeof block.text === 'string') yield { type: 'text', text: scrub(block.text, input.secrets) };
        }
      } else if (msg.type === 'result') {
        result = msg;
      }
    }
    const { code, error } = await exited;
    if (input.signal?.aborted) return;
    if (error) throw new UpstreamError('unreachable', null, `The agent CLI could not be started: ${scrub(error.message, input.secrets).slice(0, 200)}`);
    if (result?.is_error || (!result && code !== 0)) {
      const said = typeof result?.result === 'string' ? result.result : stderr.trim().split('\n').slice(-3).join(' ');
      throw new UpstreamError('server_error', null, `The agent CLI failed${code ? ` (exit ${code})` : ''}: ${scrub(said, input.secrets).slice(0, 300) || 'no message'}`);
    }
    const usage = result?.usage ?? {};
    yield {
      type: 'usage',
      inputTokens: typeof usage.input_tokens === 'number' ? usage.input_tokens : null,
      outputTokens: typeof usage.output_tokens === 'number' ? usage.output_tokens : null,
      costUsd: typeof result?.total_cost_usd === 'number' ? result.total_cost_usd : null,
    };
    yield { type: 'done', stopReason: typeof result?.subtype === 'string' ? result.subtype : null };
  } finally {
    input.signal?.removeEventListener('abort', stop);
    if (child.exitCode === null && child.signalCode === null) stop();
    await exited;
    if (killTimer) clearTimeout(killTimer);
  }
}
