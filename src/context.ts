/**
 * The Context: built once per process by bin/, server/, tests and benchmarks,
 * and passed to every service. The database opens on first use, so commands
 * that never touch it (help, health) stay fast.
 */
import type { Database } from 'better-sqlite3';
import { readConfig, type Config } from './config.js';
import { resolvePaths, type Paths } from './paths.js';
import { systemClock, isoUtc, type Clock } from './clock.js';
import { systemRandom, type Random } from './random.js';
import { createLogger, type Logger } from './log.js';
import { registerAfterRunSteps } from './after-run-steps.js';
import { createBus, type Bus } from './bus.js';
import { openDatabase } from './db/open.js';
import { createSettingsStore, type SettingsStore } from './settings/store.js';
import { createCredentialStore, type CredentialStore } from './credentials/store.js';
import { SOURCE_CAPS, type SourceCaps } from './sources/caps.js';

/**
 * Knobs that tests and benchmarks turn; production keeps the defaults.
 * Rate limits are the APIs' own: a scale of 1 keeps them exactly.
 */
export interface Tuning {
  sourceRateScale: number;
  sourceRetryBaseMs: number;
  sourceTimeoutMs: number;
  /** A Retry-After longer than this fails the request instead of waiting. */
  sourceMaxRetryAfterMs: number;
  sourceMaxAttempts: number;
  /** How often a running execution's owner refreshes last_seen_at_utc and looks for cancel requests. */
  executionHeartbeatMs: number;
  /** A running execution not seen for this long has no live owner (admission and recovery). */
  executionStaleMs: number;
  /**
   * How long a process stopping on purpose waits for its runs to settle once they are recorded
   * interrupted and aborted; within `svc daemon stop`'s 10 s, so the stop is never reported failed for it.
   */
  shutdownWaitMs: number;
  /**
   * How often a held permission request sends a space (JSON allows it before the answer): an
   * HTTP client (fetch gives up on a body silent for 300 s) must not end the wait for a person.
   */
  permissionKeepaliveMs: number;
  /** How often a process running an assistant turn looks for a cancel asked by another process. */
  assistantCancelPollMs: number;
  /** How soon a claim release that failed (the database busy past its timeout) is tried again. */
  claimReleaseRetryMs: number;
  /** A run's AI summary gives up after this long (the run itself has settled already). */
  aiSummaryTimeoutMs: number;
  /** How often a summary being written looks whether its run was deleted by another process (then its request stops). */
  aiSummaryGonePollMs: number;
  /** At most this many of a followed profile's papers are checked for lifecycle notices a fire (follow/check.ts). */
  followCheckLimit: number;
  /**
   * A model with fewer canonical vectors is answered by the exact scan (a millisecond or two) and
   * gets no vector index file unless one is asked for (svc embed rebuild); from this many on, a
   * query or a backfill that finds no usable index builds one in the background.
   */
  vectorIndexFrom: number;
  /**
   * Vector changes since the index file was written that queries read from the canonical table
   * (an exact comparison each) before the file is rewritten with them in the background.
   */
  vectorIndexPendingMax: number;
  /** A semantic search whose filters admit at most this many papers scans them exactly instead of asking the index. */
  vectorIndexExactFilteredMax: number;
  /** What one source answer may hold (sources/caps.ts); tests lower them to exercise them with small bodies. */
  sourceCaps: SourceCaps;
}

export const DEFAULT_TUNING: Tuning = {
  sourceRateScale: 1,
  sourceRetryBaseMs: 1000,
  sourceTimeoutMs: 30_000,
  sourceMaxRetryAfterMs: 120_000,
  sourceMaxAttempts: 4,
  executionHeartbeatMs: 1000,
  executionStaleMs: 30_000,
  shutdownWaitMs: 5000,
  permissionKeepaliveMs: 30_000,
  assistantCancelPollMs: 300,
  claimReleaseRetryMs: 1000,
  aiSummaryTimeoutMs: 120_000,
  aiSummaryGonePollMs: 2000,
  followCheckLimit: 500,
  vectorIndexFrom: 5000,
  vectorIndexPendingMax: 10_000,
  vectorIndexExactFilteredMax: 20_000,
  sourceCaps: SOURCE_CAPS,
};

export interface Context {
  config: Config;
  paths: Paths;
  clock: Clock;
  random: Random;
  fetch: typeof globalThis.fetch;
  log: Logger;
  bus: Bus;
  tuning: Tuning;
  readonly db: Database;
  readonly schemaVersion: number;
  /** Random lowercase UUID4, new per process: the runtime identity. */
  runtimeId: string;
  settings: SettingsStore;
  credentials: CredentialStore;
  /** Current instant as stored: UTC ISO-8601 with Z. */
  nowIso(): string;
  /**
   * A long-lived service of this process (rate limiters, the execution
   * manager, the scheduler), built on first use and kept for the Context's life.
   */
  service<T>(key: string, build: () => T): T;
  /** Run on close, last registered first (background work, timers). */
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

export interface ContextOptions {
  env?: Record<string, string | undefined>;
  config?: Config;
  clock?: Clock;
  random?: Random;
  fetch?: typeof globalThis.fetch;
  log?: Logger;
  tuning?: Partial<Tuning>;
}

export function createContext(options: ContextOptions = {}): Context {
  const config = options.config ?? readConfig(options.env ?? process.env);
  const paths = resolvePaths(config);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? createLogger();
  const nowIso = () => isoUtc(clock.now());
  let opened: { db: Database; schemaVersion: number } | undefined;
  const open = () => (opened ??= openDatabase(paths.database, nowIso));
  const closers: (() => void | Promise<void>)[] = [];
  const services = new Map<string, unknown>();
  const random = options.random ?? systemRandom;

  const ctx: Context = {
    config,
    paths,
    clock,
    random,
    fetch: options.fetch ?? globalThis.fetch,
    log,
    bus: createBus(),
    tuning: { ...DEFAULT_TUNING, ...options.tuning },
    get db() {
      return open().db;
    },
    get schemaVersion() {
      return open().schemaVersion;
    },
    runtimeId: random.uuid(),
    settings: createSettingsStore(() => open().db, nowIso),
    credentials: createCredentialStore(paths.credentialsFile, log),
    nowIso,
    service<T>(key: string, build: () => T): T {
      if (!services.has(key)) services.set(key, build());
      return services.get(key) as T;
    },
    onClose(fn) {
      closers.push(fn);
    },
    async close() {
      while (closers.length) await closers.pop()!();
      services.clear();
      if (opened) {
        opened.db.close();
        opened = undefined;
      }
    },
  };
  registerAfterRunSteps(ctx);
  return ctx;
}
