/**
 * Where each connection is reached (its locator), whether it can run here
 * (local prerequisites only, never authentication), and the status descriptor.
 * Locators and credentials stay in this module: the descriptor carries
 * neither, and sessions keep only a digest of the locator.
 */
import { createHash } from 'node:crypto';
import { usableEndpoint } from '../settings/check.js';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { AGENT_ALIASES, AGENT_EFFORTS, API_PROVIDERS, CLI_PROVIDERS, findApiProvider, type ApiProvider, type CliProvider } from '../providers/provider-catalog.js';
import { defaultChoices, type Choices } from './choices.js';
import type { AssistantStatus, Connection } from '../wire/assistant.js';
import type { CliStatus } from '../wire/settings.js';

/** The first executable called `name` on the search path. */
export function findOnPath(name: string, searchPath: string | undefined): string | null {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not here
    }
  }
  return null;
}

export function cliBinary(ctx: Context, cli: CliProvider): string | null {
  if (cli.id === 'agent_code' && ctx.config.ai.agentCli) {
    try {
      fs.accessSync(ctx.config.ai.agentCli, fs.constants.X_OK);
      return ctx.config.ai.agentCli;
    } catch {
      return null;
    }
  }
  return findOnPath(cli.binary, ctx.config.ai.searchPath);
}

/** Where `provider` is reached as configured: SVC_AI_<ID>_URL, then ai.base_url when ai.provider names it, then the provider's own. */
function configuredBaseUrl(ctx: Context, provider: ApiProvider): { url: string; setting: boolean } {
  const override = ctx.config.ai.urls[provider.id];
  if (override) return { url: override, setting: false };
  const ai = ctx.settings.read('ai');
  if (ai.provider === provider.id && typeof ai.base_url === 'string' && ai.base_url !== '') return { url: ai.base_url, setting: true };
  return { url: provider.baseUrl, setting: false };
}

/** The base URL svc sends to for `provider`; an ai.base_url that is not an http(s) URL is refused, never replaced by the provider's own. */
export function apiBaseUrl(ctx: Context, provider: ApiProvider): string {
  const { url, setting } = configuredBaseUrl(ctx, provider);
  return setting ? usableEndpoint('ai', 'base_url', url) : url;
}

/** A digest of where a connection is reached; a bound conversation refuses to send once it changes. */
export function routeDigest(ctx: Context, runtime: Choices['runtime'], provider: string): string {
  let locator: string;
  if (runtime === 'api_key') {
    const p = findApiProvider(provider);
    locator = p ? configuredBaseUrl(ctx, p).url : '';
  } else {
    locator = ctx.config.ai.agentCli ? `path:${ctx.config.ai.agentCli}` : 'search:claude';
  }
  return createHash('sha256').update(`${runtime}\0${provider}\0${locator}`).digest('hex');
}

export interface Availability {
  available: boolean;
  reason: string | null;
}

export function apiAvailability(ctx: Context, provider: ApiProvider): Availability {
  const status = ctx.credentials.status(provider.credential);
  if (status === 'present') return { available: true, reason: null };
  if (status === 'unreadable') return { available: false, reason: `The stored ${provider.credential} cannot be read; store it again with \`svc credentials set ${provider.credential}\`.` };
  return { available: false, reason: `No ${provider.label} key is stored; add it with \`svc credentials set ${provider.credential}\`.` };
}

export function cliAvailability(ctx: Context, cli: CliProvider): Availability {
  if (!cli.implemented) return { available: false, reason: `svc has no adapter for the ${cli.label} yet.` };
  if (cliBinary(ctx, cli)) return { available: true, reason: null };
  return { available: false, reason: `The ${cli.binary} command was not found on PATH; install it or set SVC_AGENT_CLI to its path.` };
}

export function availabilityOf(ctx: Context, runtime: Choices['runtime'], provider: string): Availability {
  if (runtime === 'api_key') {
    const p = findApiProvider(provider);
    return p ? apiAvailability(ctx, p) : { available: false, reason: `${provider} is not an offered provider.` };
  }
  const cli = CLI_PROVIDERS.find((c) => c.id === provider);
  return cli ? cliAvailability(ctx, cli) : { available: false, reason: `${provider} is not an offered agent.` };
}

export const LIMITATIONS = [
  'Availability checks local prerequisites (an installed CLI, a stored key), not whether the provider accepts the key.',
  'Aliases and efforts are suggestions; the agent CLI decides what it runs.',
  'Reported models are what a response claimed, not proof of execution or billing.',
  'A bound conversation keeps its connection, model and effort; changing them starts a new conversation.',
  'Effort is supported by the agent CLI runtime only.',
];

/** GET /api/assistant/status. */
export function assistantStatus(ctx: Context): AssistantStatus {
  const connections: Connection[] = [
    ...CLI_PROVIDERS.filter((c) => c.implemented).map((c) => cliRow(ctx, c)),
    ...API_PROVIDERS.map((p): Connection => ({
      runtime: 'api_key',
      provider: p.id,
      label: p.label,
      implemented: true,
      ...apiAvailability(ctx, p),
      effort_support: { supported: false, values: [] as string[] },
      request_family: p.family,
    })),
    ...CLI_PROVIDERS.filter((c) => !c.implemented).map((c) => cliRow(ctx, c)),
  ];
  const defaults = defaultChoices(ctx);
  let canRun = false;
  let reason: string | null;
  if (!defaults.ok) reason = defaults.error;
  else {
    const a = availabilityOf(ctx, defaults.choices.runtime, defaults.choices.provider);
    canRun = a.available;
    reason = a.reason;
  }
  return {
    can_run: canRun,
    reason,
    composer_choices: {
      version: 1,
      default_request: defaults.ok ? defaults.choices : null,
      default_error: defaults.ok ? null : defaults.error,
      connections,
      agent_aliases: [...AGENT_ALIASES],
      agent_efforts: [...AGENT_EFFORTS],
      limitations: LIMITATIONS,
    },
  };
}

function cliRow(ctx: Context, c: CliProvider): Connection {
  return {
    runtime: 'agent_cli',
    provider: c.id,
    label: c.label,
    implemented: c.implemented,
    ...cliAvailability(ctx, c),
    effort_support: c.implemented ? { supported: true, values: [...AGENT_EFFORTS] } : { supported: false, values: [] as string[] },
  };
}

/** GET /api/settings/ai/cli-status: each subscription-lane CLI, found or not, and where. */
export function cliStatus(ctx: Context): CliStatus {
  return {
    checked_at_utc: ctx.nowIso(),
    clis: CLI_PROVIDERS.map((c) => {
      const found = cliBinary(ctx, c);
      return { provider: c.id, label: c.label, command: c.binary, implemented: c.implemented, found: found !== null, path: found, source: c.id === 'agent_code' && ctx.config.ai.agentCli ? 'SVC_AGENT_CLI' : 'PATH' };
    }),
  };
}
