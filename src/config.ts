/**
 * The only module that reads the process environment. Everything else gets a
 * `Config` through the Context, so tests pass their own environment in.
 */
import { SvcError } from './errors.js';

export interface Config {
  dataDir?: string;
  stateDir?: string;
  /** A port named by SVC_PORT, if any. */
  port?: number;
  /** A token handed down by a parent process (the desktop shell). */
  apiToken?: string;
  disableScheduler: boolean;
  /**
   * How long a window's fallback backend goes without a renderer heartbeat before it stops once
   * nothing runs: 3 minutes; SVC_FALLBACK_IDLE_MS, a testing knob, shortens it.
   */
  fallbackIdleMs: number;
  /** SVC_SOURCE_<ID>_URL overrides, keyed by lower-case source id. */
  sourceUrls: Record<string, string>;
  specRoutesPath?: string;
  /** Inputs for the operating system's per-user locations. */
  osDirs: { home?: string; xdgDataHome?: string; xdgStateHome?: string; xdgConfigHome?: string; localAppData?: string };
  /** Assistant and model providers: SVC_AI_<PROVIDER>_URL overrides, SVC_AGENT_CLI, and PATH for finding agent CLIs. */
  ai: { urls: Record<string, string>; agentCli?: string; searchPath?: string };
}

/** A window's fallback backend stops after this long without a renderer heartbeat, once nothing runs in it. */
export const FALLBACK_IDLE_MS = 180_000;

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && TRUTHY.has(value.trim().toLowerCase());
}

export function parsePort(raw: string, origin: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new SvcError(400, 'invalid_port', `${origin} must be a port number from 0 to 65535, not "${raw}".`);
  }
  return Number(raw);
}

function parseMs(raw: string, origin: string): number {
  if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) < 1) {
    throw new SvcError(400, 'invalid_setting', `${origin} must be a number of milliseconds from 1 to 999999999, not "${raw}".`);
  }
  return Number(raw);
}

export function readConfig(env: Record<string, string | undefined>): Config {
  const sourceUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^SVC_SOURCE_([A-Z0-9_]+)_URL$/.exec(name);
    if (match && value) sourceUrls[match[1]!.toLowerCase()] = value;
  }
  const aiUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const match = /^SVC_AI_([A-Z0-9_]+)_URL$/.exec(name);
    if (match && value) aiUrls[match[1]!.toLowerCase()] = value;
  }
  const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);
  return {
    dataDir: nonEmpty(env.SVC_DATA_DIR),
    stateDir: nonEmpty(env.SVC_STATE_DIR),
    port: nonEmpty(env.SVC_PORT) === undefined ? undefined : parsePort(env.SVC_PORT!, 'SVC_PORT'),
    apiToken: nonEmpty(env.SVC_API_TOKEN),
    disableScheduler: isTruthy(env.SVC_DISABLE_SCHEDULER),
    fallbackIdleMs: nonEmpty(env.SVC_FALLBACK_IDLE_MS) === undefined ? FALLBACK_IDLE_MS : parseMs(env.SVC_FALLBACK_IDLE_MS!, 'SVC_FALLBACK_IDLE_MS'),
    sourceUrls,
    specRoutesPath: nonEmpty(env.SVC_SPEC_ROUTES),
    osDirs: {
      home: nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE),
      xdgDataHome: nonEmpty(env.XDG_DATA_HOME),
      xdgStateHome: nonEmpty(env.XDG_STATE_HOME),
      xdgConfigHome: nonEmpty(env.XDG_CONFIG_HOME),
      localAppData: nonEmpty(env.LOCALAPPDATA),
    },
    ai: { urls: aiUrls, agentCli: nonEmpty(env.SVC_AGENT_CLI), searchPath: nonEmpty(env.PATH) },
  };
}

/**
 * A token handed down by a parent must not linger where child processes or
 * crash reports could see it: the server deletes it from its own environment.
 */
export function forgetHandedDownToken(env: Record<string, string | undefined>): void {
  delete env.SVC_API_TOKEN;
}
