/**
 * How local clients (the CLI, the MCP server) find the running server of their
 * own data directory: the port named by SVC_PORT, else the port file of this
 * data directory — a named port is never widened, and a server of another
 * data directory is never used — and the token published beside it. A port
 * file whose process is gone (killed with -9) means no server is running.
 */
import type { Context } from '../context.js';
import { SvcError } from '../errors.js';
import { isStale, readPublishedPort, readPublishedToken } from '../runtime/token.js';

export const DEFAULT_PORT = 8742;
export const HEALTH_PROBE_TIMEOUT_MS = 1500;

export interface ServerHandle {
  baseUrl: string;
  port: number;
  token: string;
}

export function locateServer(ctx: Context): ServerHandle {
  const published = readPublishedPort(ctx.paths);
  const notRunning = (why: string, port?: number) =>
    new SvcError(503, 'server_not_running', `No svc server is running for this data directory (${why}); start one with \`svc serve\`.`, port === undefined ? {} : { port });
  if (published && isStale(published) && (ctx.config.port === undefined || ctx.config.port === published.port)) {
    throw notRunning(`the port file names process ${published.pid}, which is gone: a server that stopped without cleaning up`, published.port);
  }
  const port = ctx.config.port ?? published?.port;
  if (port === undefined) throw notRunning('no port file');
  const token = readPublishedToken(ctx.paths, port);
  if (!token) {
    throw notRunning(`no token file for port ${port}`, port);
  }
  return { baseUrl: `http://127.0.0.1:${port}`, port, token };
}

/** Send one request to the running server; refusals become SvcError with the server's reason. */
export async function callServer(ctx: Context, server: ServerHandle, method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<unknown> {
  let response: Response;
  try {
    response = await ctx.fetch(server.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    throw new SvcError(503, 'server_not_running', `Nothing answers on ${server.baseUrl}; the server is not running (start it with \`svc serve\`).`, { port: server.port });
  }
  const text = await response.text();
  const parsed = text ? safeJson(text) : null;
  if (!response.ok) {
    const detail = (parsed as { detail?: unknown } | null)?.detail;
    const reason = typeof detail === 'object' && detail && 'reason' in detail ? String((detail as { reason: unknown }).reason) : `http_${response.status}`;
    const message = typeof detail === 'string' ? detail : typeof detail === 'object' && detail && 'message' in detail ? String((detail as { message: unknown }).message) : `The server answered ${response.status}.`;
    // The server's own words ("read it again from api-token-<port>") are for a client that can; this one just did.
    if (reason === 'token_invalid' || reason === 'token_missing') {
      throw new SvcError(response.status, reason, `The server on ${server.baseUrl} does not accept the token published for port ${server.port}: another program may hold that port, or the token file is left from an earlier server; restart \`svc serve\`.`);
    }
    throw new SvcError(response.status, reason, message);
  }
  return parsed;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
