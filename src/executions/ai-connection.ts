/**
 * Where a run's AI summary is asked: the ai settings group (provider, model,
 * base_url, summaries_enabled) resolved through the same connection code the
 * assistant and the selected answers use (assistant/connections.ts: stored
 * credential, SVC_AI_<ID>_URL or ai.base_url, the agent CLI on PATH), and one
 * bounded request through the provider layer: an API family's stream, or the
 * agent CLI isolated as the answers lane runs it (no tools, no MCP servers,
 * no settings, a fresh session, the prompt on stdin).
 */
import { spawn as nodeSpawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { modelProblem } from '../providers/model-name.js';
import { apiAvailability, apiBaseUrl, cliAvailability, cliBinary } from '../assistant/connections.js';
import { cliArgs } from '../answers/runtime-cli.js';
import { runAgentCli, streamChat, type ProviderEvent, type Spawner } from '../providers/index.js';
import { API_PROVIDERS, findApiProvider, findCliProvider, type ApiProvider, type CliProvider } from '../providers/provider-catalog.js';
import type { ReasonCode } from './ai-lane.js';

export type SummaryConnection =
  | { kind: 'api'; provider: ApiProvider; baseUrl: string; key: string; model: string; maxOutputTokens: number }
  | { kind: 'cli'; cli: CliProvider; binary: string; model: string | null; maxOutputTokens: number };

export type Resolution = { ok: true; connection: SummaryConnection } | { ok: false; code: ReasonCode; reason: string };

const fail = (code: ReasonCode, reason: string): Resolution => ({ ok: false, code, reason });
const PROVIDER_WORDS = `${API_PROVIDERS.map((p) => p.id).join(', ')}, or agent_code for the Claude Code CLI`;

/** The settings' bound on output; a run may ask for less, never more. */
export function outputTokens(ctx: Context, asked: number | undefined): number {
  const bound = Number(ctx.settings.read('ai').max_output_tokens) || 1024;
  return asked === undefined ? bound : Math.max(64, Math.min(asked, bound));
}

/**
 * The connection the ai settings name, or why there is none, saying what to do.
 * @example const r = resolveSummaryConnection(ctx, { model: 'gpt-4o-mini' }); if (!r.ok) lane.reason = r.reason;
 */
export function resolveSummaryConnection(ctx: Context, asked: { model?: string; max_output_tokens?: number }): Resolution {
  const ai = ctx.settings.read('ai');
  if (ai.summaries_enabled !== true) return fail('summaries_off', 'AI summaries are off in the settings; turn them on with `svc settings set ai summaries_enabled true`.');
  const id = typeof ai.provider === 'string' ? ai.provider : 'none';
  if (id === 'none' || id === '') return fail('provider_none', `No AI provider is chosen (ai.provider is none); choose one with \`svc settings set ai provider <id>\` (${PROVIDER_WORDS}).`);
  const settingsModel = typeof ai.model === 'string' && ai.model !== '' && !modelProblem(ai.model) ? ai.model : null;
  const maxOutputTokens = outputTokens(ctx, asked.max_output_tokens);
  const api = findApiProvider(id);
  if (api) {
    const availability = apiAvailability(ctx, api);
    const key = availability.available ? ctx.credentials.reveal(api.credential) : undefined;
    if (!key) return fail('missing_credential', availability.reason ?? `No ${api.label} key is stored; add it with \`svc credentials set ${api.credential}\`.`);
    ctx.log.addSecret(key);
    let baseUrl: string;
    try {
      baseUrl = apiBaseUrl(ctx, api);
    } catch (err) {
      if (err instanceof SvcError) return fail('endpoint_invalid', err.message);
      throw err;
    }
    return { ok: true, connection: { kind: 'api', provider: api, baseUrl, key, model: asked.model ?? settingsModel ?? api.defaultModel, maxOutputTokens } };
  }
  const cli = findCliProvider(id);
  if (cli) {
    const availability = cliAvailability(ctx, cli);
    const binary = availability.available ? cliBinary(ctx, cli) : null;
    if (!binary) return fail('provider_unavailable', availability.reason ?? `The ${cli.label} cannot run here.`);
    return { ok: true, connection: { kind: 'cli', cli, binary, model: asked.model ?? settingsModel, maxOutputTokens } };
  }
  return fail('provider_unknown', `ai.provider "${id.slice(0, 64)}" is not a provider svc offers; choose one with \`svc settings set ai provider <id>\` (${PROVIDER_WORDS}).`);
}

export interface ModelAnswer {
  text: string;
  truncated: boolean;
  reportedModel: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface AskInput {
  system: string;
  user: string;
  signal: AbortSignal;
  /** Text kept at most; reading stops there. */
  maxChars: number;
  spawn?: Spawner;
}

function events(ctx: Context, c: SummaryConnection, input: AskInput, home: string | null): AsyncGenerator<ProviderEvent> {
  if (c.kind === 'api') {
    return streamChat(
      c.provider.family,
      { baseUrl: c.baseUrl, key: c.key, model: c.model, system: input.system, messages: [{ role: 'user', content: input.user }], maxOutputTokens: c.maxOutputTokens, signal: input.signal, fetch: ctx.fetch },
      c.provider.label,
    );
  }
  const cwd = path.join(home!, 'work');
  const systemFile = path.join(home!, 'system.txt');
  const mcpFile = path.join(home!, 'mcp.json');
  return runAgentCli({
    binary: c.binary,
    args: cliArgs(ctx.random.uuid(), systemFile, mcpFile, c.model),
    prompt: input.user,
    env: { PATH: ctx.config.ai.searchPath, HOME: ctx.config.osDirs.home },
    cwd,
    spawn: input.spawn ?? nodeSpawn,
    signal: input.signal,
    secrets: [],
  });
}

/** An empty owned folder for the agent CLI: its working directory, the system prompt and an empty MCP configuration. */
function agentHome(system: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-summary-'));
  try {
    fs.mkdirSync(path.join(home, 'work'), { mode: 0o700 });
    fs.writeFileSync(path.join(home, 'system.txt'), system, { mode: 0o600, flag: 'wx' });
    fs.writeFileSync(path.join(home, 'mcp.json'), '{"mcpServers":{}}', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // A prompt file that cannot be written (a full disk, a quota) leaves no folder behind.
    fs.rmSync(home, { recursive: true, force: true });
    throw err;
  }
  return home;
}

/** One request; throws the provider's (scrubbed) UpstreamError, or the abort when the signal fires. */
export async function askModel(ctx: Context, c: SummaryConnection, input: AskInput): Promise<ModelAnswer> {
  const home = c.kind === 'cli' ? agentHome(input.system) : null;
  const answer: ModelAnswer = { text: '', truncated: false, reportedModel: null, inputTokens: null, outputTokens: null };
  try {
    for await (const e of events(ctx, c, input, home)) {
      if (e.type === 'text') {
        answer.text += e.text;
        if (answer.text.length > input.maxChars) {
          answer.truncated = true;
          break;
        }
      } else if (e.type === 'model') answer.reportedModel = e.model;
      else if (e.type === 'usage') {
        answer.inputTokens = e.inputTokens ?? answer.inputTokens;
        answer.outputTokens = e.outputTokens ?? answer.outputTokens;
      }
    }
    // A stream cut by the signal ends like a finished one: the signal says which it was.
    if (input.signal.aborted) throw input.signal.reason ?? new Error('aborted');
    return answer;
  } finally {
    if (home) fs.rmSync(home, { recursive: true, force: true });
  }
}
