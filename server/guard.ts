/**
 * The local-access guard of spec 1 "Authentication", run before CORS handling
 * and before any body is read, for every request (the exemption list is empty):
 *   1. Host is 127.0.0.1:<port> or localhost:<port>      else 403 host_refused
 *   2. an Origin, when present, is an allowed origin     else 403 origin_refused
 *   3. a CORS preflight from an allowed origin is answered here, without token
 *   4. a signed route checks its signature               else 403 signature_invalid
 *   5. Authorization: Bearer <token>, constant time      else 401 token_missing / token_invalid
 */
import crypto from 'node:crypto';
import type { H3Event } from 'h3';
import type { Clock } from '../src/clock.js';
import { SvcError, forbidden } from '../src/errors.js';
import { verifyDeliveryLink } from '../src/runtime/signing.js';
import { pathMatcher } from './registry.js';
import type { ServerRuntime } from './runtime.js';

export const GUARD_EXEMPT_PATHS: readonly string[] = [];

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Svc-Library';

/** The refusal of `/` without a token: a person opened the server in a browser. */
const ROOT_WITHOUT_TOKEN =
  'This is the svc HTTP API for the desktop window and agents, not a web page; every path, / too, needs the API token (Authorization: Bearer <token>, in the state directory as api-token-<port>). ' +
  'The window is `svc window`. The docs: README.md in the svc folder, `man svc` (its man pages, once the README\'s set-up has linked them), and `svc --help`.';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest();

export type GuardDecision =
  | { pass: true; origin: string | null }
  | { pass: false; error: SvcError; origin: string | null }
  | { pass: false; preflight: Response };

export function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

export function createGuard(runtime: ServerRuntime, clock: Clock) {
  // Hash both sides so the comparison takes the same time whatever the lengths; the expected side once.
  const expectedDigest = sha256(runtime.token);
  const signed = runtime.signedRoutes.map((r) => ({ route: r, matcher: pathMatcher(r.path) }));
  let hosts = new Set<string>();
  let hostsForPort = -1;

  return async function check(event: H3Event): Promise<GuardDecision> {
    const headers = event.req.headers;
    if (hostsForPort !== runtime.port) {
      hosts = new Set([`127.0.0.1:${runtime.port}`, `localhost:${runtime.port}`]);
      hostsForPort = runtime.port;
    }
    const host = headers.get('host');
    if (host === null || !hosts.has(host.toLowerCase())) {
      return { pass: false, origin: null, error: forbidden('host_refused', 'Requests must name this server as 127.0.0.1 or localhost with its port.') };
    }
    const origin = headers.get('origin');
    if (origin !== null && !runtime.origins.allows(origin)) {
      return { pass: false, origin: null, error: forbidden('origin_refused', 'This origin may not call svc; the window registers its origin at launch.') };
    }
    const method = event.req.method;
    if (method === 'OPTIONS' && origin !== null && headers.get('access-control-request-method') !== null) {
      const preflight: Record<string, string> = {
        ...corsHeaders(origin),
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '600',
      };
      if (headers.get('access-control-request-private-network') === 'true') preflight['access-control-allow-private-network'] = 'true';
      return { pass: false, preflight: new Response(null, { status: 204, headers: preflight }) };
    }
    if (signed.length) {
      const pathname = event.url.pathname;
      for (const { route, matcher } of signed) {
        const match = route.method === method ? matcher.exec(pathname) : null;
        if (!match) continue;
        const secret = await route.secretFor(match.slice(1));
        const nowSeconds = Math.floor(clock.now().getTime() / 1000);
        const query = event.url.searchParams;
        const ok = secret !== undefined && verifyDeliveryLink(secret, match[1]!, query.get('expires'), query.get('signature'), nowSeconds);
        if (!ok) return { pass: false, origin, error: forbidden('signature_invalid', 'This link is not valid: its signature is missing, wrong or expired.') };
        return { pass: true, origin };
      }
    }
    const authorization = headers.get('authorization');
    if (authorization === null || authorization.trim() === '') {
      // `/` is guarded too (no path is exempt), and is what a person opens in a browser: say what this is and where to go.
      const message = event.url.pathname === '/' ? ROOT_WITHOUT_TOKEN : 'Send the API token as Authorization: Bearer <token>; it is in the state directory as api-token-<port>.';
      return { pass: false, origin, error: new SvcError(401, 'token_missing', message) };
    }
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match || !crypto.timingSafeEqual(sha256(match[1]!), expectedDigest)) {
      return { pass: false, origin, error: new SvcError(401, 'token_invalid', 'The API token is not valid for this server; read it again from api-token-<port>.') };
    }
    return { pass: true, origin };
  };
}

/** Add the allow-origin headers to a Response built by a handler (SSE, files). */
export function withCors(response: Response, origin: string | null): Response {
  if (!origin) return response;
  let out = response;
  try {
    for (const [k, v] of Object.entries(corsHeaders(origin))) out.headers.set(k, v);
  } catch {
    // Headers of a fetched or frozen Response are immutable: copy it first.
    out = new Response(response.body, response);
    for (const [k, v] of Object.entries(corsHeaders(origin))) out.headers.set(k, v);
  }
  return out;
}
