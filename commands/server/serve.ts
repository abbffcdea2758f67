import { Option, type Command } from 'commander';
import { forgetHandedDownToken, parsePort } from '../../src/config.js';
import type { Context } from '../../src/context.js';
import { conflict, SvcError } from '../../src/errors.js';
import { checkOrigin } from '../../src/runtime/origins.js';
import { commandContext } from '../lib/context.js';
import type { Io } from '../lib/io.js';
import type { RunningServer } from '../../server/listen.js';
import type { ServerRole } from '../../server/runtime.js';
import type { IdleWatch } from '../../server/fallback-idle.js';

interface ServeOptions {
  port?: string;
  rendererOrigin?: string;
  daemon?: boolean;
  foreground?: boolean;
  fallback?: boolean;
}

export function register(program: Command, io: Io): void {
  program
    .command('serve')
    .description('run the HTTP server on 127.0.0.1 until SIGINT or SIGTERM')
    .option('--port <n>', 'port to bind (default: SVC_PORT, else 8742; 0 picks a free port)')
    .option('--renderer-origin <url>', 'the desktop window origin allowed to call from a browser, e.g. http://127.0.0.1:5173')
    .option('--daemon', 'run as the background daemon: detach, hold the daemon lock, own the scheduler')
    .option('--foreground', 'with --daemon: stay in the foreground (for a service manager such as systemd or launchd)')
    // svc window's backend when no daemon runs (svc-window(1)); not for people, hence hidden.
    .addOption(new Option('--fallback', 'run as a window\'s fallback backend: no scheduler, stops when idle').hideHelp())
    .action(async (opts: ServeOptions) => {
      const port = opts.port === undefined ? undefined : parsePort(opts.port, '--port');
      const rendererOrigin = opts.rendererOrigin === undefined ? null : checkOrigin(opts.rendererOrigin, ['--renderer-origin']);
      if (opts.fallback && opts.daemon) throw new SvcError(400, 'usage', '--fallback and --daemon exclude each other: a fallback never owns the scheduler.');
      // A fallback never owns a scheduler (spec 1), whoever started it and with whatever environment.
      const env = opts.fallback ? { ...io.env, SVC_DISABLE_SCHEDULER: '1' } : io.env;
      const ctx = commandContext(io, { env, level: 'info' });
      if (opts.daemon && !opts.foreground) {
        const { startDaemon } = await import('../../src/daemon/control.js');
        try {
          const answer = await startDaemon(ctx, { env: io.env, port });
          const { daemonText } = await import('../admin/daemon-format.js');
          if (io.json) io.out(JSON.stringify(answer, null, 2));
          else io.out(daemonText(answer));
        } finally {
          await ctx.close();
        }
        return;
      }
      await serveHere(ctx, io, { port, rendererOrigin, role: opts.daemon ? 'daemon' : opts.fallback ? 'fallback' : 'server' });
    });
}

async function serveHere(ctx: Context, io: Io, o: { port?: number; rendererOrigin: string | null; role: ServerRole }): Promise<void> {
  const daemon = o.role === 'daemon';
  const handedDown = ctx.config.apiToken;
  forgetHandedDownToken(io.env);
  // Listening for signals before anything announces us (the server's "listening on" log line, the port
  // and token files): whoever reads those may stop us at once. A stop asked during startup waits for it.
  let stopAsked = false;
  let onStop = () => void (stopAsked = true);
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    onStop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const lock = daemon ? await import('../../src/daemon/lock.js') : undefined;
  if (lock) {
    const held = lock.acquireLock(ctx.paths, ctx.nowIso());
    if (held) {
      stop();
      await ctx.close();
      throw conflict('daemon_running', `A daemon is already running (pid ${held.pid || 'unknown'}${held.port ? `, port ${held.port}` : ''}); not starting a second one.`);
    }
  }
  const { startServer } = await import('../../server/listen.js');
  let server;
  try {
    server = await startServer(ctx, { port: o.port, rendererOrigin: o.rendererOrigin, token: daemon ? undefined : handedDown, role: o.role });
  } catch (err) {
    stop();
    lock?.releaseLock(ctx.paths);
    throw err;
  }
  lock?.recordPort(ctx.paths, server.port);
  const running = server;
  const stopped = new Promise<void>((resolve) => {
    onStop = () => void running.close().then(resolve, resolve);
    if (stopAsked) onStop();
  });
  if (io.json) io.out(JSON.stringify({ base_url: server.baseUrl, port: server.port, pid: process.pid, runtime_id: ctx.runtimeId, daemon, role: o.role }));
  else io.err(`svc ${daemon ? 'daemon ' : ''}serving on ${server.baseUrl} (token in ${ctx.paths.tokenFile(server.port)})`);
  const idle = o.role === 'fallback' ? await stopWhenIdle(ctx, io, running, stop) : undefined;
  await stopped;
  idle?.cancel();
  lock?.releaseLock(ctx.paths);
}

/**
 * A fallback's stop rule (server/fallback-idle.ts). Its window shell holds the
 * other end of its stdin: end of input means the shell is gone. The line
 * {"stopped":"idle"} on stdout tells a shell still there that the stop was the rule's.
 */
async function stopWhenIdle(ctx: Context, io: Io, running: RunningServer, stop: () => void): Promise<IdleWatch> {
  const { watchFallbackIdle } = await import('../../server/fallback-idle.js');
  // A shell that went away without a word must not make this last line kill the process (EPIPE).
  process.stdout.on('error', () => undefined);
  let shellThere = true;
  const watch = watchFallbackIdle({ ctx, runtime: running.runtime }, ctx.config.fallbackIdleMs, (why) => {
    ctx.log.info(`stopping: ${why}`);
    if (shellThere) io.out(JSON.stringify({ stopped: 'idle', why }));
    stop();
  });
  if (!process.stdin.isTTY) {
    process.stdin.on('end', () => {
      shellThere = false;
      watch.shellGone();
    });
    process.stdin.on('error', () => undefined);
    process.stdin.resume();
  }
  return watch;
}
