/**
 * Helpers for routine and scheduler tests: a fake clock the test moves, timers
 * the test fires by hand, and a server built on a data dir the test keeps, so
 * one test can close svc, let time pass, and start it again.
 */
import { createContext, type Context } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { schedulerOf, type RoutineScheduler as Scheduler } from '../src/routines/due-fires.js';
import type { Timers } from '../src/scheduler/scheduler.js';
import { startServer, type RunningServer } from '../server/listen.js';
import { rawRequest, serverLogSink, tempDirs, waitFor, type RawResponse, type TempDirs } from './_setup.js';

export interface FakeClock {
  clock: { now(): Date };
  set(iso: string): void;
  advance(ms: number): void;
}

export function fakeClock(startIso: string): FakeClock {
  let now = Date.parse(startIso);
  return {
    clock: { now: () => new Date(now) },
    set: (iso) => void (now = Date.parse(iso)),
    advance: (ms) => void (now += ms),
  };
}

export interface ManualTimers extends Timers {
  /** Delays asked for and not cancelled, oldest first. */
  pending: { ms: number; fn: () => void }[];
}

export function manualTimers(): ManualTimers {
  const pending: { ms: number; fn: () => void }[] = [];
  return {
    pending,
    set(fn, ms) {
      const entry = { ms, fn };
      pending.push(entry);
      return () => {
        const i = pending.indexOf(entry);
        if (i >= 0) pending.splice(i, 1);
      };
    },
  };
}

export interface Svc {
  ctx: Context;
  server: RunningServer;
  scheduler: Scheduler | undefined;
  timers: ManualTimers;
  logLines: string[];
  request(method: string, path: string, body?: unknown): Promise<RawResponse>;
  close(): Promise<void>;
}

export interface SvcOptions {
  /** Leave the scheduler on (the suite's default environment turns it off). */
  scheduler?: boolean;
  env?: Record<string, string>;
}

/** Start svc on `dirs` at the fake clock's time; the scheduler (if on) uses hand-fired timers. */
export async function startSvc(dirs: TempDirs, fake: FakeClock, options: SvcOptions = {}): Promise<Svc> {
  const logLines: string[] = [];
  const env = { ...dirs.env, SVC_DISABLE_SCHEDULER: options.scheduler === false ? '1' : '0', ...options.env };
  const ctx = createContext({
    env,
    clock: fake.clock,
    log: createLogger({ level: 'debug', sink: serverLogSink(logLines) }),
    // A long stale limit: moving the fake clock must not make a live run look abandoned.
    tuning: { sourceRateScale: 0, sourceRetryBaseMs: 5, sourceTimeoutMs: 5000, executionHeartbeatMs: 50, executionStaleMs: 86_400_000 },
  });
  const timers = manualTimers();
  // Built before the server starts, so its start-up task finds this one with our timers.
  const scheduler = ctx.config.disableScheduler ? undefined : schedulerOf(ctx, { timers });
  const server = await startServer(ctx, { port: 0 });
  const token = server.runtime.token;
  return {
    ctx,
    server,
    scheduler,
    timers,
    logLines,
    request(method, path, body) {
      const headers: Record<string, string> = { host: `127.0.0.1:${server.port}`, authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      return rawRequest(server.port, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    },
    close: () => server.close(),
  };
}

export function newDirs(): TempDirs {
  return tempDirs();
}

/** Wait until an execution has settled; answers its status. */
export async function settled(svc: Svc, id: number, timeoutMs = 15_000): Promise<string> {
  return waitFor(
    async () => {
      const status = (await svc.request('GET', `/api/executions/${id}`)).json().status as string;
      return status !== 'running' ? status : undefined;
    },
    timeoutMs,
    `execution ${id} to settle`,
  );
}

export const routineBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'ecology watch',
  schedule_cron: '0 6 * * *',
  parameters: { repositories: ['crossref'], query: 'ecology', max_results: 2, window_days: 7 },
  intent: 'papers about ecology and communication in animals',
  ...overrides,
});
