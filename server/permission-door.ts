/**
 * The permission door of a process that runs a turn itself (`svc chat` runs
 * turns in its own process, not through the server): while an agent CLI
 * turn runs, this process answers GET /api/health and the two permission
 * routes on 127.0.0.1 behind the same guard as the server, with a token of
 * its own published like the server's (<state dir>/api-token-<port>, 0600).
 * The agent's permission relay finds it as `svc mcp` finds a server, and its
 * requests reach this process's broker, where the person at the terminal
 * answers. Nothing else is served; the token and file go when it closes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from 'h3/node';
import type { Context } from '../src/context.js';
import { createOriginRegistry } from '../src/runtime/origins.js';
import { createApp } from './app.js';
import { ROUTES } from './routes/index.js';
import type { ServerRuntime } from './runtime.js';
import { tokenFile } from './token-file.js';

export interface PermissionDoor {
  port: number;
  close(): Promise<void>;
}

const DOOR_PATHS = new Set(['/api/health', '/api/assistant/permissions', '/api/assistant/permissions/{request_id}']);

export async function openPermissionDoor(ctx: Context): Promise<PermissionDoor> {
  const custody = tokenFile(ctx);
  const runtime: ServerRuntime = {
    port: 0,
    token: custody.token,
    origins: createOriginRegistry(null),
    startedAtUtc: ctx.nowIso(),
    rendererLastSeenAtUtc: null,
    scheduler: { state: 'disabled' },
    signedRoutes: [],
    role: 'server',
    requestsInFlight: 0,
  };
  const app = createApp({ ctx, runtime }, ROUTES.filter((r) => DOOR_PATHS.has(r.path)));
  const server = http.createServer({ requireHostHeader: false }, toNodeHandler(app));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  runtime.port = (server.address() as AddressInfo).port;
  custody.publish(runtime.port);
  let closing: Promise<void> | undefined;
  return {
    port: runtime.port,
    close() {
      closing ??= (async () => {
        custody.withdraw();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
