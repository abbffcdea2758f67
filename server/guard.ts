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
import { SvcError, forbidden } from '../src/errors.js';
import type { Logger } from '../src/log.js';
import type { Clock } from '../src/clock.js';
import { verifyDeliveryLink } from '../src/runtime/signing.js';
import { errorResponse } from './errors.js';
import { pathMatcher } from './registry.js';
import type { ServerRuntime } from './runtime.js';

export const GUARD_EXEMPT_PATHS: readonly string[] = [];

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Svc-Library';

function sameSecret(given: string, expected: string): boolean {
  // Hash both sides so the comparison takes the same time whatever the lengths.
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

function hostAllowed(host: string | null, port: number): boolean {
  if (host === null) return false;
  const lower = host.toLowerCase();
  return lower === `127.0.0.1:${port}` || lower === `localhost:${port}`;
}

function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, vary: 'Origin' };
}

export type GuardDecision = { pass: true; origin: string | null } | { pass: false; response: Response };

export function createGuard(runtime: ServerRuntime, log: Logger, clock: Clock) {
  const signed = () => runtime.signedRoutes.map((r) => ({ route: r, matcher: pathMatcher(r.path) }));
  const refuse = (err: SvcError, origin: string | null = null): GuardDecision => {
    const response = errorResponse(err, log);
    if (origin) for (const [k, v] of Object.entries(corsHeaders(origin))) response.headers.set(k, v);
    return { pass: false, response };
  };

  return async function check(event: H3Event): Promise<GuardDecision> {
    const headers = event.req.headers;
    if (!hostAllowed(headers.get('host'), runtime.port)) {
      return refuse(forbidden('host_refused', 'Requests must name this server as 127.0.0.1 or localhost with its port.'));
    }
    const origin = headers.get('origin');
    if (origin !== null && !runtime.origins.allows(origin)) {
      return refuse(forbidden('origin_refused', 'This origin may not call svc; the window registers its origin at launch.'));
    }
    const method = event.req.method.toUpperCase();
    if (method === 'OPTIONS' && origin !== null && headers.get('access-control-request-method') !== null) {
      const preflight: Record<string, string> = {
        ...corsHeaders(origin),
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '600',
      };
      if (headers.get('access-control-request-private-network') === 'true') preflight['access-control-allow-private-network'] = 'true';
      return { pass: false, response: new Response(null, { status: 204, headers: preflight }) };
    }
    const url = new URL(event.req.url);
    for (const { route, matcher } of signed()) {
      const match = route.method === method ? matcher.exec(url.pathname) : null;
      if (!match) continue;
      const secret = await route.secretFor(match.slice(1));
      const nowSeconds = Math.floor(clock.now().getTime() / 1000);
      const ok = secret !== undefined && verifyDeliveryLink(secret, match[1]!, url.searchParams.get('expires'), url.searchParams.get('signature'), nowSeconds);
      if (!ok) return refuse(forbidden('signature_invalid', 'This link is not valid: its signature is missing, wrong or expired.'), origin);
      return { pass: true, origin };
    }
    const authorization = headers.get('authorization');
    if (authorization === null || authorization.trim() === '') {
      return refuse(new SvcError(401, 'token_missing', 'Send the API token as Authorization: Bearer <token>; it is in the state directory as api-token-<port>.'), origin);
    }
    const match = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!match || !sameSecret(match[1]!, runtime.token)) {
      return refuse(new SvcError(401, 'token_invalid', 'The API token is not valid for this server; read it again from api-token-<port>.'), origin);
    }
    return { pass: true, origin };
  };
}

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
