/**
 * Starts a server for a Context: opens the database (migrations run here, not
 * on the first request), binds 127.0.0.1 only, then publishes the token file
 * (mode 0600) and the port file. `close()` — a stop on purpose — withdraws
 * both, records what became of the runs in flight (shutdown.ts), then stops
 * listening and closes the Context.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import type { H3 } from 'h3';
import type { Context } from '../src/context.js';
import { SvcError } from '../src/errors.js';
import { createOriginRegistry } from '../src/runtime/origins.js';
import { provideAssistantTools } from '../src/assistant/runner.js';
import { createBackend } from '../src/mcp/backend.js';
import { assistantToolBox } from '../src/mcp/assistant-tools.js';
import { publishPort, withdrawPort } from '../src/runtime/token.js';
import { createApp } from './app.js';
import type { ServerRole, ServerRuntime, SignedRoute } from './runtime.js';
import type { RouteDef } from './registry.js';
import { runStartupTasks } from './startup.js';
import { runShutdownTasks } from './shutdown.js';
import { tokenFile } from './token-file.js';
import { applyStagedRestore } from '../src/admin/restore/apply.js';
import { schedulerLease } from '../src/routines/due-fires.js';

export const DEFAULT_PORT = 8742;

export interface StartOptions {
  /** The port to bind; DEFAULT_PORT only when nothing names one. 0 picks a free port. */
  port?: number;
  rendererOrigin?: string | null;
  /** A token handed down by a parent; minted when absent. */
  token?: string;
  signedRoutes?: SignedRoute[];
  /** 'daemon' when this is the background daemon, 'fallback' when a window started it. */
  role?: ServerRole;
  /** Replace the route list (tests mount extra routes). */
  routes?: RouteDef[];
}

export interface RunningServer {
  port: number;
  baseUrl: string;
  runtime: ServerRuntime;
  /** The assembled app the socket serves: `app.request()` answers in this process, as tests do where no socket is the subject. */
  app: H3;
  close(): Promise<void>;
}

export async function startServer(ctx: Context, options: StartOptions = {}): Promise<RunningServer> {
  const requestedPort = options.port ?? ctx.config.port ?? DEFAULT_PORT;
  applyStagedRestore(ctx); // a restore staged earlier happens now, before anything reads the database
  void ctx.schemaVersion; // open and migrate before accepting requests
  const custody = tokenFile(ctx, options.token);
  const runtime: ServerRuntime = {
    port: requestedPort,
    token: custody.token,
    origins: createOriginRegistry(options.rendererOrigin ?? null),
    startedAtUtc: ctx.nowIso(),
    rendererLastSeenAtUtc: null,
    scheduler: { state: ctx.config.disableScheduler ? 'disabled' : 'not_started' },
    signedRoutes: options.signedRoutes ?? [],
    role: options.role ?? 'server',
    requestsInFlight: 0,
  };
  const deps = { ctx, runtime };
  await runStartupTasks(deps);
  // requireHostHeader off: a request without Host must reach the guard and get 403 host_refused.
  const app = createApp(deps, options.routes);
  const server = http.createServer({ requireHostHeader: false }, toNodeHandler(app));
  server.keepAliveTimeout = 5000;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    runtime.requestsInFlight++;
    res.once('close', () => runtime.requestsInFlight--);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') {
        reject(new SvcError(409, 'port_in_use', `Port ${requestedPort} is in use; is svc already running? Try \`svc health\` or choose --port.`));
      } else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(requestedPort, '127.0.0.1');
  });
  runtime.port = (server.address() as AddressInfo).port;
  custody.publish(runtime.port);
  if (!publishPort(ctx.paths, runtime.port, runtime.startedAtUtc)) {
    ctx.log.warn('another svc server of this data directory is running; its port file is left as it is (clients find that one)');
  }
  if (!ctx.config.disableScheduler) schedulerLease(ctx).recordPort(runtime.port); // a standby names where the scheduling process answers
  ctx.log.info(`listening on http://127.0.0.1:${runtime.port}`);
  // The assistant's API lanes may call the read tools of the MCP surface, over this server's own HTTP.
  provideAssistantTools(ctx, assistantToolBox(createBackend({ port: runtime.port, paths: ctx.paths, fetch: ctx.fetch, token: runtime.token })));

  let closing: Promise<void> | undefined;
  return {
    port: runtime.port,
    baseUrl: `http://127.0.0.1:${runtime.port}`,
    runtime,
    app,
    close() {
      closing ??= (async () => {
        custody.withdraw();
        withdrawPort(ctx.paths, runtime.port);
        await runShutdownTasks(deps);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await ctx.close();
      })();
      return closing;
    },
  };
}
