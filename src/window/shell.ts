/**
 * The window shell's hold on its backend: the daemon of the data directory
 * when one runs (attached with the spec's wait: a present lock means wait,
 * never spawn), else a fallback it starts. It keeps the renderer origin
 * registered with whichever backend is current, and switches backend on the
 * page's request (start the daemon, restart after a staged restore) or when
 * the current one is found gone. One change at a time.
 */
import type { spawn as nodeSpawn } from 'node:child_process';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { attachDaemon, startDaemon, stopDaemon } from '../daemon/control.js';
import { daemonStatus } from '../daemon/status.js';
import { backendView, daemonBackend, probeBackend, registerOrigin, type Backend } from './backend.js';
import { spawnFallback, type FallbackChild } from './fallback.js';

export interface ShellOptions {
  ctx: Context;
  /** The environment children get (the daemon, a fallback). */
  env: Record<string, string | undefined>;
  rendererOrigin: string;
  /** What the shell has to say to the person (stderr). */
  say: (line: string) => void;
  spawn?: typeof nodeSpawn;
}

export interface ShellStatus {
  backend: ReturnType<typeof backendView>;
  daemon: { running: boolean; port: number | null };
}

export interface Shell {
  current(): Backend;
  /** The current backend, checked: one that stopped answering (a daemon restarted from a terminal) is replaced. */
  ensure(): Promise<Backend>;
  /** Start the daemon and make it the backend; a fallback is let go (it stops once nothing runs in it). */
  startDaemon(): Promise<Backend>;
  /** Restart the backend (a staged restore is applied at start): the daemon by stop and start, a fallback on its port when free. */
  restart(): Promise<Backend>;
  /**
   * Stop the daemon as `svc daemon stop` does. A window attached to it falls back to a backend of its
   * own (a new port: the page takes a fresh token, and reloads for an origin its policy does not list).
   */
  stopDaemon(): Promise<{ stopped: boolean; message: string; fell_back: boolean; backend: Backend }>;
  status(): Promise<ShellStatus>;
  /** Settles when the fallback stopped by its own rule (no window for minutes, nothing running): the window is over. */
  ended: Promise<{ why: string }>;
  /** Let the backend go; answers the fallback let go, if any (it stops once nothing runs in it). */
  close(): FallbackChild | null;
}

export async function attachShell(o: ShellOptions): Promise<Shell> {
  const { ctx } = o;
  let fallback: FallbackChild | null = null;
  let endWindow!: (end: { why: string }) => void;
  const ended = new Promise<{ why: string }>((resolve) => (endWindow = resolve));

  const adoptFallback = (child: FallbackChild) => {
    fallback = child;
    void child.exited.then((exit) => {
      if (fallback !== child) return; // let go or replaced on purpose
      fallback = null;
      if (exit.idle) endWindow({ why: `the backend stopped after ${idleWords(ctx)} without a window open and with nothing running` });
      else o.say(`svc window: the backend (pid ${child.pid}) exited (${exit.signal ?? `code ${exit.code}`}); a new one starts when the page asks (its log: ${child.logFile})`);
    });
    return child.backend;
  };

  const spawnOn = async (port: number) => adoptFallback(await spawnFallback(ctx, { env: o.env, rendererOrigin: o.rendererOrigin, port, spawn: o.spawn }));
  /** A fallback on `port` when free (the page's CSP already reaches it: no reload), else on a free one. */
  const startFallback = async (port: number) => {
    if (port === 0) return spawnOn(0);
    try {
      return await spawnOn(port);
    } catch (err) {
      o.say(`svc window: the backend could not start again on port ${port} (${err instanceof Error ? err.message : String(err)}); starting it on a free port`);
      return spawnOn(0);
    }
  };

  const useDaemon = async (status: Parameters<typeof daemonBackend>[1]) => {
    const b = await daemonBackend(ctx, status);
    await registerOrigin(ctx, b, o.rendererOrigin);
    const old = fallback;
    fallback = null;
    old?.release();
    return b;
  };

  /** The daemon when it runs; waiting while its lock says it starts; else a fallback (on `port` when free: a gone one's). */
  const attach = async (port = 0): Promise<Backend> => {
    const status = await attachDaemon(ctx);
    if (status?.running) return useDaemon(status);
    if (status && !status.stale_lock) {
      throw new SvcError(409, 'daemon_not_answering', `A daemon lock is present (pid ${status.lock_pid ?? 'unknown'}) but the daemon does not answer: ${status.error ?? 'no answer'}. Wait for it and run svc window again, or stop it with \`svc daemon stop\`.`);
    }
    return startFallback(port);
  };

  let backend = await attach();
  let queue: Promise<unknown> = Promise.resolve();
  /** One change at a time: two tabs asking at once get the same outcome, in turn. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const become = (b: Backend) => (backend = b);

  return {
    current: () => backend,
    ended,
    ensure: () =>
      serial(async () => {
        if (backend.role === 'fallback' && fallback?.running()) return backend;
        if (backend.role === 'daemon') {
          const runtimeId = await probeBackend(ctx, backend);
          if (runtimeId === backend.runtimeId) {
            // Registered origins live in the daemon's memory, eight at most: say it again, it is cheap.
            await registerOrigin(ctx, backend, o.rendererOrigin);
            return backend;
          }
        }
        return become(await attach(backend.role === 'fallback' ? backend.port : 0));
      }),
    startDaemon: () =>
      serial(async () => {
        if (backend.role === 'daemon' && (await probeBackend(ctx, backend)) === backend.runtimeId) return backend;
        const answer = await startDaemon(ctx, { env: o.env, port: ctx.config.port });
        return become(await useDaemon(answer.status));
      }),
    restart: () =>
      serial(async () => {
        if (backend.role === 'daemon') {
          await stopDaemon(ctx);
          const answer = await startDaemon(ctx, { env: o.env, port: backend.port });
          return become(await useDaemon(answer.status));
        }
        const old = fallback;
        fallback = null;
        await old?.terminate();
        return become(await startFallback(backend.port));
      }),
    stopDaemon: () =>
      serial(async () => {
        const answer = await stopDaemon(ctx);
        const wasDaemon = backend.role === 'daemon';
        // Port 0: the daemon's port is kept for the daemon, which "Start the daemon" asks for again.
        if (wasDaemon) become(await attach(0));
        return { stopped: answer.stopped, message: answer.message, fell_back: wasDaemon, backend };
      }),
    async status() {
      const daemon = await daemonStatus(ctx);
      return { backend: backendView(backend), daemon: { running: daemon.running, port: daemon.port } };
    },
    close() {
      const old = fallback;
      fallback = null;
      old?.release();
      return old;
    },
  };
}

const idleWords = (ctx: Context) => {
  const ms = ctx.config.fallbackIdleMs;
  return ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${ms / 1000} s`;
};
