/**
 * The renderer server's answers: the app's static files, the one-time
 * exchange of a launch code for the API token, and the shell actions a page
 * holding the session may ask for. Errors have the backend's shape,
 * {detail: {reason, message}}, so the page reads both alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SvcError } from '../errors.js';
import { backendView, type Backend } from './backend.js';
import { COMMON_HEADERS, htmlHeaders, JSON_HEADERS } from './headers.js';
import type { LaunchCodes } from './launch-codes.js';
import { refuseHost, refuseOrigin, refuseSecret, type Refusal, type ShellRule } from './shell-guard.js';
import type { Shell } from './shell.js';
import { readStatic } from './static-files.js';
import { schedulePreview } from './schedule-preview.js';
import { revealSecretThroughCli, secretAsk } from './webhook-secret.js';

export interface RendererDeps extends ShellRule {
  webRoot: string;
  codes: LaunchCodes;
  /** The per-launch secret of the shell actions. */
  secret: string;
  shell: Shell;
  /** Where the daemon would listen (http://127.0.0.1:<configured port or 8742>): the CSP allows it ahead. */
  daemonOrigin: string;
  /** The window's environment: what the CLI it runs for an action gets (the same data directory). */
  env: Record<string, string | undefined>;
}

/** `body`: the action's JSON body, for an action that takes one (`body: true`). */
type Action = (deps: RendererDeps, body: unknown) => Promise<unknown>;

/** The shell actions, by path; each answers JSON. */
const ACTIONS: Record<string, { methods: string[]; run: Action; body?: true }> = {
  '/shell/launch-code': { methods: ['POST'], run: async ({ codes }) => ({ code: codes.mint() }) },
  '/shell/daemon/start': { methods: ['POST'], run: async ({ shell }) => ({ backend: backendView(await shell.startDaemon()) }) },
  '/shell/daemon/stop': {
    methods: ['POST'],
    run: async ({ shell }) => {
      const { backend, ...answer } = await shell.stopDaemon();
      return { ...answer, backend: backendView(backend) };
    },
  },
  '/shell/backend/restart': { methods: ['POST'], run: async ({ shell }) => ({ backend: backendView(await shell.restart()) }) },
  '/shell/status': { methods: ['GET', 'POST'], run: ({ shell }) => shell.status() },
  '/shell/schedule-preview': { methods: ['POST'], body: true, run: async (_deps, body) => schedulePreview(body, new Date()) },
  // A webhook destination's signing secret, for configuring its receiver: only on request, never through the backend's API.
  '/shell/webhook-secret': { methods: ['POST'], body: true, run: ({ env }, body) => revealSecretThroughCli(env, secretAsk(body)) },
};

const MAX_BODY = 4096;

export function rendererHandler(deps: RendererDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    answer(deps, req, res).catch((err) => {
      const known = err instanceof SvcError;
      sendJson(res, known ? err.status : 500, { detail: { reason: known ? err.reason : 'internal_error', message: known ? err.message : `The window shell failed: ${err instanceof Error ? err.message : String(err)}` } });
    });
  };
}

async function answer(deps: RendererDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const host = refuseHost(req, deps);
  if (host) return refuse(res, host);
  const pathname = new URL(req.url ?? '/', 'http://window.invalid').pathname;
  if (req.method === 'OPTIONS') return refuse(res, { status: 403, reason: 'origin_refused', message: 'The window answers no cross-origin request.' });
  if (pathname.startsWith('/shell/')) return shellRoute(deps, req, res, pathname);
  if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, { status: 405, reason: 'method_not_allowed', message: `${req.method} is not answered here.` });
  sendStatic(deps, req, res, pathname);
}

async function shellRoute(deps: RendererDeps, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const origin = refuseOrigin(req, deps);
  if (origin) return refuse(res, origin);
  if (pathname === '/shell/exchange') {
    if (req.method !== 'POST') return refuse(res, { status: 405, reason: 'method_not_allowed', message: 'The exchange is a POST.' });
    const code = await readCode(req);
    const checked = deps.codes.check(code);
    if (!checked.ok) return refuse(res, { status: 403, reason: checked.reason, message: checked.message });
    // The code is used up only once there is a backend to hand over: a failed attach leaves it for a retry.
    const backend: Backend = await deps.shell.ensure();
    const redeemed = deps.codes.redeem(code);
    if (!redeemed.ok) return refuse(res, { status: 403, reason: redeemed.reason, message: redeemed.message });
    return sendJson(res, 200, { token: backend.token, backend: backendView(backend), shell_secret: deps.secret, connect_origins: connectOrigins(deps) });
  }
  const action = ACTIONS[pathname];
  if (!action) return refuse(res, { status: 404, reason: 'not_found', message: `The window shell has no action ${pathname}.` });
  if (!action.methods.includes(req.method ?? '')) return refuse(res, { status: 405, reason: 'method_not_allowed', message: `${pathname} answers ${action.methods.join(' or ')}.` });
  const secret = refuseSecret(req, deps.secret);
  if (secret) return refuse(res, secret);
  if (!action.body) req.resume(); // an action without a body reads none
  sendJson(res, 200, await action.run(deps, action.body ? await readJsonBody(req, pathname) : undefined));
}

/** A small JSON body (the exchange's, an action's); undefined when it is not JSON. */
async function readJsonBody(req: IncomingMessage, what: string): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) throw new SvcError(415, 'unsupported_media_type', `${what} takes a JSON body.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new SvcError(413, 'body_too_large', `${what}'s body is at most ${MAX_BODY} bytes.`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The exchange's body: {code: string}, JSON, small. */
async function readCode(req: IncomingMessage): Promise<string> {
  const body = await readJsonBody(req, 'The exchange');
  const code = (body as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || code.length === 0 || code.length > 200) throw new SvcError(400, 'invalid_body', 'The exchange takes a JSON body {"code": "…"} with the launch code of the link.');
  return code;
}

function sendStatic(deps: RendererDeps, req: IncomingMessage, res: ServerResponse, pathname: string): void {
  const found = readStatic(deps.webRoot, pathname);
  const head = req.method === 'HEAD';
  if (found.kind === 'app' || found.kind === 'not_built') {
    const headers = htmlHeaders(connectOrigins(deps));
    res.writeHead(found.kind === 'app' ? 200 : 503, headers);
    res.end(head ? undefined : found.html);
    return;
  }
  if (found.kind === 'asset') {
    res.writeHead(200, { ...COMMON_HEADERS, 'content-type': found.type, 'cache-control': found.immutable ? 'public, max-age=31536000, immutable' : 'no-cache' });
    res.end(head ? undefined : found.body);
    return;
  }
  refuse(res, { status: 404, reason: 'not_found', message: `The window has no file ${pathname}.` });
}

/** The backend origins the page may reach (its CSP's connect-src): told to the page too, which reloads for one not listed. */
function connectOrigins(deps: RendererDeps): string[] {
  return [...new Set([deps.shell.current().baseUrl, deps.daemonOrigin])];
}

function refuse(res: ServerResponse, r: Refusal): void {
  sendJson(res, r.status, { detail: { reason: r.reason, message: r.message } });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, JSON_HEADERS);
  res.end(JSON.stringify(body));
}
