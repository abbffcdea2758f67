/**
 * The CLI lane: the agent CLI in print mode with stream-json output, given a
 * fresh native session UUID, an empty owned working directory, no tools, an
 * empty strict MCP configuration, no settings sources, no slash commands,
 * no resume, and the system asset in a separate file; the user prompt goes
 * on stdin. Its startup must report exactly that UUID and empty tool and MCP
 * lists. Lines, stdout and stderr are bounded; a broken bound fails the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../context.js';
import { cliBinary } from '../assistant/connections.js';
import { EFFORT_THINKING_TOKENS } from '../providers/agent-cli.js';
import { validModel } from '../providers/http.js';
import { findCliProvider } from '../providers/provider-catalog.js';
import { jsonLines } from '../providers/json-lines.js';
import { LaneError, type Lane, type LaneEvent } from './lane.js';

export function cliRoute(ctx: Context, provider: string): { binary: string } {
  const cli = findCliProvider(provider);
  const binary = cli?.implemented ? cliBinary(ctx, cli) : null;
  if (!binary) throw new LaneError('connection_unavailable', 'The agent CLI is not available here.');
  return { binary };
}

export function cliArgs(sessionId: string, systemFile: string, mcpFile: string, model: string | null): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--session-id', sessionId, '--system-prompt-file', systemFile];
  args.push('--tools', '', '--strict-mcp-config', '--mcp-config', mcpFile, '--setting-sources', '', '--disable-slash-commands');
  if (model) args.push('--model', model);
  return args;
}

const isEmptyList = (v: unknown) => Array.isArray(v) && v.length === 0;

export function cliLane(route: { binary: string }): Lane {
  return async function* (job): AsyncGenerator<LaneEvent> {
    const { limits, ctx } = job;
    const sessionId = ctx.random.uuid();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-answer-'));
    // From here on the folder goes however the lane ends: a prompt file that cannot be written (a
    // full disk, a quota) or a spawn that throws must not leave the system prompt behind.
    try {
      const cwd = path.join(home, 'work');
      fs.mkdirSync(cwd, { mode: 0o700 });
      const systemFile = path.join(home, 'system.txt');
      const mcpFile = path.join(home, 'mcp.json');
      fs.writeFileSync(systemFile, job.system, { mode: 0o600, flag: 'wx' });
      fs.writeFileSync(mcpFile, '{"mcpServers":{}}', { mode: 0o600, flag: 'wx' });
      const env: Record<string, string | undefined> = { PATH: ctx.config.ai.searchPath, HOME: ctx.config.osDirs.home };
      if (job.payload.choices.effort) env.MAX_THINKING_TOKENS = String(EFFORT_THINKING_TOKENS[job.payload.choices.effort]);
      const child = job.spawn(route.binary, cliArgs(sessionId, systemFile, mcpFile, job.payload.choices.model), { cwd, env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
        child.once('error', (error) => resolve({ code: null, error }));
        child.once('close', (code) => resolve({ code }));
      });
      let failure: LaneError | null = null;
      const fail = (e: LaneError) => {
        failure ??= e;
        child.kill('SIGKILL');
      };
      let stderrBytes = 0;
      child.stderr?.on('data', (d: Buffer) => {
        stderrBytes += d.length;
        if (stderrBytes > limits.cliStderrBytes) fail(new LaneError('stderr_limit', `The agent CLI wrote more than ${limits.cliStderrBytes} bytes to stderr.`));
      });
      const onAbort = () => child.kill('SIGKILL');
      job.signal.addEventListener('abort', onAbort, { once: true });
      child.stdin?.on('error', () => {});
      child.stdin?.end(job.user);
      let started = false;
      let result: Record<string, any> | undefined;
      try {
        const lines = jsonLines(child.stdout! as AsyncIterable<Buffer>, {
          maxLineBytes: limits.cliLineBytes,
          maxBytes: limits.cliStdoutBytes,
          tooLarge: (what) =>
            what === 'line'
              ? new LaneError('line_limit', `A line of the agent CLI exceeds ${limits.cliLineBytes} bytes.`)
              : new LaneError('stdout_limit', `The agent CLI wrote more than ${limits.cliStdoutBytes} bytes.`),
          notJson: () => new LaneError('protocol_violation', 'The agent CLI wrote a line that is not JSON.'),
        });
        for await (const line of lines) {
          const msg = line as Record<string, any> | null;
          if (msg?.type === 'system' && msg.subtype === 'init') {
            if (msg.session_id !== sessionId || !isEmptyList(msg.tools) || !isEmptyList(msg.mcp_servers)) {
              throw new LaneError('startup_mismatch', 'The agent CLI did not start with the fresh session id and empty tool and MCP lists.');
            }
            started = true;
            yield { type: 'native_session', id: sessionId };
            yield { type: 'progress', stage: 'runtime_started' };
            if (validModel(msg.model)) yield { type: 'model', model: msg.model, source: 'agent_system_init_model' };
          } else if (!started) {
            throw new LaneError('startup_mismatch', 'The agent CLI did not report its startup first.');
          } else if (msg?.type === 'assistant') {
            for (const block of Array.isArray(msg.message?.content) ? msg.message.content : []) {
              if (block?.type === 'tool_use') throw new LaneError('protocol_violation', 'The agent asked for a tool; none was offered.');
              if (block?.type === 'text' && typeof block.text === 'string') yield { type: 'text', text: block.text };
            }
          } else if (msg?.type === 'result') {
            result = msg;
          }
        }
        const { code, error } = await exited;
        if (failure) throw failure;
        if (job.signal.aborted) return;
        if (error) throw new LaneError('runtime_unavailable', 'The agent CLI could not be started.');
        if (!result || result.is_error || result.subtype !== 'success' || code !== 0) {
          throw new LaneError('runtime_failed', `The agent CLI did not complete${code ? ` (exit ${code})` : ''}.`);
        }
        const usage = result.usage ?? {};
        const n = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);
        yield { type: 'usage', inputTokens: n(usage.input_tokens), outputTokens: n(usage.output_tokens), source: 'agent_result_usage' };
        yield { type: 'done', stopReason: 'success' };
      } catch (err) {
        throw failure ?? err;
      } finally {
        job.signal.removeEventListener('abort', onAbort);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  };
}
