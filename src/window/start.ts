/**
 * svc window's whole shell, started: the renderer server bound on
 * 127.0.0.1 (its origin is the page's), the backend attached or started with
 * that origin allowed, the launch codes and the per-launch secret. The URL it
 * answers carries a first launch code in its fragment, which no server sees.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { spawn as nodeSpawn } from 'node:child_process';
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { DEFAULT_PORT } from '../client/discover.js';
import type { Backend } from './backend.js';
import type { FallbackChild } from './fallback.js';
import { createLaunchCodes, type LaunchCodes } from './launch-codes.js';
import { rendererHandler } from './renderer-server.js';
import { attachShell, type Shell } from './shell.js';
import { WEB_ROOT } from './static-files.js';

export interface WindowOptions {
  ctx: Context;
  env: Record<string, string | undefined>;
  /** The renderer port; 0 or absent for a free one. */
  port?: number;
  webRoot?: string;
  say: (line: string) => void;
  spawn?: typeof nodeSpawn;
}

export interface RunningWindow {
  /** The first launch URL: http://127.0.0.1:R/#launch=<code>. */
  url: string;
  rendererOrigin: string;
  backend(): Backend;
  codes: LaunchCodes;
  shell: Shell;
  /** Settles when the window is over by the backend's own rule. */
  ended: Promise<{ why: string }>;
  /** Stop serving and let the backend go; answers the fallback let go, if any. */
  close(): Promise<FallbackChild | null>;
}

export async function startWindow(o: WindowOptions): Promise<RunningWindow> {
  const server = http.createServer({ requireHostHeader: false });
  server.keepAliveTimeout = 5000;
  const port = await listen(server, o.port ?? 0);
  const rendererOrigin = `http://127.0.0.1:${port}`;
  let shell: Shell;
  try {
    shell = await attachShell({ ctx: o.ctx, env: o.env, rendererOrigin, say: o.say, spawn: o.spawn });
  } catch (err) {
    await closeServer(server);
    throw err;
  }
  const codes = createLaunchCodes(o.ctx.random, () => o.ctx.clock.now().getTime());
  const secret = o.ctx.random.bytes(32).toString('base64url');
  const daemonOrigin = `http://127.0.0.1:${o.ctx.config.port ?? DEFAULT_PORT}`;
  server.on('request', rendererHandler({ origin: rendererOrigin, host: `127.0.0.1:${port}`, webRoot: o.webRoot ?? WEB_ROOT, codes, secret, shell, daemonOrigin, env: o.env }));
  return {
    url: `${rendererOrigin}/#launch=${codes.mint()}`,
    rendererOrigin,
    backend: () => shell.current(),
    codes,
    shell,
    ended: shell.ended,
    async close() {
      await closeServer(server);
      return shell.close();
    },
  };
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new SvcError(409, 'port_in_use', `Port ${port} is in use; choose another --port, or leave --port out for a free one.`) : err);
    });
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
